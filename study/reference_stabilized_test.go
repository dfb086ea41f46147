package study

import (
	"errors"
	"strings"
	"testing"

	"github.com/ptbatch/ptbatch/models"
)

// TestParseFileStabilized checks reference = "stabilized": with either
// family its Config wraps the model in models.WithStabilized's (its
// description) with half the chains on the second leg
// (batch.Config.VariationalLeg = 10 of the method's 20), and passes
// Validate; a model that is not models.Unconstrained is a *FileError at
// the reference key's line (line 9, as in TestParseFileReference).
func TestParseFileStabilized(t *testing.T) {
	const head = "[study]\nname = \"t\"\nreplicates = 2\niterations = 100\n"
	doc := head + "[[model]]\nname = \"gaussian\"\n[[method]]\nlabel = \"m\"\nchains = 20\nreference = \"stabilized\"\nvariational = [\"diag\", \"dense\"]\n"
	p, err := ParseFile("f.toml", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Runs) != 2 {
		t.Fatalf("%d runs, want 2", len(p.Runs))
	}
	for i, want := range []string{"stabilized diagonal", "stabilized dense"} {
		m, _ := p.Runs[i].NewModel()
		cfg, err := p.Runs[i].Config(m)
		d, ok := cfg.Model.(models.Described)
		if err != nil || !ok || !strings.HasPrefix(d.Description(), want) || !models.IsStabilized(cfg.Model) || cfg.VariationalLeg != 10 {
			t.Errorf("run %d's Config: %v, model %T, second leg %d; want one described %q with 10 chains on leg 2", i, err, cfg.Model, cfg.VariationalLeg, want)
		}
	}
	_, err = ParseFile("f.toml", []byte(head+"[[model]]\nname = \"betabinomial\"\n[[method]]\nlabel = \"m\"\nreference = \"stabilized\"\n"))
	var fe *FileError
	if !errors.As(err, &fe) || fe.Line != 9 || fe.Key != "reference" {
		t.Errorf("the Beta-binomial with the stabilized reference: %#v, want a *FileError at line 9, key reference", err)
	}
}

// TestParseFileStabilizedChains checks the stabilized reference's chains
// at their bounds: 4 chains with the linear path (2 on each leg) and 9
// with the K = 4 spline (5 on leg 1) are taken, 3 chains and 8 with the
// spline refused at their keys' lines.
func TestParseFileStabilizedChains(t *testing.T) {
	const head = "[study]\nname = \"t\"\nreplicates = 2\niterations = 100\n[[model]]\nname = \"gaussian\"\n[[method]]\nlabel = \"m\"\nreference = \"stabilized\"\n"
	for _, c := range []struct {
		keys string
		line int    // 0: taken
		key  string // the key refused
	}{
		{"path = \"linear\"\nchains = 4\n", 0, ""},
		{"chains = 9\n", 0, ""},
		{"path = \"linear\"\nchains = 3\n", 11, "chains"},
		{"chains = 8\n", 10, "knots"},
		{"knots = 4\nchains = 8\n", 10, "knots"},
	} {
		_, err := ParseFile("f.toml", []byte(head+c.keys))
		var fe *FileError
		switch {
		case c.line == 0 && err != nil:
			t.Errorf("%q: %v, want it taken", c.keys, err)
		case c.line != 0 && (!errors.As(err, &fe) || fe.Line != c.line || fe.Key != c.key):
			t.Errorf("%q: %v, want a *FileError at line %d, key %s", c.keys, err, c.line, c.key)
		}
	}
}
