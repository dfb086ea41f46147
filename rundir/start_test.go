package rundir

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPartNewManifest checks what NewManifest records: the part's share
// (shard 2 of 3 of 10 units is [3, 6), Share's ⌊(i−1)U/n⌋), the version
// and arguments as given, and a settings map as both Settings and a
// fingerprinted Config; without a config, no fingerprint.
func TestPartNewManifest(t *testing.T) {
	p := &Part{Index: 2, Count: 3, Source: "--shard 2/3"}
	args := []string{"--seed=4"} // any argument list: recorded, never parsed
	set := map[string]string{"dims": "1,2"}
	m, err := p.NewManifest("sweep", "cell", 10, "v1", args, set)
	if err != nil {
		t.Fatal(err)
	}
	if m.First != 3 || m.End != 6 || m.Done != 3 || m.Shard != 2 || m.Shards != 3 || m.ShardSource != "--shard 2/3" {
		t.Errorf("share: got first %d end %d done %d shard %d/%d (%s)", m.First, m.End, m.Done, m.Shard, m.Shards, m.ShardSource)
	}
	if m.Version != "v1" || len(m.Args) != 1 || m.Args[0] != "--seed=4" || m.Settings["dims"] != "1,2" {
		t.Errorf("provenance: got version %q, args %q, settings %v", m.Version, m.Args, m.Settings)
	}
	if m.Fingerprint == "" || m.CheckFingerprint() != nil {
		t.Errorf("fingerprint %q does not check: %v", m.Fingerprint, m.CheckFingerprint())
	}
	whole, err := (*Part)(nil).NewManifest("run", "replicate", 4, "v1", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if whole.First != 0 || whole.End != 4 || whole.Fingerprint != "" || whole.Config != nil {
		t.Errorf("whole, no config: got [%d, %d), fingerprint %q, config %s", whole.First, whole.End, whole.Fingerprint, whole.Config)
	}
	if _, err := p.NewManifest("run", "replicate", 4, "v1", nil, func() {}); err == nil {
		t.Error("a config that cannot be encoded: no error")
	}
}

// TestJobBeginClose checks that Begin writes the manifest with nothing
// done and Close removes the lock file; both do nothing on a nil job.
func TestJobBeginClose(t *testing.T) {
	var none *Job
	if none.Begin() != nil || none.Close() != nil {
		t.Error("nil job: Begin or Close failed")
	}
	dir := t.TempDir()
	d, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := (&Part{Index: 2, Count: 2, Source: "test"}).NewManifest("run", "replicate", 8, "v1", nil, nil)
	j := NewJob(d, m, 0)
	if err := j.Begin(); err != nil {
		t.Fatal(err)
	}
	got, err := ReadManifest(dir)
	if err != nil || got.Done != 4 || got.First != 4 {
		t.Errorf("after Begin: %+v, %v; want done = first = 4", got, err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, LockName)); !os.IsNotExist(err) {
		t.Errorf("after Close: %s: %v, want not there", LockName, err)
	}
	if err := j.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}
