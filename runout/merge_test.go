package runout

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/ptbatch/ptbatch/batch"
)

// writeFile writes s to dir/name.
func writeFile(t *testing.T, dir, name, s string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestMergeStreamedInterleavesScans checks the join of two shards' rows,
// 2 iterations a scan: scan 1's rows of shard a then b, then scan 2's,
// lines copied unchanged (the hand-made rows are the expected file).
func TestMergeStreamedInterleavesScans(t *testing.T) {
	root := t.TempDir()
	a := writeFile(t, filepath.Join(root, "a"), "s.csv", "replicate,iteration,x\n0,1,0.5\n0,2,1e-300\n0,3,7\n")
	b := writeFile(t, filepath.Join(root, "b"), "s.csv", "replicate,iteration,x\n1,2,-2\n1,4,3\n")
	out := filepath.Join(root, "out")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := MergeStreamed(out, "s.csv", 2, []Stream{{"a", a}, {"b", b}}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(out, "s.csv"))
	const want = "replicate,iteration,x\n0,1,0.5\n0,2,1e-300\n1,2,-2\n0,3,7\n1,4,3\n"
	if string(got) != want {
		t.Errorf("merged\n%s\nwant\n%s", got, want)
	}
}

// TestMergeStreamedRefuses checks the refusals (ErrShard): a header that
// differs, a shard without the file when another has it, and a malformed
// row; and that no shard with the file writes nothing.
func TestMergeStreamedRefuses(t *testing.T) {
	root := t.TempDir()
	a := writeFile(t, filepath.Join(root, "a"), "s.csv", "replicate,iteration,x\n0,1,1\n")
	b := writeFile(t, filepath.Join(root, "b"), "s.csv", "replicate,iteration,y\n1,1,1\n")
	bad := writeFile(t, filepath.Join(root, "c"), "s.csv", "replicate,iteration,x\n1,one,1\n")
	out := t.TempDir()
	for name, streams := range map[string][]Stream{
		"header":    {{"a", a}, {"b", b}},
		"missing":   {{"a", a}, {"b", ""}},
		"malformed": {{"a", a}, {"c", bad}},
	} {
		if err := MergeStreamed(out, "s.csv", 1, streams); !errors.Is(err, ErrShard) {
			t.Errorf("%s: %v, want ErrShard", name, err)
		}
	}
	none := t.TempDir()
	if err := MergeStreamed(none, "s.csv", 1, []Stream{{"a", ""}, {"b", ""}}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(none, "s.csv")); !os.IsNotExist(err) {
		t.Errorf("no shard has the file, yet it was written (%v)", err)
	}
}

// TestMergeChecksSettings checks that Merge joins records whose settings
// differ in the workers and the memory limit only, and refuses others
// (another model name), a statistic in one part only, and a gap.
func TestMergeChecksSettings(t *testing.T) {
	part := func(first int, s Settings) *Record {
		r := NewRecord(&batch.Result{Config: batch.Config{FirstReplicate: first, Replicates: 1}}, &s)
		r.LogZ = batch.LogZRecord{Fwd: []float64{float64(first)}, Rev: []float64{1}}
		return r
	}
	base := Settings{Model: "gaussian", Workers: 1, MaxMemory: 1 << 30}
	other := base
	other.Workers, other.MaxMemory = 4, 0
	m, err := Merge([]*Record{part(0, base), part(1, other)})
	if err != nil {
		t.Fatalf("workers and memory limit apart: %v", err)
	}
	if len(m.LogZ.Fwd) != 2 || m.LogZ.Fwd[1] != 1 || m.Result.Config.Replicates != 2 {
		t.Errorf("merged log Z %v of %d replicates, want [0 1] of 2", m.LogZ.Fwd, m.Result.Config.Replicates)
	}
	other.Model = "funnel"
	if _, err := Merge([]*Record{part(0, base), part(1, other)}); err == nil {
		t.Error("records of different models merged")
	}
	withESS := part(1, base)
	withESS.ESS = &batch.ESSRecord{PerReplicate: [][]float64{{1}}, N: 10}
	if _, err := Merge([]*Record{part(0, base), withESS}); !errors.Is(err, batch.ErrRecordMismatch) {
		t.Errorf("an ESS in one part only: %v, want batch.ErrRecordMismatch", err)
	}
	if _, err := Merge([]*Record{part(0, base), part(2, base)}); err == nil {
		t.Error("a gap between parts merged")
	}
}

// TestNewIndexSpec checks the replicas followed against
// round(i·(C-1)/(k-1)) computed by hand, and the window's first
// iteration.
func TestNewIndexSpec(t *testing.T) {
	cfg := &batch.Config{Chains: 10, Iterations: 1000}
	for _, c := range []struct {
		k    int
		want []int
	}{
		{4, []int{0, 3, 6, 9}},                    // i·9/3
		{3, []int{0, 5, 9}},                       // 0, 4.5 rounds up to 5, 9
		{1, []int{0}},                             // replica 0 alone
		{0, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}},  // all
		{12, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}}, // capped at C
	} {
		s := NewIndexSpec(100, 2, c.k, cfg)
		if len(s.Replicas) != len(c.want) || s.From != 901 || s.Thin != 2 {
			t.Errorf("k=%d: %+v, want replicas %v from 901", c.k, s, c.want)
			continue
		}
		for i := range c.want {
			if s.Replicas[i] != c.want[i] {
				t.Errorf("k=%d: replicas %v, want %v", c.k, s.Replicas, c.want)
				break
			}
		}
	}
	if s := NewIndexSpec(0, 1, 1, cfg); s.From != 1 {
		t.Errorf("window 0: from %d, want 1 (the whole run)", s.From)
	}
}
