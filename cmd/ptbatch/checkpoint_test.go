package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckpointRefusals checks, in-process, that a checkpoint of another
// configuration, a corrupted or truncated one, a file that is not one and
// one that cannot be read are refused with one line naming --resume (and
// the flag that differs), status 2; that --checkpoint-every applies only
// with --checkpoint and takes scans or a duration; and that a --checkpoint
// that cannot be written is refused before the run.
func TestCheckpointRefusals(t *testing.T) {
	dir := t.TempDir()
	ck := filepath.Join(dir, "run.ckpt")
	small := []string{"run", "--chains", "5", "--replicates", "3", "--iterations", "40", "--scans", "4", "--sigma0", "0.3", "--sigma1", "0.3", "--quiet"}
	if _, errs, code := runCLI(append(small, "--checkpoint", ck, "--checkpoint-every", "2")...); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	data, err := os.ReadFile(ck)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	flipped := bytes.Clone(data)
	flipped[len(flipped)/2] ^= 4
	cases := []struct {
		args []string
		want []string
	}{
		{append(small, "--resume", ck, "--algorithm", "reversible"), []string{"--resume", "--algorithm nrpt", "--algorithm reversible"}},
		{append(small, "--resume", ck, "--seed", "2"), []string{"--resume", "--seed 1", "--seed 2"}},
		{append(small, "--resume", ck, "--dim", "2"), []string{"--resume", "model gaussian dim=1", "dim=2"}},
		{append(small, "--resume", ck, "--json"), []string{"--resume", "outputs", "--json"}},
		{append(small, "--resume", write("flipped", flipped)), []string{"--resume", "corrupted", "checksum"}},
		{append(small, "--resume", write("cut", data[:len(data)-100])), []string{"--resume", "truncated"}},
		{append(small, "--resume", write("csv", []byte("replicate,iteration\n"))), []string{"--resume", "not a ptbatch checkpoint"}},
		{append(small, "--resume", filepath.Join(dir, "absent")), []string{"--resume", "cannot read"}},
		{append(small, "--checkpoint-every", "5"), []string{`--checkpoint-every "5"`, "--checkpoint FILE"}},
		{append(small, "--checkpoint", ck, "--checkpoint-every", "0"), []string{"--checkpoint-every", "at least 1"}},
		{append(small, "--checkpoint", ck, "--checkpoint-every", "soon"), []string{"--checkpoint-every", "duration"}},
		{append(small, "--checkpoint", dir), []string{"--checkpoint", "directory"}},
		{append(small, "--checkpoint", filepath.Join(dir, "no", "such", "dir", "f")), []string{"--checkpoint", "cannot write"}},
	}
	for _, c := range cases {
		out, errs, code := runCLI(c.args...)
		if code != 2 || out != "" || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want status 2 and one line", c.args[len(small):], code, out, errs)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(errs, w) {
				t.Errorf("%v: stderr %q lacks %q", c.args[len(small):], errs, w)
			}
		}
	}
	// The same flags but --workers resume.
	if _, errs, code := runCLI(append(small, "--resume", ck, "--workers", "1")...); code != 0 {
		t.Errorf("resume with another --workers: exit %d: %s", code, errs)
	}
}
