package rundir

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
)

// TestMergeBy checks the dispatch by command on 2 shards of the command
// "run" written through this package (writeShard): the Merger given for
// "run" is called with the destination, both shards in order and the
// merged manifest, and what it writes is recorded in the manifest; with
// no Merger for "run" the merge is refused with an *UnknownCommandError
// naming the first shard's manifest, and nothing else is called.
func TestMergeBy(t *testing.T) {
	root := t.TempDir()
	out := filepath.Join(root, "out")
	shards, err := ReadShards(out, []string{writeShard(t, root, 1, 2, false), writeShard(t, root, 2, 2, false)}, SameConfig)
	if err != nil {
		t.Fatal(err)
	}
	d, err := Open(out, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	called := 0
	run := func(_ context.Context, dst string, got []Shard, m *Manifest) error {
		called++
		if dst != out || len(got) != 2 || got[0].Dir != shards[0].Dir || m.Units != 10 || !m.Complete {
			t.Errorf("merger got dst %s, %d shards, manifest %+v", dst, len(got), m)
		}
		return WriteBytes(filepath.Join(dst, "data.csv"), []byte("merged\n"))
	}
	other := func(context.Context, string, []Shard, *Manifest) error {
		t.Error("the merger of another command was called")
		return nil
	}
	m, err := MergeBy(context.Background(), d, shards, nil, map[string]Merger{"run": run, "sweep": other})
	if err != nil || called != 1 || m.Files["data.csv"] != SumBytes([]byte("merged\n")) {
		t.Fatalf("MergeBy: %v, merger called %d times, files %v", err, called, m)
	}
	var ue *UnknownCommandError
	_, err = MergeBy(context.Background(), d, shards, nil, map[string]Merger{"sweep": other})
	if !errors.As(err, &ue) || ue.Command != "run" || ue.Manifest != filepath.Join(shards[0].Dir, ManifestName) {
		t.Errorf("no merger for run: %v, want an *UnknownCommandError", err)
	}
}
