package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ptbatch/ptbatch/rundir"
	"github.com/ptbatch/ptbatch/studydir"
)

// smallStudy is the study file of these tests: 4 runs × 3 replicates.
var smallStudy = filepath.Join("testdata", "study-small.toml")

// listFiles returns the names of the regular files and links under dir,
// relative to it (slash-separated), sorted.
func listFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(path string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			rel, _ := filepath.Rel(dir, path)
			out = append(out, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// TestStudyOutManifest runs a study into a reused --out that holds a
// stale lock file (the pid of a killed process), a temporary file of an
// interrupted atomic write, a file a previous command's manifest
// records, and a previous study's pieces; it checks the note on the
// recovered lock, that afterwards --out holds exactly the study's files
// and its manifest (no .lock, no .tmp-*, nothing of before), and that the
// manifest records every file with its true length and SHA-256 (computed
// here with crypto/sha256 over the file) and the plan's fingerprint.
func TestStudyOutManifest(t *testing.T) {
	out := t.TempDir()
	for name, data := range map[string]string{
		rundir.LockName:                 "999999999\n", // a pid no process has (above Linux's pid_max)
		".cells.csv.tmp-123":            "half a row",
		"index.csv":                     "old",
		"pieces/run0-replicates0-3.csv": "old piece",
		rundir.ManifestName:             `{"format": 2, "command": "run", "files": {"index.csv": {"size": 3}}}`,
	} {
		os.MkdirAll(filepath.Dir(filepath.Join(out, name)), 0o755)
		if err := os.WriteFile(filepath.Join(out, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, errs, code := runCLI("study", smallStudy, "--out", out, "--quiet")
	if code != 0 || !strings.Contains(errs, "recovered it") {
		t.Fatalf("study: exit %d, stderr %q; want 0 and a note on the recovered lock", code, errs)
	}
	want := append(slices.Clone(studydir.Outputs), rundir.ManifestName)
	slices.Sort(want)
	if got := listFiles(t, out); !slices.Equal(got, want) {
		t.Errorf("--out holds %v, want exactly %v", got, want)
	}
	m, err := rundir.ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	if m.Command != "study" || !m.Complete || m.Done != 12 || m.Units != 12 || len(m.Files) != len(studydir.Outputs) {
		t.Errorf("manifest: command %q, complete %v, done %d of %d, %d files; want study, complete, 12 of 12 (4 runs × 3 replicates), %d files",
			m.Command, m.Complete, m.Done, m.Units, len(m.Files), len(studydir.Outputs))
	}
	for _, name := range studydir.Outputs {
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.Sum256(b)
		if got := m.Files[name]; got.Size != int64(len(b)) || got.SHA256 != hex.EncodeToString(h[:]) {
			t.Errorf("%s: manifest records %+v, the file has %d bytes and SHA-256 %x", name, got, len(b), h)
		}
	}
	p, err := loadStudy(smallStudy)
	if err != nil {
		t.Fatal(err)
	}
	if fp, _ := p.Fingerprint(); m.Fingerprint != fp {
		t.Errorf("manifest fingerprint %q, the plan's is %q", m.Fingerprint, fp)
	}
}

// TestStudyOutRefusesSymlinks checks that a study refuses an --out with a
// symbolic link in it (cells.csv, and the lock file), with exit status 2
// and one line naming the link, and leaves the link's target untouched.
func TestStudyOutRefusesSymlinks(t *testing.T) {
	for _, name := range []string{"cells.csv", rundir.LockName} {
		out, target := t.TempDir(), filepath.Join(t.TempDir(), "precious")
		os.WriteFile(target, []byte("keep me\n"), 0o644)
		if err := os.Symlink(target, filepath.Join(out, name)); err != nil {
			t.Skip("no symbolic links here:", err)
		}
		_, errs, code := runCLI("study", smallStudy, "--out", out, "--quiet")
		if code != 2 || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, name) || !strings.Contains(errs, "symbolic link") {
			t.Errorf("%s a link: exit %d, stderr %q; want 2 and one line naming it", name, code, errs)
		}
		if b, _ := os.ReadFile(target); string(b) != "keep me\n" {
			t.Errorf("%s a link: its target now holds %q", name, b)
		}
	}
}

// TestStudyMergeRefusesDamage computes the small study as 2 shards and
// checks that merge refuses a shard whose cells.csv was cut by 10 bytes,
// or has one byte flipped (same length), or whose plan.json has one byte
// flipped: exit 2, one line naming the shard and the file, and no --out
// written; and that the undamaged shards merge.
func TestStudyMergeRefusesDamage(t *testing.T) {
	dir := t.TempDir()
	var shards []string
	for _, i := range []string{"1", "2"} {
		d := filepath.Join(dir, "shard"+i)
		if _, errs, code := runCLI("study", smallStudy, "--out", d, "--shard", i+"/2", "--quiet"); code != 0 {
			t.Fatalf("shard %s: exit %d: %s", i, code, errs)
		}
		shards = append(shards, d)
	}
	for _, c := range []struct {
		name, file string
		damage     func([]byte) []byte
	}{
		{"cells.csv cut by 10 bytes", "cells.csv", func(b []byte) []byte { return b[:len(b)-10] }},
		{"cells.csv with a flipped byte", "cells.csv", func(b []byte) []byte { b[len(b)/2] ^= 1; return b }},
		{"plan.json with a flipped byte", "plan.json", func(b []byte) []byte { b[len(b)/2] ^= 1; return b }},
	} {
		path := filepath.Join(shards[1], c.file)
		good, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(path, c.damage(slices.Clone(good)), 0o644)
		merged := filepath.Join(dir, "merged")
		_, errs, code := runCLI("merge", "--out", merged, "--quiet", shards[0], shards[1])
		if code != 2 || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, shards[1]) || !strings.Contains(errs, c.file) {
			t.Errorf("%s: exit %d, stderr %q; want 2 and one line naming %s and %s", c.name, code, errs, shards[1], c.file)
		}
		if _, err := os.Lstat(merged); err == nil {
			t.Errorf("%s: the refused merge wrote %s", c.name, merged)
		}
		os.WriteFile(path, good, 0o644)
	}
	if _, errs, code := runCLI("merge", "--out", filepath.Join(dir, "merged"), "--quiet", shards[0], shards[1]); code != 0 {
		t.Errorf("merge of the repaired shards: exit %d: %s", code, errs)
	}
}

// TestStudyOutHeld checks that a study refuses an --out that another
// holder has locked (here this test, through rundir.Open), before any
// work: exit 2, one line, and nothing written there.
func TestStudyOutHeld(t *testing.T) {
	out := t.TempDir()
	d, err := rundir.Open(out, rundir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	_, errs, code := runCLI("study", smallStudy, "--out", out, "--quiet")
	if code != 2 || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "held by another process") {
		t.Errorf("study into a held --out: exit %d, stderr %q; want 2 and one line", code, errs)
	}
	if got := listFiles(t, out); !slices.Equal(got, []string{rundir.LockName}) {
		t.Errorf("--out holds %v, want only the holder's lock", got)
	}
}

// TestStudyRefusedResumeWritesNothing computes shard 1/2 of the small
// study, then asks to resume it as the whole study (shard 1/1): refused
// with exit 2 and one line, its manifest.json and cells.csv byte for byte
// as they were, and no lock left.
func TestStudyRefusedResumeWritesNothing(t *testing.T) {
	out := t.TempDir()
	if _, errs, code := runCLI("study", smallStudy, "--out", out, "--shard", "1/2", "--quiet"); code != 0 {
		t.Fatalf("shard 1/2: exit %d: %s", code, errs)
	}
	before := map[string][]byte{}
	for _, name := range []string{rundir.ManifestName, "cells.csv"} {
		before[name], _ = os.ReadFile(filepath.Join(out, name))
	}
	_, errs, code := runCLI("study", smallStudy, "--out", out, "--resume", "--quiet")
	if code != 2 || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "invalid --resume") {
		t.Errorf("resume as another shard: exit %d, stderr %q; want 2 and one line", code, errs)
	}
	for name, b := range before {
		if now, _ := os.ReadFile(filepath.Join(out, name)); string(now) != string(b) {
			t.Errorf("the refused resume changed %s", name)
		}
	}
	if _, err := os.Lstat(filepath.Join(out, rundir.LockName)); err == nil {
		t.Error("the refused resume left a lock")
	}
}

// TestStudyResumeRefusesDamagedPiece interrupts the small study when its
// second piece is done (as TestStudyResume), flips one byte of a finished
// piece's cells, and checks that --resume refuses it (exit 2, one line
// naming the piece's file) instead of using it, and writes no cells.csv.
func TestStudyResumeRefusesDamagedPiece(t *testing.T) {
	out := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	err := run(ctx, []string{"study", smallStudy, "--out", out}, &bytes.Buffer{}, cancelWriter{"piece 2/", cancel})
	if code := exitCode(err, &bytes.Buffer{}); code == 0 || code == 2 {
		t.Fatalf("interrupted study: exit %d (%v), want the interruption's", code, err)
	}
	piece := filepath.Join(out, "pieces", "run0-replicates0-3.csv") // run 0's 3 replicates, the first piece
	b, err := os.ReadFile(piece)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-3] ^= 1
	os.WriteFile(piece, b, 0o644)
	_, errs, code := runCLI("study", smallStudy, "--out", out, "--resume", "--quiet")
	if code != 2 || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "run0-replicates0-3.csv") {
		t.Errorf("resume over a damaged piece: exit %d, stderr %q; want 2 and one line naming the piece", code, errs)
	}
	if _, err := os.Lstat(filepath.Join(out, "cells.csv")); err == nil {
		t.Error("the refused resume wrote cells.csv")
	}
}
