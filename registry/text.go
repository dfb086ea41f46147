package registry

import (
	"fmt"

	"github.com/ptbatch/ptbatch/models"
)

// Texts holds the values of String parameters by name.
type Texts map[string]string

// NewWithTexts builds the model registered as name from the numbers v and
// the texts t, either of which may leave out parameters (they take their
// defaults), and the seed. It returns ErrUnknownModel for a name not
// registered and a *ParamError for a parameter the model does not have,
// given in the wrong map, or out of range.
func NewWithTexts(name string, v Values, t Texts, seed uint64) (models.Model, error) {
	m, ok := Lookup(name)
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrUnknownModel, name)
	}
	full, err := m.Complete(v)
	if err != nil {
		return nil, err
	}
	texts, err := m.CompleteTexts(t)
	if err != nil {
		return nil, err
	}
	if m.NewText == nil {
		return m.New(full, seed)
	}
	return m.NewText(full, texts, seed)
}

// CompleteTexts returns t with every String parameter the model has and t
// lacks set to its default, after checking that t names only String
// parameters of the model.
func (m Model) CompleteTexts(t Texts) (Texts, error) {
	for name := range t {
		if p, ok := m.Param(name); !ok || p.Kind != String {
			return nil, &ParamError{Model: m.Name, Why: fmt.Sprintf("%s is not a text parameter of this model", name)}
		}
	}
	full := Texts{}
	for _, p := range m.Params {
		if p.Kind != String {
			continue
		}
		s, ok := t[p.Name]
		if !ok {
			s = m.TextDefaults[p.Name]
		}
		full[p.Name] = s
	}
	return full, nil
}

// newWithDefaultTexts returns the New of a model with String parameters:
// NewText with the texts' defaults.
func newWithDefaultTexts(m *Model) func(Values, uint64) (models.Model, error) {
	return func(v Values, seed uint64) (models.Model, error) {
		t, _ := m.CompleteTexts(nil)
		return m.NewText(v, t, seed)
	}
}
