package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLogisticBadDataRefused checks a few bad data files through the
// command line: each is refused with exit 2 and one line naming the
// file, the line and the column, with nothing on stdout (the table of
// every case is models' TestBadDataRefused).
func TestLogisticBadDataRefused(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	nonNumeric := write("a.csv", "a,b,y\n1,2,0\n3,x,1\n")
	refused(t, []string{"run", "--model", "logistic", "--data", nonNumeric}, nonNumeric+`:3: column b: "x" is not a number`)
	response := write("r.csv", "a,y\n1,0\n2,3\n")
	refused(t, []string{"run", "--model", "logistic", "--data", response}, response+`:3: column y: response 3 is not 0 or 1`)
	refused(t, []string{"run", "--model", "logistic", "--data", response, "--response", "z"}, response+`:1: no response column "z"`)
	ragged := write("g.csv", "a,y\n1,0\n2\n")
	refused(t, []string{"run", "--model", "logistic", "--data", ragged}, ragged+`:3: 1 fields, the header has 2 columns`)
	refused(t, []string{"run", "--model", "logistic", "--data", write("h.csv", "a,y\n")}, `:1: header only`)
	refused(t, []string{"run", "--model", "logistic"}, "--model logistic needs --data FILE.csv")
	refused(t, []string{"run", "--model", "gaussian", "--data", ragged}, "--data", "applies only to --model logistic")
}

// TestLogisticRuns runs the logistic model on the example data with MALA
// and checks the run's table names the model and its coefficients.
func TestLogisticRuns(t *testing.T) {
	out, errs, code := runCLIRecover(t, "run", "--model", "logistic", "--data", "../../examples/logistic/data.csv",
		"--replicates", "2", "--chains", "6", "--iterations", "400", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, w := range []string{"model logistic", "diagnostics of intercept"} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
}

// TestMixtureDataFlags checks --model mixture's data flags: bad data is
// refused in one line naming the file, line and column, the data flags do
// not apply to the galaxy model, and --explorer still does not apply to
// the mixture (its moves are Gibbs sweeps).
func TestMixtureDataFlags(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "m.csv")
	if err := os.WriteFile(bad, []byte("v\n1\nInf\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	refused(t, []string{"run", "--model", "mixture", "--data", bad}, bad+`:3: column v: "Inf" is not a finite number`)
	refused(t, []string{"run", "--model", "galaxy", "--components", "3"}, "--components", "applies only to --model mixture")
	refused(t, []string{"run", "--model", "mixture", "--data", bad, "--explorer", "mala"}, "--explorer", "applies only to")
}
