package registry

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/ptbatch/ptbatch/models"
)

// Kind is the kind of a parameter's values.
type Kind int

const (
	// Float is a real parameter.
	Float Kind = iota
	// Int is a parameter whose value must be an integer.
	Int
	// Bool is a switch: its value is 0 (off, the default) or 1 (on), and
	// on the command line it is a flag without a value.
	Bool
	// String is a text parameter, such as a data file's name: its value
	// is in Texts, not Values, its default in Model.TextDefaults (see
	// NewWithTexts).
	String
)

// Param is one parameter of a model.
type Param struct {
	Name    string  // the `ptbatch run` flag without dashes, such as "prior-a"
	Kind    Kind    // Float, Int, Bool or String
	Default float64 // the value when none is given
	Min     float64 // smallest value accepted
	Max     float64 // largest value accepted
	Help    string  // one line for help text
}

// Values holds parameter values by name.
type Values map[string]float64

// Model is a registered model: its name, its parameters and a constructor.
type Model struct {
	Name   string
	Help   string
	Params []Param
	// New builds the model from a value for every parameter (New of the
	// package fills in the defaults and checks the ranges first) and the
	// run's seed, from which a model may simulate its data. It returns a
	// *ParamError for a bad value.
	New func(v Values, seed uint64) (models.Model, error)
	// Choices names the values of the parameters that take one of a
	// list of names (an Int parameter from 0 to len−1): the value is the
	// index of the name, as Choice gives it. Study files write the names.
	Choices map[string][]string
	// TextDefaults holds the defaults of the String parameters.
	TextDefaults Texts
	// NewText, for a model with String parameters, builds it from the
	// numbers v, the texts t (each completed with its default) and the
	// seed; New then builds it with the texts' defaults alone.
	NewText func(v Values, t Texts, seed uint64) (models.Model, error)
	// Check, when not nil, refuses the values the model cannot take
	// beyond the ranges of Params, in the order a user should hear of
	// them: given holds the values given (a command line's flags, a study
	// file's keys), full every parameter with the defaults filled in. It
	// runs before the ranges are checked, and returns a *ParamError.
	Check func(given, full Values) error
	// Settings, when not nil, describes the model built as m from given
	// and full (and the texts t) for a run's record, in place of every
	// parameter's value (see Settings).
	Settings func(given, full Values, t Texts, m models.Model) map[string]any
}

// Choice returns the value of the name choice of parameter param (its
// index in Choices[param]) and whether param has such a choice.
func (m Model) Choice(param, choice string) (float64, bool) {
	for i, c := range m.Choices[param] {
		if c == choice {
			return float64(i), true
		}
	}
	return 0, false
}

// Param returns the parameter called name and whether the model has it.
func (m Model) Param(name string) (Param, bool) {
	for _, p := range m.Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// ErrUnknownModel is returned for a model name that is not registered.
var ErrUnknownModel = errors.New("registry: unknown model")

// ErrParam is the error every *ParamError matches with errors.Is.
var ErrParam = errors.New("registry: invalid parameter")

// ParamError is a bad parameter of a model: unknown, out of range, or
// (with an empty Param) a combination the model refuses.
type ParamError struct {
	Model string
	Param string // "" when no single parameter is at fault
	Value float64
	Why   string // the reason, naming other parameters as they are
	// tmpl is Why with {p} for the name of parameter p and {=p} for its
	// value in vals (Reason); "" when Why names none.
	tmpl string
	vals Values
}

// Error returns "registry: <Model> <Param> = <Value>: <Why>", or
// "registry: <Model>: <Why>" without a parameter.
func (e *ParamError) Error() string {
	if e.Param == "" {
		return fmt.Sprintf("registry: %s: %s", e.Model, e.Why)
	}
	return fmt.Sprintf("registry: %s %s = %v: %s", e.Model, e.Param, e.Value, e.Why)
}

// Is reports whether target is ErrParam.
func (e *ParamError) Is(target error) bool { return target == ErrParam }

var (
	mu         sync.RWMutex
	modelList  []Model // in registration order
	modelIndex = map[string]int{}
)

// Register makes a model available by its name. It panics if the name is
// empty or taken, if New is nil, or if a parameter's default is outside
// its range.
func Register(m Model) {
	if m.Name == "" || m.New == nil {
		panic("registry: Register needs a name and a constructor")
	}
	for _, p := range m.Params {
		if checkRange(p, p.Default) != "" {
			panic("registry: a parameter's default is outside its range")
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if _, dup := modelIndex[m.Name]; dup {
		panic("registry: Register called twice for one model name")
	}
	modelIndex[m.Name] = len(modelList)
	modelList = append(modelList, m)
}

// Lookup returns the model registered as name.
func Lookup(name string) (Model, bool) {
	mu.RLock()
	defer mu.RUnlock()
	i, ok := modelIndex[name]
	if !ok {
		return Model{}, false
	}
	return modelList[i], true
}

// Names returns the registered models' names in registration order (the
// built-in ones first).
func Names() []string {
	mu.RLock()
	defer mu.RUnlock()
	out := make([]string, len(modelList))
	for i, m := range modelList {
		out[i] = m.Name
	}
	return out
}

// New builds the model registered as name from v, which may leave out
// parameters (they take their defaults), and the seed. It returns
// ErrUnknownModel for a name not registered and a *ParamError for a
// parameter the model does not have or a value out of range.
func New(name string, v Values, seed uint64) (models.Model, error) {
	return NewWithTexts(name, v, nil, seed) // text parameters at their defaults
}

// Complete returns v with every parameter the model has and v lacks set
// to its default, after checking that v names only the model's
// parameters, that the model takes the values (Check) and that each is
// in range (and an integer for Int), in the order of Params.
func (m Model) Complete(v Values) (Values, error) {
	names := make([]string, 0, len(v))
	for name := range v {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		p, ok := m.Param(name)
		if !ok {
			return nil, paramErrorf(m.Name, name, v, "not a parameter of this model")
		}
		if p.Kind == String {
			return nil, paramErrorf(m.Name, name, v, "a text parameter: give it in Texts")
		}
	}
	full := make(Values, len(m.Params))
	for _, p := range m.Params {
		if x, ok := v[p.Name]; ok {
			full[p.Name] = x
		} else if p.Kind != String {
			full[p.Name] = p.Default
		}
	}
	if m.Check != nil {
		if err := m.Check(v, full); err != nil {
			return nil, err
		}
	}
	for _, p := range m.Params {
		if why := checkRange(p, full[p.Name]); p.Kind != String && why != "" {
			return nil, paramErrorf(m.Name, p.Name, full, "%s", why)
		}
	}
	return full, nil
}

// checkRange returns why x is not a value of p, or "".
func checkRange(p Param, x float64) string {
	switch {
	case !(x >= p.Min && x <= p.Max):
		return fmt.Sprintf("must be in [%g, %g]", p.Min, p.Max)
	case p.Kind == Int && x != math.Trunc(x):
		return "must be an integer"
	case p.Kind == Bool && x != 0 && x != 1:
		return "must be 0 or 1"
	}
	return ""
}
