package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// studyFiles are the files a whole study writes.
var studyFiles = []string{"cells.csv", "summary.csv", "summary.json", "results.md", "plan.json", "shard.json",
	"tail_rate.png", "tail_rate.svg", "barrier.png", "barrier.svg"}

// sameStudyFiles reports the first file that differs between two study
// directories.
func sameStudyFiles(t *testing.T, a, b string) {
	t.Helper()
	for _, f := range studyFiles {
		x, err1 := os.ReadFile(filepath.Join(a, f))
		y, err2 := os.ReadFile(filepath.Join(b, f))
		if err1 != nil || err2 != nil || !bytes.Equal(x, y) {
			t.Errorf("%s differs between %s and %s (%v, %v)", f, a, b, err1, err2)
		}
	}
}

// TestStudyShardsMergeToOneProcess runs examples/study.toml in one
// process and as shards 1..3, merges the shards, and checks that every
// file is the one process's bytes; and that cells.csv has a row per run ×
// replicate: (2 Gaussian dims + 1 Beta-binomial) × 4 methods × 2 seeds ×
// 4 replicates = 96, and the header.
func TestStudyShardsMergeToOneProcess(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join("..", "..", "examples", "study.toml")
	one := filepath.Join(dir, "one")
	if _, errs, code := runCLI("study", file, "--out", one, "--quiet"); code != 0 {
		t.Fatalf("study: exit %d: %s", code, errs)
	}
	var shards []string
	for _, i := range []string{"1", "2", "3"} {
		d := filepath.Join(dir, "shard"+i)
		if _, errs, code := runCLI("study", file, "--out", d, "--shard", i+"/3", "--quiet"); code != 0 {
			t.Fatalf("shard %s: exit %d: %s", i, code, errs)
		}
		shards = append(shards, d)
	}
	merged := filepath.Join(dir, "merged")
	if _, errs, code := runCLI(append([]string{"merge", "--out", merged, "--quiet"}, shards[2], shards[0], shards[1])...); code != 0 {
		t.Fatalf("merge: exit %d: %s", code, errs)
	}
	sameStudyFiles(t, one, merged)
	cells, _ := os.ReadFile(filepath.Join(one, "cells.csv"))
	if n := bytes.Count(cells, []byte("\n")); n != 97 {
		t.Errorf("cells.csv has %d lines, want 97", n)
	}
	if _, errs, code := runCLI("merge", "--out", filepath.Join(dir, "partial"), shards[0], shards[1]); code != 2 || !strings.Contains(errs, "all 3 shards") {
		t.Errorf("merge of 2 of 3 shards: exit %d, %q; want 2 and a line asking for all 3", code, errs)
	}
}

// cancelWriter cancels a context when a line containing at is written.
type cancelWriter struct {
	at     string
	cancel context.CancelFunc
}

func (w cancelWriter) Write(b []byte) (int, error) {
	if strings.Contains(string(b), w.at) {
		w.cancel()
	}
	return len(b), nil
}

// TestStudyResume interrupts a study when its second piece is done (the
// progress line on stderr cancels the context, as SIGTERM would), checks
// the exit status of an interruption, resumes it with --resume and checks
// that the files are those of a study never interrupted (itself run with
// --resume into a directory that holds no study, which starts afresh),
// and that a --resume of the complete study does nothing.
func TestStudyResume(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join("testdata", "study-small.toml")
	one := filepath.Join(dir, "one")
	// --resume with no study in --out starts afresh.
	if _, errs, code := runCLI("study", file, "--out", one, "--quiet", "--resume"); code != 0 {
		t.Fatalf("study: exit %d: %s", code, errs)
	}
	out := filepath.Join(dir, "resumed")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout bytes.Buffer
	err := run(ctx, []string{"study", file, "--out", out, "--checkpoint-every", "1"}, &stdout, cancelWriter{"piece 2/", cancel})
	if code := exitCode(err, &bytes.Buffer{}); code == 0 || code == 2 {
		t.Fatalf("interrupted study: exit %d (%v), want the interruption's", code, err)
	}
	if _, err := os.Stat(filepath.Join(out, "cells.csv")); err == nil {
		t.Fatal("an interrupted study wrote cells.csv")
	}
	if _, errs, code := runCLI("study", file, "--out", out, "--resume", "--quiet"); code != 0 {
		t.Fatalf("resume: exit %d: %s", code, errs)
	}
	sameStudyFiles(t, one, out)
	if _, errs, code := runCLI("study", file, "--out", out, "--resume", "--quiet"); code != 0 || !strings.Contains(errs, "complete") {
		t.Errorf("resume of a complete study: exit %d, %q; want 0 and a note that it is complete", code, errs)
	}
}

// TestStudyFileErrors checks that every kind of bad study file is refused
// with exit status 2 and one line naming the file, the line and the key.
func TestStudyFileErrors(t *testing.T) {
	const head = "[study]\nname = \"t\"\nreplicates = 2\niterations = 100\n" // lines 1-4
	const method = "[[method]]\nlabel = \"m\"\n"
	cases := []struct {
		name, doc, want string
	}{
		{"unknown study key", head + "colour = 1\n", `:5: unknown key "colour" in [study]`},
		{"key of another model", head + "[[model]]\nname = \"betabinomial\"\nsigma0 = 0.1\n" + method, `:7: key "sigma0" does not apply to model betabinomial`},
		{"unknown model", head + "[[model]]\nname = \"nope\"\n" + method, `:6: unknown model "nope"`},
		{"bad model value", head + "[[model]]\nname = \"gaussian\"\ndim = [1, 0]\n" + method, `:7: key "dim" = 0`},
		{"unknown method key", head + "[[model]]\nname = \"galaxy\"\n[[method]]\nlabel = \"m\"\nspeed = 2\n", `:9: unknown key "speed" in [[method]]`},
		{"knots on the linear path", head + "[[model]]\nname = \"galaxy\"\n[[method]]\nlabel = \"m\"\npath = \"linear\"\nknots = 3\n", `:10: key "knots" does not apply`},
		{"scans with auto tuning", head + "[[model]]\nname = \"galaxy\"\n[[method]]\nlabel = \"m\"\ntuning = \"auto\"\nscans = 10\n", `:10: key "scans" does not apply`},
		{"scans not dividing iterations", head + "[[model]]\nname = \"galaxy\"\n[[method]]\nlabel = \"m\"\nscans = 7\n", `:4: key "iterations" = 100: must be a multiple of Scans (7)`},
		{"unknown table", head + "[[models]]\nname = \"galaxy\"\n", `:5: unknown table "models"`},
		{"no study table", "[[model]]\nname = \"galaxy\"\n" + method, `no [study] table`},
		{"TOML syntax", head + "name = \n", `bad.toml`},
	}
	dir := t.TempDir()
	for _, c := range cases {
		file := filepath.Join(dir, "bad.toml")
		if err := os.WriteFile(file, []byte(c.doc), 0o644); err != nil {
			t.Fatal(err)
		}
		out, errs, code := runCLI("study", file, "--out", filepath.Join(dir, "out"))
		if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.want) || !strings.Contains(errs, "bad.toml") {
			t.Errorf("%s: exit %d, stderr %q; want 2 and one line with bad.toml and %q", c.name, code, errs, c.want)
		}
		if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
			t.Errorf("%s: wrote --out", c.name)
		}
	}
}
