package study

import (
	"bytes"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ptbatch/ptbatch/models"
	"github.com/ptbatch/ptbatch/registry"
)

// TestParseFileReference checks the method key reference: a list of
// "fixed" and "variational" makes a grid axis of two methods, the
// variational one's Config wraps the model (its description is
// Variational's), "fixed" is the zero Method.Reference, and a model that
// is not models.Unconstrained (the Beta-binomial) or an unknown value is
// a *FileError at the reference key's line (counted in the documents).
func TestParseFileReference(t *testing.T) {
	const head = "[study]\nname = \"t\"\nreplicates = 2\niterations = 100\n" // lines 1-4
	const gauss = "[[model]]\nname = \"gaussian\"\n"                         // lines 5-6
	p, err := ParseFile("f.toml", []byte(head+gauss+"[[method]]\nlabel = \"m\"\nreference = [\"fixed\", \"variational\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Runs) != 2 || p.Runs[0].Method.Reference != "" || p.Runs[1].Method.Reference != "variational" {
		t.Fatalf("runs %+v; want two, fixed (\"\") then variational", p.Runs)
	}
	if g := p.Runs[1].Grid(); len(g) != 1 || g[0] != (Axis{"reference", "variational"}) {
		t.Errorf("the variational run's grid %v, want reference=variational", g)
	}
	m, _ := p.Runs[1].NewModel()
	cfg, err := p.Runs[1].Config(m)
	if d, ok := cfg.Model.(models.Described); err != nil || !ok || !strings.HasPrefix(d.Description(), "variational diagonal") {
		t.Errorf("the variational run's Config: %v, model %T; want Variational's model", err, cfg.Model)
	}
	cases := []struct {
		name, doc string
		line      int
	}{
		{"Beta-binomial", head + "[[model]]\nname = \"betabinomial\"\n[[method]]\nlabel = \"m\"\nreference = \"variational\"\n", 9},
		{"unknown value", head + gauss + "[[method]]\nlabel = \"m\"\nreference = \"dense\"\n", 9},
	}
	for _, c := range cases {
		_, err := ParseFile("f.toml", []byte(c.doc))
		var fe *FileError
		if !errors.As(err, &fe) || fe.File != "f.toml" || fe.Line != c.line || fe.Key != "reference" {
			t.Errorf("%s: %#v, want a *FileError of f.toml at line %d, key reference", c.name, err, c.line)
		}
	}
	run := Run{Model: ModelSpec{Name: registry.BetaBinomial, Values: registry.Values{}}, Method: Method{Label: "v", Reference: "variational"}, Iterations: 100, Replicates: 1}
	bb, _ := run.NewModel()
	if _, err := run.Config(bb); !errors.Is(err, models.ErrNotUnconstrained) {
		t.Errorf("Run.Config of the Beta-binomial with the variational reference: %v, want ErrNotUnconstrained", err)
	}
}

// TestReferenceFingerprint checks that a method without a reference
// leaves it out of the plan's JSON (so older plans keep their
// fingerprints) and that the variational reference changes the
// fingerprint.
func TestReferenceFingerprint(t *testing.T) {
	p := testPlan()
	var w bytes.Buffer
	if err := WritePlan(&w, &p); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(w.String(), "Reference") {
		t.Error("a plan without references writes a Reference field")
	}
	fp, _ := p.Fingerprint()
	p.Runs[0].Method.Reference = "variational"
	if got, _ := p.Fingerprint(); got == fp {
		t.Error("the variational reference leaves the fingerprint unchanged")
	}
}

// TestVariationalShardsMergeToOneProcess runs a plan whose method has the
// variational reference, then one whose method has the stabilized one
// (10 chains, 5 of them on leg 2), each on the Gaussian d = 2, σ = 0.1, as
// testPlan's, in one process and as 3 shards (5 replicates: pieces cut
// blocks), and checks that the merged cells and files are the one
// process's bits.
func TestVariationalShardsMergeToOneProcess(t *testing.T) {
	for _, ref := range []string{"variational", "stabilized"} {
		specs := []ModelSpec{{Name: registry.Gaussian, Values: registry.Values{"dim": 2, "sigma0": 0.1, "sigma1": 0.1}}}
		methods := []Method{{Label: ref, Chains: 10, Reference: ref}}
		p := NewPlan(ref, specs, methods, []uint64{1}, 400, 5)
		one, shards := oneAndShards(t, &p)
		merged, err := Merge(&p, shards[1], shards[2], shards[0])
		if err != nil {
			t.Fatal(ref, err)
		}
		if !reflect.DeepEqual(one, merged) || !bytes.Equal(writeAll(t, &p, one), writeAll(t, &p, merged)) {
			t.Errorf("%s: merged cells or files differ from one process's", ref)
		}
	}
}

// TestLoadReferencesExample loads examples/references.toml and checks its
// plan against the file: 4 models × 6 methods × 1 seed = 24 runs of 8
// replicates, 4000 iterations and 30 chains; the methods' references and
// paths as labelled (the stabilized methods with 15 of the 30 chains on
// leg 2); the last six runs the logistic regression on
// examples/logistic/data.csv, a path relative to the study file, whose
// model builds.
func TestLoadReferencesExample(t *testing.T) {
	p, err := Load(filepath.Join("..", "examples", "references.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "references" || len(p.Runs) != 24 || p.Units() != 192 {
		t.Fatalf("plan %q with %d runs and %d units, want references, 24 and 192", p.Name, len(p.Runs), p.Units())
	}
	for i, r := range p.Runs {
		ref, path, _ := strings.Cut(r.Method.Label, "+")
		if ref == "fixed" {
			ref = ""
		}
		if r.Iterations != 4000 || r.Method.Chains != 30 || ref != r.Method.Reference || (path == "linear") != (r.Method.Knots == 1) {
			t.Errorf("run %d: %d iterations, %d chains, method %+v; want 4000, 30 and the label's reference and path", i, r.Iterations, r.Method.Chains, r.Method)
		}
	}
	if v := p.Runs[12].Model.Values; p.Runs[12].Model.Name != "gaussian" || v["mu1"] != 20 || v["sigma1"] != 0.1 || v["dim"] != 8 {
		t.Errorf("run 12's model %+v, want the misspecified Gaussian", p.Runs[12].Model)
	}
	for _, i := range []int{4, 5} {
		m, err := p.Runs[i].NewModel()
		if err != nil {
			t.Fatal(err)
		}
		if cfg, err := p.Runs[i].Config(m); err != nil || cfg.VariationalLeg != 15 || !models.IsStabilized(cfg.Model) {
			t.Errorf("run %d (stabilized): %v, second leg %d; want 15 chains on leg 2", i, err, cfg.VariationalLeg)
		}
	}
	for i := 18; i < 24; i++ {
		r := &p.Runs[i]
		if r.Model.Name != "logistic" || r.Model.Texts["data"] != "logistic/data.csv" {
			t.Errorf("run %d's model %+v, want the logistic regression on logistic/data.csv", i, r.Model)
		} else if _, err := r.NewModel(); err != nil {
			t.Errorf("run %d: %v", i, err)
		}
	}
}
