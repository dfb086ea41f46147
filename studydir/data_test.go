package studydir

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptbatch/ptbatch/rundir"
	"github.com/ptbatch/ptbatch/study"
)

// dataStudy is a small study of the logistic regression on a data file
// named relative to the study file: the fixed and the variational
// reference, 3 replicates of 200 iterations, 6 chains.
const dataStudy = `[study]
name = "data"
replicates = 3
iterations = 200
chains = 6
[[model]]
name = "logistic"
data = "logistic/data.csv"
[[method]]
label = "fixed"
path = "linear"
[[method]]
label = "variational"
reference = "variational"
path = "linear"
`

// checkout writes dataStudy and the logistic example's data (with extra
// rows appended) under dir, as a checkout at another place would hold
// them, and loads it by the study file's path.
func checkout(t *testing.T, dir, extra string) *study.Plan {
	t.Helper()
	csv, err := os.ReadFile(filepath.Join("..", "examples", "logistic", "data.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "logistic"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "logistic", "data.csv"), append(csv, extra...), 0o644)
	os.WriteFile(filepath.Join(dir, "study.toml"), []byte(dataStudy), 0o644)
	p, err := study.Load(filepath.Join(dir, "study.toml"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestDataStudyAcrossCheckouts runs a study whose model reads a data file
// from two checkouts of it at different places: shard 1/2 from one and
// shard 2/2 from the other merge into the files of the whole study; an
// interrupted study resumes with the plan of the other checkout and ends
// with the same files. A checkout whose data differ is another study: its
// resume is a *ResumeError and its shard does not merge.
func TestDataStudyAcrossCheckouts(t *testing.T) {
	root := t.TempDir()
	a := checkout(t, filepath.Join(root, "a"), "")
	b := checkout(t, filepath.Join(root, "b", "deeper"), "")
	other := checkout(t, filepath.Join(root, "c"), "0.1,0.2,0.3,1\n")
	one := filepath.Join(root, "one")
	if err := Run(context.Background(), one, a, Whole, Options{}, study.Options{}); err != nil {
		t.Fatal(err)
	}
	s1, s2 := filepath.Join(root, "s1"), filepath.Join(root, "s2")
	if err := Run(context.Background(), s1, a, Shard{1, 2}, Options{}, study.Options{}); err != nil {
		t.Fatal(err)
	}
	if err := Run(context.Background(), s2, b, Shard{2, 2}, Options{}, study.Options{}); err != nil {
		t.Fatal(err)
	}
	merged := filepath.Join(root, "merged")
	if _, err := Merge(merged, []string{s1, s2}, Options{}); err != nil {
		t.Fatalf("merge of the shards of two checkouts: %v", err)
	}
	sameFiles(t, one, merged)

	out := interruptAfterFirstPiece(t, filepath.Join(root, "resumed"), a)
	var re *ResumeError
	if err := Run(context.Background(), out, other, Whole, Options{Resume: true}, study.Options{}); !errors.As(err, &re) {
		t.Errorf("resume with other data: %v, want a *ResumeError", err)
	}
	if err := Run(context.Background(), out, b, Whole, Options{Resume: true}, study.Options{}); err != nil {
		t.Fatalf("resume from the other checkout: %v", err)
	}
	sameFiles(t, one, out)

	s2o := filepath.Join(root, "s2-other")
	if err := Run(context.Background(), s2o, other, Shard{2, 2}, Options{}, study.Options{}); err != nil {
		t.Fatal(err)
	}
	_, err := Merge(filepath.Join(root, "refused"), []string{s1, s2o}, Options{})
	var me *rundir.ShardError
	if !errors.As(err, &me) || !strings.Contains(me.Msg, "different studies") {
		t.Errorf("merge of shards on different data: %v; want a *rundir.ShardError naming different studies", err)
	}
}
