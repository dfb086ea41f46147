package cliflag

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

// PrintHelp prints intro and then every flag in definition order, under
// the Section headings: "--name TYPE", its usage and its default (unless
// the usage states it).
func (s *Set) PrintHelp(w io.Writer, intro string) {
	fmt.Fprintln(w, strings.TrimRight(intro, "\n"))
	fmt.Fprintln(w, "\nFlags:")
	for _, name := range s.order {
		if h, ok := s.heading[name]; ok {
			fmt.Fprintf(w, "\n%s\n", h)
		}
		fl := s.fs.Lookup(name)
		v := fl.Value.(*trackedValue).Value
		typ, usage := flag.UnquoteUsage(fl)
		if !strings.Contains(fl.Usage, "`") {
			typ = typeName(v)
		}
		line := "  --" + name
		if typ != "" {
			line += " " + typ
		}
		if !strings.Contains(usage, "default") && fl.DefValue != "" && fl.DefValue != "false" {
			if isString(v) {
				usage += fmt.Sprintf(" (default %q)", fl.DefValue)
			} else {
				usage += fmt.Sprintf(" (default %s)", fl.DefValue)
			}
		}
		fmt.Fprintf(w, "%s\n    \t%s\n", line, strings.ReplaceAll(usage, "\n", "\n    \t"))
	}
}

// typeName is the placeholder of a flag's value in the help.
func typeName(v flag.Value) string {
	switch v.(type) {
	case *boolValue:
		return ""
	case *intValue, *int64Value:
		return "int"
	case *uint64Value:
		return "uint"
	case *float64Value:
		return "float"
	case *sizeValue:
		return "size"
	}
	return "string"
}
