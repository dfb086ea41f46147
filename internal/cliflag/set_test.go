package cliflag

import (
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testValues holds the values of testSet's flags.
type testValues struct {
	s  string
	i  int
	i6 int64
	u  uint64
	f  float64
	b  bool
	m  int64
}

// testSet returns a Set with one flag of every kind; the names and
// defaults are arbitrary.
func testSet() (*Set, *testValues) {
	v := &testValues{}
	s := New("prog", "cmd")
	s.String(&v.s, "name", "x", "a string")
	s.Int(&v.i, "n", 3, "an int")
	s.Int64(&v.i6, "big", -1, "an int64")
	s.Uint64(&v.u, "seed", 1, "a uint64")
	s.Section("Numbers:")
	s.Float64(&v.f, "rate", 0.5, "a float")
	s.Bool(&v.b, "quiet", false, "a bool")
	s.Size(&v.m, "max-memory", "a `SIZE`")
	return s, v
}

// TestParseValues checks that every kind of flag reads its text, that
// integers are decimal only (010 is 10, as the package doc says), and that
// Typed, Given, IsSet and Show report the text as given.
func TestParseValues(t *testing.T) {
	s, v := testSet()
	err := s.Parse([]string{"--n", "010", "--name=y", "--big", "-7", "--seed", "18446744073709551615",
		"--rate", "1e-400", "--quiet", "--max-memory", "1.5GiB"}, io.Discard, "")
	if err != nil {
		t.Fatal(err)
	}
	// 1.5 GiB = 1.5 × 2^30 bytes; 1e-400 underflows to 0 in float64.
	if v.i != 10 || v.s != "y" || v.i6 != -7 || v.u != math.MaxUint64 || v.f != 0 || !v.b || v.m != 3<<29 {
		t.Errorf("values %+v", *v)
	}
	if got := strings.Join(s.Given(), " "); got != "n name big seed rate quiet max-memory" {
		t.Errorf("Given = %q", got)
	}
	if txt, ok := s.Typed("rate"); !ok || txt != "1e-400" || s.Show("rate") != "1e-400" {
		t.Errorf("rate typed %q %v, shown %q; want 1e-400 as typed", txt, ok, s.Show("rate"))
	}
	s2, _ := testSet()
	if s2.IsSet("n") || s2.Show("n") != "3" || s2.Show("name") != "x" || s2.Show("none") != "" {
		t.Errorf("unparsed set: IsSet(n) %v, Show(n) %q, Show(name) %q", s2.IsSet("n"), s2.Show("n"), s2.Show("name"))
	}
}

// TestRefusals checks each refusal's line and its Flag and Value fields.
func TestRefusals(t *testing.T) {
	for _, c := range []struct {
		args       []string
		line, flag string
		value      string
	}{
		{[]string{"--n", "0x10"}, "invalid --n 0x10: want a whole number", "n", "0x10"},
		{[]string{"--n", "99999999999999999999"}, "invalid --n 99999999999999999999: out of range (want a whole number that fits in 64 bits)", "n", "99999999999999999999"},
		{[]string{"--seed", "-1"}, "invalid --seed -1: want a whole number from 0 to 18446744073709551615", "seed", "-1"},
		{[]string{"--rate", "1e999"}, "invalid --rate 1e999: beyond the range of float64 (about ±1.8e308)", "rate", "1e999"},
		{[]string{"--rate", "abc"}, "invalid --rate abc: want a number", "rate", "abc"},
		{[]string{"--quiet=maybe"}, "invalid --quiet maybe: want true or false", "quiet", "maybe"},
		{[]string{"--name", ""}, `invalid --name "": empty value; give a value, or leave the flag out for its default`, "name", `""`},
		{[]string{"--name", "a", "--name", "b"}, `invalid --name "b": --name is given twice (first "a"); give each flag once`, "name", `"b"`},
		{[]string{"--max-memory", "0"}, "invalid --max-memory 0: must be at least 1 byte", "max-memory", "0"},
		{[]string{"--nope", "1"}, "unknown flag --nope for cmd (prog help cmd lists its flags)", "nope", ""},
		{[]string{"--n"}, "flag --n needs a value", "n", ""},
		{[]string{"--n", "1", "left"}, `unexpected argument "left" for cmd (flags are --name value)`, "", ""},
	} {
		s, _ := testSet()
		err := s.Parse(c.args, io.Discard, "")
		var fe *Error
		if !errors.As(err, &fe) || fe.Error() != c.line || fe.Flag != c.flag || fe.Value != c.value {
			t.Errorf("%q: %#v, want line %q, flag %q, value %q", c.args, err, c.line, c.flag, c.value)
		}
	}
}

// TestCheckFinite checks that NaN and infinities given to a Float64 flag
// are refused, naming the flag and the text given, and finite values are
// not.
func TestCheckFinite(t *testing.T) {
	for _, c := range []struct {
		text string
		ok   bool
	}{{"NaN", false}, {"-Inf", false}, {"+inf", false}, {"1e308", true}, {"-0", true}} {
		s, _ := testSet()
		if err := s.Parse([]string{"--rate", c.text}, io.Discard, ""); err != nil {
			t.Fatal(err)
		}
		err := s.CheckFinite()
		want := "invalid --rate " + c.text + ": must be a finite number"
		if c.ok != (err == nil) || (err != nil && err.Error() != want) {
			t.Errorf("--rate %s: %v", c.text, err)
		}
	}
}

// TestBad checks Bad's line for a String flag (quoted), a number flag
// and a flag left at its default.
func TestBad(t *testing.T) {
	s, _ := testSet()
	if err := s.Parse([]string{"--name", "a b", "--n", "7"}, io.Discard, ""); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ got, want string }{
		{s.Bad("name", "no %s", "spaces").Error(), `invalid --name "a b": no spaces`},
		{s.Bad("n", "odd").Error(), "invalid --n 7: odd"},
		{s.Bad("big", "default").Error(), "invalid --big -1: default"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

// TestHelp checks the help: intro, sections, placeholders and defaults
// (quoted for strings, none for false or an unset size), in definition
// order, and that Parse returns ErrHelp.
func TestHelp(t *testing.T) {
	s, _ := testSet()
	var b strings.Builder
	if err := s.Parse([]string{"--help"}, &b, "intro\n"); !errors.Is(err, ErrHelp) {
		t.Fatalf("--help: %v, want ErrHelp", err)
	}
	want := `intro

Flags:
  --name string
    	a string (default "x")
  --n int
    	an int (default 3)
  --big int
    	an int64 (default -1)
  --seed uint
    	a uint64 (default 1)

Numbers:
  --rate float
    	a float (default 0.5)
  --quiet
    	a bool
  --max-memory SIZE
    	a SIZE
`
	if b.String() != want {
		t.Errorf("help:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestCheckDir checks that CheckDir creates a missing directory and
// refuses a path under a regular file, naming the flag.
func TestCheckDir(t *testing.T) {
	s, _ := testSet()
	dir := filepath.Join(t.TempDir(), "a", "b")
	if err := s.CheckDir("name", dir); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		t.Fatalf("%s not created: %v", dir, err)
	}
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	err := s.CheckDir("name", filepath.Join(file, "sub"))
	var fe *Error
	if !errors.As(err, &fe) || fe.Flag != "name" || !strings.Contains(fe.Why, "cannot create the directory: mkdir "+file) {
		t.Errorf("dir under a file: %v", err)
	}
}
