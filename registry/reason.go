package registry

import (
	"fmt"
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
