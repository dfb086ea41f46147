package runout

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/ptbatch/ptbatch/rundir"
)

// writeRunShard runs shard i of 2 of libRun's 8 replicates into root/i
// as a command would through this package and package rundir: its files
// (WriteFiles), then its record and a complete manifest that fingerprints
// the run's configuration and records args (FinishRun).
func writeRunShard(t *testing.T, root string, i int, args ...string) string {
	t.Helper()
	dir := filepath.Join(root, string(rune('0'+i)))
	d, err := rundir.Open(dir, rundir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	lo, hi := rundir.Share(i, 2, 8)
	rec, x := libRun(t, dir, lo, hi-lo)
	rec.Args = []string{"--seed=1"}
	if _, err := WriteFiles(dir, rec, x); err != nil {
		t.Fatal(err)
	}
	m := (&rundir.Part{Index: i, Count: 2}).Manifest("run", "replicate", 8)
	m.Version, m.Args = "test", args
	if err := FinishRun(rundir.NewJob(d, m, 0), rec, []byte("{}\n")); err != nil {
		t.Fatal(err)
	}
	if got, err := rundir.ReadManifest(dir); err != nil || !got.Complete || got.CheckFingerprint() != nil {
		t.Fatalf("FinishRun's manifest %+v (%v), want complete and fingerprinted", got, err)
	}
	return dir
}

// TestMergeRunWritesOneRunsFiles checks MergeRun on two shard
// directories written through the library: the files of the run of
// replicates 0–7 in one process, byte for byte (summary.json apart from
// its timings, result.gob apart); and a shard whose manifest records other arguments than
// its record is refused with ErrShard, writing no result.
func TestMergeRunWritesOneRunsFiles(t *testing.T) {
	root := t.TempDir()
	one := filepath.Join(root, "one")
	rec, x := libRun(t, one, 0, 8)
	if _, err := WriteFiles(one, rec, x); err != nil {
		t.Fatal(err)
	}
	dirs := []string{writeRunShard(t, root, 1, "--seed=1"), writeRunShard(t, root, 2, "--seed=1")}
	merged := filepath.Join(root, "merged")
	shards, err := rundir.ReadShards(merged, dirs, rundir.SameConfig)
	if err != nil {
		t.Fatal(err)
	}
	if err := MergeRun(merged, shards, 8); err != nil {
		t.Fatal(err)
	}
	sameRunFiles(t, one, merged)

	edited := filepath.Join(root, "edited")
	dirs[1] = writeRunShard(t, edited, 2, "--seed=2")
	if shards, err = rundir.ReadShards(edited, dirs, rundir.SameConfig); err != nil {
		t.Fatal(err)
	}
	if err := MergeRun(filepath.Join(edited, "out"), shards, 8); !errors.Is(err, ErrShard) {
		t.Errorf("a shard with other arguments: %v, want ErrShard", err)
	}
	if _, err := os.Stat(filepath.Join(edited, "out", "summary.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("refused merge wrote summary.json (%v)", err)
	}
}
