package registry

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/ptbatch/ptbatch/models"
)

// paramErrorf returns the *ParamError of parameter param of model, whose
// values are v: its reason is fmt.Sprintf(format, args...), in which {p}
// names parameter p of v and {=p} shows its value (Reason writes them
// as its caller wants; Why writes the name as it is and the value with
// %v).
func paramErrorf(model, param string, v Values, format string, args ...any) *ParamError {
	e := &ParamError{Model: model, Param: param, Value: v[param], tmpl: fmt.Sprintf(format, args...), vals: v}
	e.Why = e.Reason(func(p string) string { return p }, func(p string) string { return fmt.Sprint(v[p]) })
	return e
}

// Reason returns why the value is refused, with every parameter the
// reason names written name(p) and every value of a parameter it shows
// written value(p): a command line writes "--successes" and the text
// that was typed. Why is Reason with the names as they are.
func (e *ParamError) Reason(name, value func(param string) string) string {
	if e.tmpl == "" {
		return e.Why
	}
	var b strings.Builder
	s := e.tmpl
	for {
		i := strings.IndexByte(s, '{')
		if i < 0 || !strings.Contains(s[i:], "}") {
			break
		}
		j := i + strings.IndexByte(s[i:], '}')
		ref, isValue := strings.CutPrefix(s[i+1:j], "=")
		if _, ok := e.vals[ref]; !ok { // a brace of the text, as in e^{-v}
			b.WriteString(s[:j+1])
		} else if b.WriteString(s[:i]); isValue {
			b.WriteString(value(ref))
		} else {
			b.WriteString(name(ref))
		}
		s = s[j+1:]
	}
	b.WriteString(s)
	return b.String()
}

// Settings returns the settings of the model registered as name, built
// as m from the values given (the others at their defaults) and the texts
// t, for a run's record such as its JSON configuration: the model's own
// description (Model.Settings) or every parameter's value by its name
// with "_" for "-" (an Int's as int, a Bool's as bool, a choice's as its
// name). It returns nil for a name not registered.
func Settings(name string, given Values, t Texts, m models.Model) map[string]any {
	reg, ok := Lookup(name)
	if !ok {
		return nil
	}
	full, err := reg.Complete(given)
	if err != nil {
		return nil
	}
	texts, _ := reg.CompleteTexts(t)
	if reg.Settings != nil {
		return reg.Settings(given, full, texts, m)
	}
	out := map[string]any{}
	for _, p := range reg.Params {
		key, x := strings.ReplaceAll(p.Name, "-", "_"), full[p.Name]
		switch names, choice := reg.Choices[p.Name]; {
		case choice:
			out[key] = names[int(x)]
		case p.Kind == String:
			out[key] = texts[p.Name]
		case p.Kind == Bool:
			out[key] = x != 0
		case p.Kind == Int:
			out[key] = int64(x)
		default:
			out[key] = x
		}
	}
	return out
}

// ValuesOf returns the values of m's parameters that get gives, numbers
// in Values and texts in Texts, for NewWithTexts: get returns the value
// of a parameter (a string, bool, int, int64 or float64, such as a
// command-line flag's) and whether it was given. A choice (Choices) is
// given by its name; a name that is none of them is a *ParamError.
func (m Model) ValuesOf(get func(param string) (any, bool)) (Values, Texts, error) {
	v, t := Values{}, Texts{}
	for _, p := range m.Params {
		x, ok := get(p.Name)
		if !ok {
			continue
		}
		switch x := x.(type) {
		case string:
			names, choice := m.Choices[p.Name]
			if !choice {
				t[p.Name] = x
			} else if v[p.Name], ok = m.Choice(p.Name, x); !ok {
				last := len(names) - 1
				return nil, nil, &ParamError{Model: m.Name, Param: p.Name, Value: math.NaN(),
					Why: "want " + strings.Join(names[:last], ", ") + " or " + names[last]}
			}
		case bool:
			v[p.Name] = 0
			if x {
				v[p.Name] = 1
			}
		case int:
			v[p.Name] = float64(x)
		case int64:
			v[p.Name] = float64(x)
		case float64:
			v[p.Name] = x
		}
	}
	return v, t, nil
}

// DefaultText returns the default of m's parameter p as text: a choice's
// name, a text parameter's TextDefaults, a Bool's "true" or "false", a
// number in its shortest form.
func (m Model) DefaultText(p Param) string {
	if names, ok := m.Choices[p.Name]; ok {
		return names[int(p.Default)]
	}
	switch p.Kind {
	case String:
		return m.TextDefaults[p.Name]
	case Bool:
		return strconv.FormatBool(p.Default != 0)
	}
	return strconv.FormatFloat(p.Default, 'g', -1, 64)
}
