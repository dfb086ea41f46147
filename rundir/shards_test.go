package rundir

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// writeShard writes shard i of n of a command over 10 units into
// root/shard-i as a command would: a file data.csv and a manifest with
// the shard's share of the units, complete unless partial.
func writeShard(t *testing.T, root string, i, n int, partial bool) string {
	t.Helper()
	dir := filepath.Join(root, "shard-"+strconv.Itoa(i))
	d, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := WriteBytes(d.File("data.csv"), []byte("shard,"+strconv.Itoa(i)+"\n")); err != nil {
		t.Fatal(err)
	}
	m := &Manifest{Format: ManifestFormat, Command: "run", Version: "test", Shard: i, Shards: n, Unit: "replicate", Units: 10}
	m.First, m.End = Share(i, n, 10)
	m.Done, m.Complete = m.End, !partial
	if err := m.SetConfig(map[string]int{"chains": 8}); err != nil {
		t.Fatal(err)
	}
	if err := d.WriteManifest(m); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestReadShards checks ReadShards on 3 shards of 10 units written
// through this package: given out of order they come back in shard order;
// and it refuses, with a *ShardError saying why, a missing shard, a shard
// given twice, a partial shard, a shard whose data.csv changed after it
// was written, and a destination that is one of the shards (Dst); the
// command's own check (same) is called and its error returned as it is.
func TestReadShards(t *testing.T) {
	root := t.TempDir()
	a, b, c := writeShard(t, root, 1, 3, false), writeShard(t, root, 2, 3, false), writeShard(t, root, 3, 3, false)
	got, err := ReadShards(filepath.Join(root, "merged"), []string{c, a, b}, nil)
	if err != nil || len(got) != 3 || got[0].Dir != a || got[1].Dir != b || got[2].Dir != c {
		t.Fatalf("ReadShards: %v, %v; want shards 1, 2, 3 in order", got, err)
	}
	partial := writeShard(t, filepath.Join(root, "p"), 3, 3, true)
	damaged := writeShard(t, filepath.Join(root, "d"), 3, 3, false)
	os.WriteFile(filepath.Join(damaged, "data.csv"), []byte("shard,9\n"), 0o644) // same length, other bytes
	for _, x := range []struct {
		name, dst string
		dirs      []string
		want      string
	}{
		{"missing", "m1", []string{a, b}, "missing shards: [3/3]"},
		{"twice", "m2", []string{a, b, b}, "given twice"},
		{"partial", "m3", []string{a, b, partial}, "is partial"},
		{"damaged", "m4", []string{a, b, damaged}, "is damaged"},
		{"destination", b, []string{a, b, c}, "destination"},
	} {
		dst := x.dst
		if !filepath.IsAbs(dst) {
			dst = filepath.Join(root, dst)
		}
		_, err := ReadShards(dst, x.dirs, nil)
		var se *ShardError
		if !errors.As(err, &se) || !strings.Contains(se.Msg, x.want) || se.Dst != (x.name == "destination") {
			t.Errorf("%s: %v; want a *ShardError with %q", x.name, err, x.want)
		}
	}
	other := errors.New("another configuration")
	calls := 0
	_, err = ReadShards(filepath.Join(root, "m5"), []string{a, b, c}, func(x, s Shard) error {
		if calls++; s.Dir == c {
			return other
		}
		return nil
	})
	if err != other || calls != 3 {
		t.Errorf("same refusing shard 3: %v after %d calls; want its error after 3 (shards 1, 2, 3 against shard 1)", err, calls)
	}
}
