package paper

import (
	"bytes"
	"context"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ptbatch/ptbatch/rundir"
	"github.com/ptbatch/ptbatch/runout"
)

// tiny are the reproductions of these tests: the Beta-binomial
// experiment (no closed-form comparison to wait for) at a five-hundredth
// of the paper's iterations with 2 replicates (8 runs, 16 units), and
// highdim at d = 1 and 2 at a thousandth (500 iterations in 500 scans;
// 4 runs, 8 units).
var tiny = []Settings{
	{Which: "betabinomial", Replicates: 2, Scale: 0.002, Seed: 1},
	{Which: "highdim", Replicates: 2, Scale: 0.001, Seed: 1, HighDims: []int{1, 2}},
}

// shard computes shard i of n of the test's plan into dir as a program
// would: rundir.Open, a manifest of its share of the units, Reproduce
// with the job, and Close.
func shard(t *testing.T, s Settings, dir string, i, n int) {
	t.Helper()
	d, err := rundir.Open(dir, rundir.Options{Program: "paper test"})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	todo, highdim, err := s.Todo()
	if err != nil {
		t.Fatal(err)
	}
	units := Units(s.Plan(todo, highdim))
	m := &rundir.Manifest{Format: rundir.ManifestFormat, Command: "reproduce", Version: "test", Shard: i, Shards: n, Unit: Unit, Units: units}
	m.First, m.End = rundir.Share(i, n, units)
	m.Done = m.First
	if err := m.SetConfig(s.Values()); err != nil {
		t.Fatal(err)
	}
	j := rundir.NewJob(d, m, 0)
	if err := j.WriteManifest(); err != nil {
		t.Fatal(err)
	}
	report, err := Reproduce(context.Background(), s, dir, Options{Workers: 2, Job: j, Shard: true})
	if err != nil || report != "" {
		t.Fatalf("shard %d/%d: report %q, %v; want none and no error", i, n, report, err)
	}
	if !m.Complete || m.Done != m.End {
		t.Fatalf("shard %d/%d: manifest done %d of [%d, %d), complete %v", i, n, m.Done, m.First, m.End, m.Complete)
	}
}

// timings matches what differs between two processes' reports: a table's
// seconds (its last cell) and the total time.
var timings = regexp.MustCompile(`(?m)\| [0-9.]+ *\|$|^Total time: .*$`)

// TestShardsMergeToOneProcess reproduces each of tiny in one process,
// and as 3 shards (each through a rundir.Job) merged by Merge, and checks
// that every CSV and figure is the same bytes, results.md the same but
// for its seconds, and that summary.json counts every run in both.
func TestShardsMergeToOneProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("reproduces each experiment twice, once as 3 shards")
	}
	// Per experiment: what the report must hold, and the files compared
	// (Beta-binomial: 4 CSVs and 6 figures in PNG and SVG; highdim: 1 CSV
	// and 1 figure).
	want := map[string]struct {
		report []string
		files  int
	}{
		"betabinomial": {[]string{"## " + Experiments()[1].Title, "| NRPT+Spline(K=4)", "its exact value for this model is -122772.5"}, 4 + 12},
		"highdim":      {[]string{"## High-dimensional Gaussian", "\n| 2  | 22     |"}, 1 + 2},
	}
	for _, s := range tiny {
		t.Run(s.Which, func(t *testing.T) {
			root := t.TempDir()
			one := filepath.Join(root, "one")
			report, err := Reproduce(context.Background(), s, one, Options{Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range want[s.Which].report {
				if !strings.Contains(report, w) {
					t.Errorf("report lacks %q:\n%s", w, report)
				}
			}
			var dirs []string
			for i := 1; i <= 3; i++ {
				dirs = append(dirs, filepath.Join(root, fmt.Sprint("shard", i)))
				shard(t, s, dirs[i-1], i, 3)
			}
			merged := filepath.Join(root, "merged")
			shards, err := rundir.ReadShards(merged, dirs, nil)
			if err != nil {
				t.Fatal(err)
			}
			mreport, err := Merge(context.Background(), s, merged, shards, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if timings.ReplaceAllString(mreport, "") != timings.ReplaceAllString(report, "") {
				t.Errorf("merged report differs from one process's but for seconds:\n%s\n---\n%s", mreport, report)
			}
			todo, highdim, _ := s.Todo()
			sameFiles(t, one, merged, want[s.Which].files, len(s.Plan(todo, highdim)))
		})
	}
}

// sameFiles checks that dirs a and b hold the same experiment files
// (every CSV and figure, files of them), the same bytes, and a
// summary.json that counts all runs of the plan as completed.
func sameFiles(t *testing.T, a, b string, files, runs int) {
	t.Helper()
	n := 0
	err := filepath.WalkDir(a, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(a, path)
		if filepath.Dir(rel) == "." || filepath.Dir(rel) == "runs" {
			return nil // results.md, summary.json (seconds), records (timings)
		}
		want, _ := os.ReadFile(path)
		got, err := os.ReadFile(filepath.Join(b, rel))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: differs (%v)", rel, err)
		}
		n++
		return nil
	})
	if err != nil || n != files {
		t.Errorf("compared %d files (%v), want %d", n, err, files)
	}
	for _, dir := range []string{a, b} {
		var sum struct {
			RunsCompleted int `json:"runs_completed"`
			Interrupted   bool
		}
		raw, err := os.ReadFile(filepath.Join(dir, "summary.json"))
		if err == nil {
			err = json.Unmarshal(raw, &sum)
		}
		if err != nil || sum.RunsCompleted != runs || sum.Interrupted {
			t.Errorf("%s/summary.json: %+v (%v), want %d runs completed, not interrupted", dir, sum, err, runs)
		}
	}
}

// TestReproduceInterrupted checks a reproduction whose context is done
// before it starts: an *InterruptedError (ErrInterrupted) naming the
// first run, no run recorded, and summary.json and results.md written,
// marked interrupted.
func TestReproduceInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	dir := t.TempDir()
	s := Settings{Which: "betabinomial", Replicates: 2, Scale: 0.002, Seed: 1}
	report, err := Reproduce(ctx, s, dir, Options{})
	var ie *InterruptedError
	if !errors.As(err, &ie) || !errors.Is(err, ErrInterrupted) || ie.During != "betabinomial Reversible+Linear" {
		t.Fatalf("error %v, want an *InterruptedError during betabinomial Reversible+Linear", err)
	}
	if runs, _ := os.ReadDir(filepath.Join(dir, "runs")); len(runs) != 0 {
		t.Errorf("runs/ holds %d records, want none", len(runs))
	}
	raw, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil || !bytes.Contains(raw, []byte(`"interrupted": true`)) || !bytes.Contains(raw, []byte(`"runs_completed": 0`)) {
		t.Errorf("summary.json %s (%v), want interrupted with no run completed", raw, err)
	}
	md, err := os.ReadFile(filepath.Join(dir, "results.md"))
	if err != nil || string(md) != report || !strings.Contains(report, "Total time:") {
		t.Errorf("results.md %q (%v), want the report returned, %q", md, err, report)
	}
}

// TestMergeRefusesAnotherRun merges highdim's shards of seed 1 as a
// reproduction of seed 2, and as one of the Beta-binomial: each is
// refused with an error that matches ErrJoin, as the records joined are
// not the plan's runs (run 0 of the Beta-binomial has the preset's 50
// chains, the shards' run 0, d = 1, has ⌈15√1⌉ = 15).
func TestMergeRefusesAnotherRun(t *testing.T) {
	s := tiny[1]
	root := t.TempDir()
	var dirs []string
	for i := 1; i <= 2; i++ {
		dirs = append(dirs, filepath.Join(root, fmt.Sprint("shard", i)))
		shard(t, s, dirs[i-1], i, 2)
	}
	shards, err := rundir.ReadShards(filepath.Join(root, "merged"), dirs, nil)
	if err != nil {
		t.Fatal(err)
	}
	other := s
	other.Seed = 2
	if _, err := Merge(context.Background(), other, filepath.Join(root, "seed2"), shards, Options{}); !errors.Is(err, ErrJoin) || !strings.Contains(err.Error(), "seed 1") {
		t.Errorf("seed 2: %v, want ErrJoin naming seed 1", err)
	}
	if _, err := Merge(context.Background(), tiny[0], filepath.Join(root, "bb"), shards, Options{}); !errors.Is(err, ErrJoin) {
		t.Errorf("betabinomial: %v, want ErrJoin", err)
	}
}

// TestMethodsAtOnceSameFiles reproduces the Beta-binomial of tiny, and
// every experiment but the Gaussian (whose closed-form comparison takes
// seconds) with highdim at d = 1 and 2, all their runs through one
// scheduler (the runs of an experiment start while the one before it
// ends), on one worker (the runs one after the other) and on two (two at
// a time, methodsAtOnce), the paper methods of each experiment as runs of
// their own, and again on one and on two workers with the paper methods
// packed into shared blocks (pack, batch.RunPacked), and checks that every
// CSV and figure is the same bytes, results.md the same but for its
// seconds, and every record in runs/ the same but for its seconds
// (Result.Elapsed and TuningFraction) and workers.
func TestMethodsAtOnceSameFiles(t *testing.T) {
	all := Settings{Which: "all", Replicates: 1, Scale: 0.001, Seed: 1, HighDims: []int{1, 2}}
	for _, c := range []struct {
		s     Settings
		files int
	}{{tiny[0], 4 + 12}, {all, 3*(4+12) + 3}} {
		s := c.s
		if methodsAtOnce(s.Replicates, 1) != 1 || methodsAtOnce(s.Replicates, 2) != 2 {
			t.Fatalf("methodsAtOnce(%d, 1 and 2) = %d, %d; want 1, 2", s.Replicates, methodsAtOnce(s.Replicates, 1), methodsAtOnce(s.Replicates, 2))
		}
		root := t.TempDir()
		var reports []string
		var runs int
		for k, v := range []struct {
			w      int
			noPack bool
		}{{1, true}, {2, true}, {1, false}, {2, false}} {
			r, err := start(s, filepath.Join(root, fmt.Sprint(k)), Options{Workers: v.w})
			if err != nil {
				t.Fatal(err)
			}
			r.noPack = v.noPack
			if r.todo[0].Name == "gaussian" {
				r.todo = r.todo[1:]
				r.runs = s.Plan(r.todo, r.highdim)
			}
			report, err := r.reproduce(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			reports = append(reports, timings.ReplaceAllString(report, ""))
			runs = len(r.runs)
			packs := 0
			for _, j := range r.jobs {
				if len(j.pack) > 0 {
					packs++
				}
			}
			if (packs > 0) == v.noPack {
				t.Errorf("%s, %d workers, noPack %v: %d packed jobs", s.Which, v.w, v.noPack, packs)
			}
		}
		for k := 1; k < len(reports); k++ {
			if reports[0] != reports[k] {
				t.Errorf("%s: reports 0 and %d differ but for seconds:\n%s\n---\n%s", s.Which, k, reports[0], reports[k])
			}
			sameFiles(t, filepath.Join(root, "0"), filepath.Join(root, fmt.Sprint(k)), c.files, runs)
			sameRecords(t, filepath.Join(root, "0"), filepath.Join(root, fmt.Sprint(k)), runs)
		}
	}
}

// sameRecords checks that the records of the runs of reproductions a and
// b (RunFile) are the same bytes once their seconds (Result.Elapsed and
// TuningFraction) and workers (Config.Workers; the results do not depend
// on them) are zeroed.
func sameRecords(t *testing.T, a, b string, runs int) {
	t.Helper()
	for k := range runs {
		var enc [2]bytes.Buffer
		for i, dir := range []string{a, b} {
			rec, err := runout.ReadRecord(filepath.Join(dir, RunFile(k)))
			if err != nil {
				t.Fatalf("%s: %v", RunFile(k), err)
			}
			rec.Result.Elapsed, rec.Result.TuningFraction, rec.Result.Config.Workers = 0, 0, 0
			if err := gob.NewEncoder(&enc[i]).Encode(rec); err != nil {
				t.Fatalf("%s: %v", RunFile(k), err)
			}
		}
		if !bytes.Equal(enc[0].Bytes(), enc[1].Bytes()) {
			t.Errorf("%s: the records differ but for seconds and workers", RunFile(k))
		}
	}
}
