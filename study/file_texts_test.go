package study

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// textStudy is a study of the logistic regression on data (a path as the
// study file writes it) with extra model keys.
func textStudy(data, extra string) string {
	return "[study]\nname = \"t\"\nreplicates = 2\niterations = 100\n" + // lines 1-4
		"[[model]]\nname = \"logistic\"\ndata = " + data + "\n" + extra + // lines 5-7, then extra
		"[[method]]\nlabel = \"v\"\nreference = \"variational\"\n"
}

// writeStudy writes a study file into dir/studies, with the logistic
// example's data at dir/studies/logistic/data.csv (or the given CSV), and
// returns the study file's path.
func writeStudy(t *testing.T, dir, doc string, csv []byte) string {
	t.Helper()
	if csv == nil {
		var err error
		if csv, err = os.ReadFile(filepath.Join("..", "examples", "logistic", "data.csv")); err != nil {
			t.Fatal(err)
		}
	}
	sub := filepath.Join(dir, "studies", "logistic")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sub, "data.csv"), csv, 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "studies", "s.toml")
	if err := os.WriteFile(file, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// planJSON returns WritePlan's bytes of p: what plan.json holds and a
// resume compares.
func planJSON(t *testing.T, p *Plan) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := WritePlan(&b, p); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestLoadDataRelativeToFile checks that a model's data path is relative
// to the study file's directory, not the working directory: the study
// loaded by its absolute path and by a relative one from another
// directory builds the model (4 coefficients with the intercept, 3
// without) and has the same plan JSON, which holds the path as written
// and the data's SHA-256; the plan read back keeps both, and other data
// in the same file changes the fingerprint.
func TestLoadDataRelativeToFile(t *testing.T) {
	root := t.TempDir()
	file := writeStudy(t, root, textStudy(`"logistic/data.csv"`, "no-intercept = [false, true]\n"), nil)
	abs, err := Load(file)
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	rel, err := filepath.Rel(".", file)
	if err != nil {
		rel = file
	}
	if wd, _ := os.Getwd(); rel == file {
		t.Logf("no relative path from %s to %s; loading the absolute one", wd, file)
	}
	p, err := Load(rel)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(planJSON(t, abs), planJSON(t, p)) {
		t.Errorf("the plan loaded from %s differs from the plan loaded from %s", rel, file)
	}
	csv, _ := os.ReadFile(filepath.Join(filepath.Dir(file), "logistic", "data.csv"))
	sum := sha256.Sum256(csv)
	for i, want := range []int{4, 3} {
		spec := p.Runs[i].Model
		if spec.Texts["data"] != "logistic/data.csv" || spec.Files["data"] != hex.EncodeToString(sum[:]) || spec.Values["no-intercept"] != float64(i) {
			t.Errorf("run %d's model: %+v, want data logistic/data.csv as written, its SHA-256 and no-intercept %d", i, spec, i)
		}
		m, err := p.Runs[i].NewModel()
		if err != nil {
			t.Fatalf("run %d from %s: %v", i, rel, err)
		}
		if n := len(m.Observables()); n != want {
			t.Errorf("run %d: %d coefficients, want %d", i, n, want)
		}
	}
	q, err := ReadPlan(bytes.NewReader(planJSON(t, p)))
	if err != nil {
		t.Fatal(err)
	}
	fp, _ := p.Fingerprint()
	if got, _ := q.Fingerprint(); got != fp || q.Runs[0].Model.Texts["data"] != "logistic/data.csv" || q.Runs[0].Model.Files["data"] == "" {
		t.Errorf("the plan read back: fingerprint %s (want %s), model %+v", got, fp, q.Runs[0].Model)
	}
	other := writeStudy(t, t.TempDir(), textStudy(`"logistic/data.csv"`, "no-intercept = [false, true]\n"), append(csv, "1,1,1,1\n"...))
	o, err := Load(other)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := o.Fingerprint(); got == fp {
		t.Error("a study on other data has the same fingerprint")
	}
}

// TestLoadDataRefusals checks the one-line refusals of a model's data: a
// missing file and a bad CSV at the data key's line (the bad CSV's
// models.DataError naming its line and column), data on a model that has
// no such key, a number for a path, and the logistic regression without
// data at its entry's line.
func TestLoadDataRefusals(t *testing.T) {
	cases := []struct {
		name, doc string
		csv       string
		line      int
		key, want string
	}{
		{"missing file", textStudy(`"none.csv"`, ""), "", 7, "data", "none.csv: no such file or directory"},
		{"bad CSV", textStudy(`"logistic/data.csv"`, ""), "x1,y\n0.5,1\nabc,0\n", 7, "data", "data.csv:3: column x1: "},
		{"not 0 or 1", textStudy(`"logistic/data.csv"`, ""), "x1,y\n0.5,2\n", 7, "data", "data.csv:2: column y: response 2 is not 0 or 1"},
		{"no response column", textStudy(`"logistic/data.csv"`, "response = \"z\"\n"), "x1,y\n0.5,1\n", 7, "data", `no response column "z"`},
		{"data of the Gaussian", strings.Replace(textStudy(`"logistic/data.csv"`, ""), `"logistic"`, `"gaussian"`, 1), "", 7, "data", `key "data" does not apply to model gaussian`},
		{"a number", textStudy("3", ""), "", 7, "data", `key "data": want a string, not 3`},
		{"no data", strings.Replace(textStudy(`"logistic/data.csv"`, ""), "data = \"logistic/data.csv\"\n", "", 1), "", 5, "", "needs data"},
	}
	for _, c := range cases {
		var csv []byte
		if c.csv != "" {
			csv = []byte(c.csv)
		}
		_, err := Load(writeStudy(t, t.TempDir(), c.doc, csv))
		var fe *FileError
		if !errors.As(err, &fe) || fe.Line != c.line || fe.Key != c.key || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line at line %d, key %q, saying %q", c.name, err, c.line, c.key, c.want)
		}
	}
}
