package main

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

// cmdFlags is a subcommand's flag.FlagSet that remembers the text of every
// flag as the user typed it (so that messages show "1e-400", not the 0 it
// parses to), refuses a flag given twice, turns the flag package's errors
// into one-line messages that name the flag with two dashes, and prints
// help in definition order, with --flag and each default once.
type cmdFlags struct {
	fs      *flag.FlagSet
	cmd     string
	order   []string          // flag names in definition order
	heading map[string]string // a heading printed before the flag
	pending string            // the heading of the next flag defined
	typed   map[string]string // the text of each flag given
	given   []string          // the names given, in command-line order
	err     error             // the first error found while setting a flag
}

// newCmdFlags returns an empty flag set for subcommand cmd.
func newCmdFlags(cmd string) *cmdFlags {
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return &cmdFlags{fs: fs, cmd: cmd, heading: map[string]string{}, typed: map[string]string{}}
}

// section prints title before the next flag defined.
func (c *cmdFlags) section(title string) { c.pending = title }

func (c *cmdFlags) define(name string, v flag.Value, usage string) {
	if c.pending != "" {
		c.heading[name], c.pending = c.pending, ""
	}
	c.fs.Var(&trackedValue{Value: v, c: c, name: name}, name, usage)
	c.order = append(c.order, name)
}

// String, Int, Int64, Uint64, Float64 and Bool define flags like the flag
// package's *Var functions.
func (c *cmdFlags) String(p *string, name, def, usage string) {
	*p = def
	c.define(name, (*stringValue)(p), usage)
}

func (c *cmdFlags) Int(p *int, name string, def int, usage string) {
	*p = def
	c.define(name, (*intValue)(p), usage)
}

func (c *cmdFlags) Int64(p *int64, name string, def int64, usage string) {
	*p = def
	c.define(name, (*int64Value)(p), usage)
}

func (c *cmdFlags) Uint64(p *uint64, name string, def uint64, usage string) {
	*p = def
	c.define(name, (*uint64Value)(p), usage)
}

func (c *cmdFlags) Float64(p *float64, name string, def float64, usage string) {
	*p = def
	c.define(name, (*float64Value)(p), usage)
}

func (c *cmdFlags) Bool(p *bool, name string, def bool, usage string) {
	*p = def
	c.define(name, (*boolValue)(p), usage)
}

// errStop stops the flag package's parsing after a trackedValue recorded
// the error to report in c.err.
var errStop = errors.New("stop")

// parse parses args. It returns errHelp after printing the help to stdout
// when asked (-h, --help), and a usage error for anything else wrong,
// including a flag given twice and an argument left over.
func (c *cmdFlags) parse(args []string, stdout io.Writer, intro string) error {
	return c.finishParse(c.fs.Parse(args), stdout, intro)
}

// finishParse turns the error of the flag package's Parse into parse's.
func (c *cmdFlags) finishParse(err error, stdout io.Writer, intro string) error {
	switch {
	case c.err != nil:
		return c.err
	case errors.Is(err, flag.ErrHelp):
		c.printHelp(stdout, intro)
		return errHelp
	case err != nil:
		msg := err.Error()
		if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
			return usagef("unknown flag --%s for %s (ptbatch help %s lists its flags)", name, c.cmd, c.cmd)
		}
		if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
			return usagef("flag --%s needs a value", name)
		}
		return usagef("%s", msg)
	case c.fs.NArg() > 0:
		return usagef("unexpected argument %q for %s (flags are --name value)", c.fs.Arg(0), c.cmd)
	}
	return nil
}

// set reports whether the flag was given on the command line.
func (c *cmdFlags) set(name string) bool {
	_, ok := c.typed[name]
	return ok
}

// show returns the flag's value as the user typed it, or its default.
func (c *cmdFlags) show(name string) string {
	if s, ok := c.typed[name]; ok {
		return s
	}
	if fl := c.fs.Lookup(name); fl != nil {
		return fl.DefValue
	}
	return ""
}

// bad returns the usage error "invalid --name VALUE: why", VALUE as typed.
// String values are quoted.
func (c *cmdFlags) bad(name, format string, args ...any) error {
	v := c.show(name)
	if fl := c.fs.Lookup(name); fl != nil {
		if _, ok := fl.Value.(*trackedValue).Value.(*stringValue); ok {
			v = strconv.Quote(v)
		}
	}
	return usagef("invalid --%s %s: %s", name, v, fmt.Sprintf(format, args...))
}

// checkFinite refuses NaN and infinite values of the float flags given.
func (c *cmdFlags) checkFinite() error {
	for _, name := range c.given {
		if v, ok := c.fs.Lookup(name).Value.(*trackedValue).Value.(*float64Value); ok {
			if x := float64(*v); math.IsNaN(x) || math.IsInf(x, 0) {
				return c.bad(name, "must be a finite number")
			}
		}
	}
	return nil
}

// printHelp prints intro and then every flag in definition order:
// "--name TYPE", its usage and its default (unless the usage states it).
func (c *cmdFlags) printHelp(w io.Writer, intro string) {
	fmt.Fprintln(w, strings.TrimRight(intro, "\n"))
	fmt.Fprintln(w, "\nFlags:")
	for _, name := range c.order {
		if h, ok := c.heading[name]; ok {
			fmt.Fprintf(w, "\n%s\n", h)
		}
		fl := c.fs.Lookup(name)
		typ, usage := flag.UnquoteUsage(fl)
		if !strings.Contains(fl.Usage, "`") {
			typ = typeName(fl.Value.(*trackedValue).Value)
		}
		line := "  --" + name
		if typ != "" {
			line += " " + typ
		}
		if !strings.Contains(usage, "default") && fl.DefValue != "" && fl.DefValue != "false" {
			if _, isString := fl.Value.(*trackedValue).Value.(*stringValue); isString {
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

// trackedValue wraps a flag's value: it records the text given and refuses
// a second occurrence.
type trackedValue struct {
	flag.Value
	c    *cmdFlags
	name string
}

func (t *trackedValue) Set(s string) error {
	c := t.c
	if prev, ok := c.typed[t.name]; ok {
		show := func(v string) string { return v }
		if _, isString := t.Value.(*stringValue); isString {
			show = strconv.Quote
		}
		c.err = usagef("invalid --%s %s: --%s is given twice (first %s); give each flag once", t.name, show(s), t.name, show(prev))
		return errStop
	}
	c.typed[t.name] = s
	c.given = append(c.given, t.name)
	if err := t.Value.Set(s); err != nil {
		shown := s
		if _, isString := t.Value.(*stringValue); isString {
			shown = strconv.Quote(s)
		}
		c.err = usagef("invalid --%s %s: %v", t.name, shown, err)
		return errStop
	}
	return nil
}

// IsBoolFlag lets a boolean flag be given without a value.
func (t *trackedValue) IsBoolFlag() bool {
	b, ok := t.Value.(*boolValue)
	return ok && b.IsBoolFlag()
}

// Get returns the underlying value.
func (t *trackedValue) Get() any { return t.Value.(flag.Getter).Get() }

// The values: like the flag package's, with messages that say what is
// wanted.

type stringValue string

// Set refuses an empty value: a job script's unset variable ("--resume
// $CKPT") must not silently mean "no file" (issue 26, cause 6).
func (v *stringValue) Set(s string) error {
	if s == "" {
		return errors.New("empty value; give a value, or leave the flag out for its default")
	}
	*v = stringValue(s)
	return nil
}
func (v *stringValue) String() string { return string(*v) }
func (v *stringValue) Get() any       { return string(*v) }

// The integer flags read decimal only, as sweep's lists do: a leading
// zero is not octal (--seed 010 is 10, not 8), and 0x… is refused.

type intValue int

func (v *intValue) Set(s string) error {
	x, err := strconv.ParseInt(s, 10, strconv.IntSize)
	if err != nil {
		return numError(err, "a whole number")
	}
	*v = intValue(x)
	return nil
}
func (v *intValue) String() string { return strconv.Itoa(int(*v)) }
func (v *intValue) Get() any       { return int(*v) }

type int64Value int64

func (v *int64Value) Set(s string) error {
	x, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return numError(err, "a whole number")
	}
	*v = int64Value(x)
	return nil
}
func (v *int64Value) String() string { return strconv.FormatInt(int64(*v), 10) }
func (v *int64Value) Get() any       { return int64(*v) }

type uint64Value uint64

func (v *uint64Value) Set(s string) error {
	x, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return numError(err, "a whole number from 0 to 18446744073709551615")
	}
	*v = uint64Value(x)
	return nil
}
func (v *uint64Value) String() string { return strconv.FormatUint(uint64(*v), 10) }
func (v *uint64Value) Get() any       { return uint64(*v) }

type float64Value float64

func (v *float64Value) Set(s string) error {
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return errors.New("beyond the range of float64 (about ±1.8e308)")
		}
		return errors.New("want a number")
	}
	*v = float64Value(x)
	return nil
}
func (v *float64Value) String() string { return strconv.FormatFloat(float64(*v), 'g', -1, 64) }
func (v *float64Value) Get() any       { return float64(*v) }

type boolValue bool

func (v *boolValue) Set(s string) error {
	x, err := strconv.ParseBool(s)
	if err != nil {
		return errors.New("want true or false")
	}
	*v = boolValue(x)
	return nil
}
func (v *boolValue) String() string   { return strconv.FormatBool(bool(*v)) }
func (v *boolValue) Get() any         { return bool(*v) }
func (v *boolValue) IsBoolFlag() bool { return true }

// numError turns a strconv error into "want <what>" or "out of range".
func numError(err error, what string) error {
	if errors.Is(err, strconv.ErrRange) {
		return fmt.Errorf("out of range (want %s that fits in 64 bits)", what)
	}
	return fmt.Errorf("want %s", what)
}

// parseSize parses a memory size: a number with an optional unit B, kB,
// MB, GB, TB (powers of 1000), KiB, MiB, GiB, TiB (powers of 1024) or K, M,
// G, T (powers of 1024), such as 512MiB, 4GiB or 1.5G.
func parseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	units := []struct {
		suffix string
		mult   float64
	}{
		{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
		{"kB", 1e3}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12},
		{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"T", 1 << 40}, {"B", 1},
	}
	mult := 1.0
	for _, u := range units {
		if rest, ok := strings.CutSuffix(t, u.suffix); ok {
			t, mult = strings.TrimSpace(rest), u.mult
			break
		}
	}
	x, err := strconv.ParseFloat(t, 64)
	switch {
	case err != nil || math.IsNaN(x) || strings.ContainsAny(t, "xXpP_") || strings.EqualFold(t, "inf") || strings.EqualFold(t, "+inf"):
		return 0, errors.New("want a size such as 512MiB or 4GiB")
	case !(x*mult >= 1):
		return 0, errors.New("must be at least 1 byte")
	case x*mult >= 1<<63:
		return 0, errors.New("must be below 8 EiB")
	}
	return int64(x * mult), nil
}

// sizeValue is a --max-memory value: 0 means not given.
type sizeValue int64

func (v *sizeValue) Set(s string) error {
	n, err := parseSize(s)
	if err != nil {
		return err
	}
	*v = sizeValue(n)
	return nil
}
func (v *sizeValue) String() string {
	if *v == 0 {
		return ""
	}
	return formatBytes(int64(*v))
}
func (v *sizeValue) Get() any { return int64(*v) }

// Size defines a memory-size flag.
func (c *cmdFlags) Size(p *int64, name, usage string) {
	c.define(name, (*sizeValue)(p), usage)
}

// formatBytes returns n in binary units: "512 B", "3.2 MiB", "1.5 TiB".
func formatBytes(n int64) string {
	const units = "KMGTPE"
	if n < 1024 {
		return fmt.Sprintf("%d B", n)
	}
	x, i := float64(n)/1024, 0
	for x >= 1024 && i < len(units)-1 {
		x /= 1024
		i++
	}
	return fmt.Sprintf("%.1f %ciB", x, units[i])
}

// checkOut creates the directory dir and checks that a file can be
// written in it, before any work, so that a bad --out is refused at once.
func checkOut(c *cmdFlags, name, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return c.bad(name, "cannot create the directory: %v", unwrapPath(err))
	}
	fh, err := os.CreateTemp(dir, ".ptbatch-write-check-*")
	if err != nil {
		return c.bad(name, "cannot write in the directory: %v", unwrapPath(err))
	}
	fh.Close()
	os.Remove(fh.Name())
	return nil
}

// unwrapPath returns the reason of a *os.PathError (the path is in the
// message already).
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s %s: %w", pe.Op, pe.Path, pe.Err)
	}
	return err
}
