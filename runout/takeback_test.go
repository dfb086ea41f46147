package runout

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/models"
	"github.com/ptbatch/ptbatch/rundir"
)

// streamRun runs a small run (a 2-dimensional Gaussian, 6 chains, 3
// replicates from replicate 5, 120 iterations in 3 scans: sizes chosen
// only to be quick) that streams samples.csv and index.csv (two followed
// replicas) into dir, and returns its configuration and writers, closed.
func streamRun(t *testing.T, dir string) (batch.Config, *SampleWriter, *IndexWriter) {
	t.Helper()
	g, err := models.NewGaussian(2, -1, 1, 0.3, 0.3)
	if err != nil {
		t.Fatal(err)
	}
	cfg := batch.DefaultConfig(g, 120)
	cfg.Chains, cfg.Replicates, cfg.FirstReplicate, cfg.Scans, cfg.Workers = 6, 3, 5, 3, 1
	s, err := NewSampleWriter(dir, g.Observables(), cfg.FirstReplicate)
	if err != nil {
		t.Fatal(err)
	}
	ix, err := NewIndexWriter(dir, IndexSpec{Thin: 1, From: 1, Replicas: []int{0, 3}}, cfg.FirstReplicate)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Statistics = []batch.Statistic{&batch.Samples{Thin: 7, Write: s.Write, Flush: s.Flush}, ix.Stat}
	if _, err := batch.Run(context.Background(), cfg, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	return cfg, s, ix
}

// TestTakeBackCopiesCountedRows: a resume's new files, given the rows the
// statistics counted from set-aside copies that hold more rows (those a
// killed run wrote after its checkpoint), are the counted rows, byte for
// byte: the files the run wrote before the extra rows were added.
func TestTakeBackCopiesCountedRows(t *testing.T) {
	dir := t.TempDir()
	cfg, _, _ := streamRun(t, dir)
	want := map[string][]byte{}
	for _, name := range []string{"samples.csv", "index.csv"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Count(b, []byte("\n")) < 2 {
			t.Fatalf("%s has no rows:\n%s", name, b)
		}
		want[name] = b
		// Rows past the checkpoint, which the take-back must leave out.
		extra := append(append([]byte{}, b...), "9,999,0,1\n9,999,3,2\n"...)
		if err := os.WriteFile(filepath.Join(dir, name), extra, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	aside, err := rundir.SetAside(dir, "samples.csv", "index.csv")
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSampleWriter(dir, cfg.Model.Observables(), cfg.FirstReplicate)
	if err != nil {
		t.Fatal(err)
	}
	ix, err := NewIndexWriter(dir, IndexSpec{Thin: 1, From: 1, Replicas: []int{0, 3}}, cfg.FirstReplicate)
	if err != nil {
		t.Fatal(err)
	}
	if err := TakeBack(aside.CopyRows, cfg, s, ix); err != nil {
		t.Fatal(err)
	}
	if err := SyncStreamed(s, ix); err != nil {
		t.Fatal(err)
	}
	if len(ix.Trace().Iters) == 0 {
		t.Error("the index trace kept no record of the first replicate")
	}
	s.Close()
	ix.Close()
	for name, w := range want {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, w) {
			t.Errorf("%s after the take-back:\n%s\nwant:\n%s", name, got, w)
		}
	}
}

// TestTakeBackRefusesShortCopy: a set-aside copy with fewer rows than
// the statistics counted is refused with rundir's ShortError.
func TestTakeBackRefusesShortCopy(t *testing.T) {
	dir := t.TempDir()
	cfg, _, _ := streamRun(t, dir)
	if err := os.WriteFile(filepath.Join(dir, "samples.csv"), []byte("replicate,iteration,x0,x1\n5,7,0,0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	aside, err := rundir.SetAside(dir, "samples.csv", "index.csv")
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSampleWriter(dir, cfg.Model.Observables(), cfg.FirstReplicate)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var short *rundir.ShortError
	if err := TakeBack(aside.CopyRows, cfg, s, nil); !errors.As(err, &short) {
		t.Fatalf("TakeBack of a short samples.csv: %v, want a *rundir.ShortError", err)
	}
}
