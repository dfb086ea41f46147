package study

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestLoadExample loads examples/study.toml and checks its plan against
// the file as written there: (gaussian dim = [1, 4], and betabinomial) ×
// 4 methods × seeds [1, 2] = 24 runs of 4 replicates and 1000
// iterations; the Gaussian runs carry the grid axis dim; [study]'s
// chains = 16 reaches every method; the third method's settings.
func TestLoadExample(t *testing.T) {
	p, err := Load(filepath.Join("..", "examples", "study.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "example" || len(p.Runs) != 24 || p.Units() != 96 {
		t.Fatalf("plan %q with %d runs and %d units, want example, 24 and 96", p.Name, len(p.Runs), p.Units())
	}
	for i, r := range p.Runs {
		if r.Iterations != 1000 || r.Replicates != 4 || r.Method.Chains != 16 || r.Seed != uint64(i%2+1) {
			t.Errorf("run %d: %d iterations, %d replicates, %d chains, seed %d; want 1000, 4, 16, %d", i, r.Iterations, r.Replicates, r.Method.Chains, r.Seed, i%2+1)
		}
	}
	if g := p.Runs[8].Grid(); len(g) != 1 || g[0] != (Axis{"dim", "4"}) || p.Runs[8].Model.Values["dim"] != 4 {
		t.Errorf("run 8 (second Gaussian, first method, seed 1): grid %v, values %v; want dim=4", g, p.Runs[8].Model.Values)
	}
	if m := p.Runs[4].Method; m.Label != "NRPT+Spline" || m.Tuning != "paper" || m.Knots != 4 || m.Scans != 10 || m.LearningRate != 0.2 {
		t.Errorf("run 4's method: %+v, want the file's NRPT+Spline", m)
	}
	if b := p.Runs[16].Model; b.Name != "betabinomial" || b.Values["successes"] != 1400 || len(b.Grid) != 0 {
		t.Errorf("run 16's model: %+v, want betabinomial with successes 1400 and no grid", b)
	}
}

// TestParseFileErrors checks that ParseFile returns a *FileError with
// the file, the line (counted in the documents below) and the key.
func TestParseFileErrors(t *testing.T) {
	const head = "[study]\nname = \"t\"\nreplicates = 2\niterations = 100\n" // lines 1-4
	cases := []struct {
		name, doc string
		line      int
		key       string
	}{
		{"unknown study key", head + "colour = 1\n", 5, "colour"},
		{"key of another model", head + "[[model]]\nname = \"betabinomial\"\nsigma0 = 0.1\n", 7, "sigma0"},
		{"scans not dividing iterations", head + "[[model]]\nname = \"galaxy\"\n[[method]]\nlabel = \"m\"\nscans = 7\n", 4, "iterations"},
		{"unknown table", head + "[[models]]\n", 5, ""},
		{"no [[method]]", head + "[[model]]\nname = \"galaxy\"\n", 0, ""},
		{"TOML syntax (a key without a value)", head + "seeds = \n", 5, ""},
	}
	for _, c := range cases {
		_, err := ParseFile("f.toml", []byte(c.doc))
		var fe *FileError
		if !errors.As(err, &fe) || fe.File != "f.toml" || fe.Line != c.line || fe.Key != c.key {
			t.Errorf("%s: %#v, want a *FileError of f.toml at line %d, key %q", c.name, err, c.line, c.key)
		}
	}
	if _, err := Load(filepath.Join(t.TempDir(), "none.toml")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Load of a missing file: %v, want os.ErrNotExist", err)
	}
}
