package cliflag

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

// Set is one subcommand's flags. Its zero value is not usable: call New.
type Set struct {
	fs      *flag.FlagSet
	prog    string
	cmd     string
	order   []string          // flag names in definition order
	heading map[string]string // a heading printed before the flag
	pending string            // the heading of the next flag defined
	typed   map[string]string // the text of each flag given
	given   []string          // the names given, in command-line order
	err     *Error            // the first refusal found while setting a flag
}

// New returns an empty flag set for the subcommand cmd of the program
// prog (prog names the help command in the refusal of an unknown flag).
func New(prog, cmd string) *Set {
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return &Set{fs: fs, prog: prog, cmd: cmd, heading: map[string]string{}, typed: map[string]string{}}
}

// FlagSet returns the flag.FlagSet underneath, for Lookup and for parsing
// positional arguments between flags (then pass Parse's error to Finish).
func (s *Set) FlagSet() *flag.FlagSet { return s.fs }

// Section prints title in the help before the next flag defined.
func (s *Set) Section(title string) { s.pending = title }

// Var defines a flag with value v, like flag.FlagSet.Var. A backquoted
// word in usage names the value's placeholder in the help.
func (s *Set) Var(v flag.Value, name, usage string) {
	if s.pending != "" {
		s.heading[name], s.pending = s.pending, ""
	}
	s.fs.Var(&trackedValue{Value: v, s: s, name: name}, name, usage)
	s.order = append(s.order, name)
}

// String defines a string flag with default def; it refuses an empty
// value.
func (s *Set) String(p *string, name, def, usage string) {
	*p = def
	s.Var((*stringValue)(p), name, usage)
}

// Int defines a decimal int flag with default def.
func (s *Set) Int(p *int, name string, def int, usage string) {
	*p = def
	s.Var((*intValue)(p), name, usage)
}

// Int64 defines a decimal int64 flag with default def.
func (s *Set) Int64(p *int64, name string, def int64, usage string) {
	*p = def
	s.Var((*int64Value)(p), name, usage)
}

// Uint64 defines a decimal uint64 flag with default def.
func (s *Set) Uint64(p *uint64, name string, def uint64, usage string) {
	*p = def
	s.Var((*uint64Value)(p), name, usage)
}

// Float64 defines a float64 flag with default def; CheckFinite refuses
// NaN and infinities.
func (s *Set) Float64(p *float64, name string, def float64, usage string) {
	*p = def
	s.Var((*float64Value)(p), name, usage)
}

// Bool defines a bool flag with default def; --name alone sets it.
func (s *Set) Bool(p *bool, name string, def bool, usage string) {
	*p = def
	s.Var((*boolValue)(p), name, usage)
}

// Size defines a memory-size flag (ParseSize); *p stays 0 unless given.
func (s *Set) Size(p *int64, name, usage string) {
	s.Var((*sizeValue)(p), name, usage)
}

// errStop stops the flag package's parsing after a trackedValue recorded
// the refusal to report in s.err.
var errStop = errors.New("stop")

// Parse parses args. It returns ErrHelp after printing intro and the help
// to stdout when asked (-h, --help), and an *Error for anything else
// wrong, including a flag given twice and an argument left over.
func (s *Set) Parse(args []string, stdout io.Writer, intro string) error {
	return s.Finish(s.fs.Parse(args), stdout, intro)
}

// Finish turns err, the error of FlagSet().Parse, into Parse's.
func (s *Set) Finish(err error, stdout io.Writer, intro string) error {
	switch {
	case s.err != nil:
		return s.err
	case errors.Is(err, flag.ErrHelp):
		s.PrintHelp(stdout, intro)
		return ErrHelp
	case err != nil:
		msg := err.Error()
		if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
			return refusal(name, fmt.Sprintf("unknown flag --%s for %s (%s help %s lists its flags)", name, s.cmd, s.prog, s.cmd))
		}
		if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
			return refusal(name, fmt.Sprintf("flag --%s needs a value", name))
		}
		return refusal("", msg)
	case s.fs.NArg() > 0:
		return refusal("", fmt.Sprintf("unexpected argument %q for %s (flags are --name value)", s.fs.Arg(0), s.cmd))
	}
	return nil
}

// Err returns the first refusal of a flag's value met while parsing
// (Finish returns it), or nil.
func (s *Set) Err() error {
	if s.err == nil {
		return nil
	}
	return s.err
}

// IsSet reports whether the flag was given on the command line.
func (s *Set) IsSet(name string) bool {
	_, ok := s.typed[name]
	return ok
}

// Typed returns the text of the flag as given, and whether it was given.
func (s *Set) Typed(name string) (string, bool) {
	t, ok := s.typed[name]
	return t, ok
}

// Given returns the names of the flags given, in command-line order.
func (s *Set) Given() []string { return append([]string(nil), s.given...) }

// Show returns the flag's value as the user typed it, or its default.
func (s *Set) Show(name string) string {
	if t, ok := s.typed[name]; ok {
		return t
	}
	if fl := s.fs.Lookup(name); fl != nil {
		return fl.DefValue
	}
	return ""
}

// isString reports whether v is a String flag's value, whose text the
// refusals quote.
func isString(v flag.Value) bool {
	_, ok := v.(*stringValue)
	return ok
}

// Quoted returns t, a value of the flag name, as a refusal writes it:
// quoted when the flag is a String flag.
func (s *Set) Quoted(name, t string) string {
	if fl := s.fs.Lookup(name); fl != nil && isString(fl.Value.(*trackedValue).Value) {
		return strconv.Quote(t)
	}
	return t
}

// Bad returns the refusal "invalid --name VALUE: why", VALUE as Show
// gives it (quoted for a String flag) and why formatted from format and
// args.
func (s *Set) Bad(name, format string, args ...any) error {
	return invalid(name, s.Quoted(name, s.Show(name)), fmt.Sprintf(format, args...))
}

// CheckFinite refuses NaN and infinite values of the Float64 flags given.
func (s *Set) CheckFinite() error {
	for _, name := range s.given {
		if v, ok := s.fs.Lookup(name).Value.(*trackedValue).Value.(*float64Value); ok {
			if x := float64(*v); math.IsNaN(x) || math.IsInf(x, 0) {
				return s.Bad(name, "must be a finite number")
			}
		}
	}
	return nil
}

// CheckDir creates the directory dir, named by flag name, and checks that
// a file can be written in it, so that a bad directory is refused before
// any work.
func (s *Set) CheckDir(name, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return s.Bad(name, "cannot create the directory: %v", PathReason(err))
	}
	fh, err := os.CreateTemp(dir, ".ptbatch-write-check-*")
	if err != nil {
		return s.Bad(name, "cannot write in the directory: %v", PathReason(err))
	}
	fh.Close()
	os.Remove(fh.Name())
	return nil
}

// trackedValue wraps a flag's value: it records the text given and refuses
// a second occurrence.
type trackedValue struct {
	flag.Value
	s    *Set
	name string
}

// Set records t and sets the value, or records the refusal.
func (v *trackedValue) Set(t string) error {
	s := v.s
	if prev, ok := s.typed[v.name]; ok {
		s.err = invalid(v.name, s.Quoted(v.name, t), fmt.Sprintf("--%s is given twice (first %s); give each flag once", v.name, s.Quoted(v.name, prev)))
		return errStop
	}
	s.typed[v.name] = t
	s.given = append(s.given, v.name)
	if err := v.Value.Set(t); err != nil {
		s.err = invalid(v.name, s.Quoted(v.name, t), err.Error())
		return errStop
	}
	return nil
}

// IsBoolFlag lets a boolean flag be given without a value.
func (v *trackedValue) IsBoolFlag() bool {
	b, ok := v.Value.(*boolValue)
	return ok && b.IsBoolFlag()
}

// Get returns the underlying value.
func (v *trackedValue) Get() any { return v.Value.(flag.Getter).Get() }
