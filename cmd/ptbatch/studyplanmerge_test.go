package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptbatch/ptbatch/rundir"
)

// editStudyManifest rewrites the manifest of dir through edit.
func editStudyManifest(t *testing.T, dir string, edit func(*rundir.Manifest)) {
	t.Helper()
	m, err := rundir.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	edit(m)
	b, _ := json.MarshalIndent(m, "", "  ")
	if err := os.WriteFile(filepath.Join(dir, rundir.ManifestName), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestStudyMergeChecksPlan computes shard 1/2 of the small study and
// shard 2/2 of the same study with 800 iterations instead of 400, and
// checks that merge refuses them as different studies (exit 2, one line)
// by their plans' fingerprints; that a manifest whose fingerprint was
// edited is refused as not describing its plan.json; and that the
// arguments and settings a manifest records do not enter the merge: with
// them edited, two shards of one study merge to the bytes of one
// process.
func TestStudyMergeChecksPlan(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "other.toml")
	doc, err := os.ReadFile(smallStudy)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(other, []byte(strings.Replace(string(doc), "iterations = 400", "iterations = 800", 1)), 0o644)
	shard := func(file, i string) string {
		d := filepath.Join(dir, filepath.Base(file)+"-"+i)
		if _, errs, code := runCLI("study", file, "--out", d, "--shard", i+"/2", "--quiet"); code != 0 {
			t.Fatalf("%s shard %s: exit %d: %s", file, i, code, errs)
		}
		return d
	}
	a1, a2, b2 := shard(smallStudy, "1"), shard(smallStudy, "2"), shard(other, "2")
	merged := filepath.Join(dir, "merged")
	_, errs, code := runCLI("merge", "--out", merged, a1, b2)
	if code != 2 || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "different studies") {
		t.Errorf("merge of two studies' shards: exit %d, %q; want 2 and one line", code, errs)
	}
	editStudyManifest(t, a2, func(m *rundir.Manifest) { m.Fingerprint = strings.Repeat("0", 64) })
	_, errs, code = runCLI("merge", "--out", merged, a1, a2)
	if code != 2 || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "does not describe its plan.json") {
		t.Errorf("merge with an edited fingerprint: exit %d, %q; want 2 and one line", code, errs)
	}
	if _, err := os.Lstat(merged); err == nil {
		t.Error("a refused merge wrote --out")
	}
	a2 = shard(smallStudy, "2")
	for _, d := range []string{a1, a2} {
		editStudyManifest(t, d, func(m *rundir.Manifest) {
			m.Args = []string{"--iterations=5"}
			m.Settings = map[string]string{"study": "another", "iterations": "5"}
		})
	}
	if _, errs, code := runCLI("merge", "--out", merged, "--quiet", a1, a2); code != 0 {
		t.Fatalf("merge with edited arguments: exit %d: %s", code, errs)
	}
	one := filepath.Join(dir, "one")
	if _, errs, code := runCLI("study", smallStudy, "--out", one, "--quiet"); code != 0 {
		t.Fatalf("study: exit %d: %s", code, errs)
	}
	sameStudyFiles(t, one, merged)
}
