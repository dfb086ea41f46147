package rundir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// dataShard returns shard i of 2 of a command "run" over 10 replicates
// whose configuration, as data, is config and whose manifest records the
// arguments args, as a complete shard directory's manifest.
func dataShard(t *testing.T, i int, config any, args ...string) Shard {
	t.Helper()
	m := &Manifest{Format: ManifestFormat, Command: "run", Version: "test", Args: args, Shard: i, Shards: 2, Unit: "replicate", Units: 10}
	m.First, m.End = Share(i, 2, 10)
	m.Done, m.Complete = m.End, true
	if err := m.SetConfig(config); err != nil {
		t.Fatal(err)
	}
	return Shard{Dir: fmt.Sprintf("shard%d", i), Manifest: m}
}

// TestSameConfigIgnoresArguments checks SameConfig on shards whose
// manifests record their configuration as data: shards of one
// configuration agree whatever arguments they record (the flags that
// chose it, here --chains=8 given or left to its default, or an argument
// list edited afterwards); a shard of another configuration is refused as
// such; a shard whose recorded configuration was edited, so that its
// fingerprint is no longer the configuration's, is refused as edited; and
// one that records no configuration is refused.
func TestSameConfigIgnoresArguments(t *testing.T) {
	type config struct {
		Chains int
		Seed   uint64
	}
	a := dataShard(t, 1, config{8, 1}, "--chains=8")
	b := dataShard(t, 2, config{8, 1})
	b.Manifest.Args = append(b.Manifest.Args, "--chains=64") // edited: not read
	if err := SameConfig(a, b); err != nil {
		t.Errorf("one configuration, other arguments: %v", err)
	}
	other := dataShard(t, 2, config{8, 2})
	var se *ShardError
	if err := SameConfig(a, other); !errors.As(err, &se) || !strings.Contains(err.Error(), "different configurations") {
		t.Errorf("another configuration: %v, want a *ShardError of different configurations", err)
	}
	edited := dataShard(t, 2, config{8, 1})
	edited.Manifest.Config = []byte(`{"Chains":64,"Seed":1}`)
	if err := SameConfig(a, edited); !errors.As(err, &se) || !strings.Contains(err.Error(), "was edited") {
		t.Errorf("an edited configuration: %v, want a *ShardError as edited", err)
	}
	none := dataShard(t, 2, config{8, 1})
	none.Manifest.Config = nil
	if err := SameConfig(a, none); !errors.As(err, &se) || !strings.Contains(err.Error(), "records no configuration") {
		t.Errorf("no configuration: %v, want a *ShardError", err)
	}
}

// TestMerge checks Merge on 2 shards of 10 units written through this
// package (writeShard): write gets the merged manifest, shard 1/1 of the
// 10 units, complete; what it writes and that manifest are in the
// destination, a stale file of a previous command is gone, and the
// shards' lock files are not left behind. A shard that another process
// holds is refused with a *ShardError, a symbolic link in the
// destination with a *LinkError, and write's error is returned as it is,
// with no manifest written.
func TestMerge(t *testing.T) {
	root := t.TempDir()
	shards, err := ReadShards(filepath.Join(root, "out"), []string{writeShard(t, root, 2, 2, false), writeShard(t, root, 1, 2, false)}, SameConfig)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(root, "out")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "old.csv"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := Open(out, Options{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := Merge(d, shards, []string{"old.csv"}, func(m *Manifest) error {
		if m.Shard != 1 || m.Shards != 1 || m.First != 0 || m.End != 10 || !m.Complete {
			t.Errorf("merged manifest %+v, want shard 1/1 of units 0 to 9, complete", m)
		}
		return WriteBytes(d.File("data.csv"), []byte("merged\n"))
	})
	d.Close()
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadManifest(out)
	if err != nil || got.Fingerprint != m.Fingerprint || got.Files["data.csv"] != SumBytes([]byte("merged\n")) {
		t.Errorf("manifest %+v, %v; want the merged one, recording data.csv", got, err)
	}
	if _, err := os.Stat(filepath.Join(out, "old.csv")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("old.csv: %v, want removed", err)
	}

	held, err := Open(shards[1].Dir, Options{}) // as another process writing shard 2
	if err != nil {
		t.Fatal(err)
	}
	d, _ = Open(out, Options{})
	_, err = Merge(d, shards, nil, func(*Manifest) error { t.Error("write called for a held shard"); return nil })
	var se *ShardError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "being written by another process") {
		t.Errorf("held shard: %v, want a *ShardError", err)
	}
	held.Close()
	want := errors.New("the command's own failure")
	if _, err := Merge(d, shards, nil, func(*Manifest) error { return want }); err != want {
		t.Errorf("write's error: %v, want it as it is", err)
	}
	if err := os.Symlink(root, filepath.Join(out, "link")); err != nil {
		t.Fatal(err)
	}
	var le *LinkError
	if _, err := Merge(d, shards, nil, func(*Manifest) error { return nil }); !errors.As(err, &le) || le.Link != "link" {
		t.Errorf("a link in the destination: %v, want a *LinkError naming it", err)
	}
	d.Close()
}
