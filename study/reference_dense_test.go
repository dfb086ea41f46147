package study

import (
	"errors"
	"strings"
	"testing"

	"github.com/ptbatch/ptbatch/models"
)

// TestParseFileVariationalFamily checks the method key variational: "dense"
// gives Method.Variational "dense", whose Config wraps the model in
// models.VariationalDense (its description), "diag" is the zero value,
// and the key without reference = "variational", or with a value other
// than diag and dense, is a *FileError at the key's line (line 9: four
// lines of [study], two of [[model]], then [[method]], label, and the
// key).
func TestParseFileVariationalFamily(t *testing.T) {
	const head = "[study]\nname = \"t\"\nreplicates = 2\niterations = 100\n[[model]]\nname = \"gaussian\"\n[[method]]\nlabel = \"m\"\n"
	p, err := ParseFile("f.toml", []byte(head+"variational = [\"diag\", \"dense\"]\nreference = \"variational\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Runs) != 2 || p.Runs[0].Method.Variational != "" || p.Runs[1].Method.Variational != "dense" {
		t.Fatalf("runs %+v; want two, diag (\"\") then dense", p.Runs)
	}
	for i, want := range []string{"variational diagonal", "variational dense"} {
		m, _ := p.Runs[i].NewModel()
		cfg, err := p.Runs[i].Config(m)
		if d, ok := cfg.Model.(models.Described); err != nil || !ok || !strings.HasPrefix(d.Description(), want) {
			t.Errorf("run %d's Config: %v, model %T; want one described %q", i, err, cfg.Model, want)
		}
	}
	for name, doc := range map[string]string{
		"without the variational reference": head + "variational = \"dense\"\n",
		"unknown family":                    head + "variational = \"full\"\nreference = \"variational\"\n",
	} {
		_, err := ParseFile("f.toml", []byte(doc))
		var fe *FileError
		if !errors.As(err, &fe) || fe.Line != 9 || fe.Key != "variational" {
			t.Errorf("%s: %#v, want a *FileError at line 9, key variational", name, err)
		}
	}
}
