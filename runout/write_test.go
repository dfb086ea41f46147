package runout

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/models"
)

// libRun runs replicates [first, first+n) of a small Gaussian run with
// the statistics of a run directory, streaming samples.csv into dir, and
// returns its record and extras, as a Go program using the package would.
func libRun(t *testing.T, dir string, first, n int) (*Record, Extras) {
	t.Helper()
	g, err := models.NewGaussian(2, -1, 1, 0.5, 0.3) // batch's invariance test's model
	if err != nil {
		t.Fatal(err)
	}
	cfg := batch.DefaultConfig(g, 400)
	cfg.Chains, cfg.FirstReplicate, cfg.Replicates, cfg.Knots, cfg.Workers = 8, first, n, 2, 1
	sw, err := NewSampleWriter(dir, g.Observables(), first)
	if err != nil {
		t.Fatal(err)
	}
	lz, rs, ess, prof, mom := new(batch.LogZ), new(batch.Restarts), new(batch.ESS), &batch.BarrierProfile{Points: 50}, new(batch.TargetMoments)
	dg := &batch.Diagnostics{Observables: MaxDiagObservables, MaxDraws: DiagMaxDraws}
	cfg.Statistics = []batch.Statistic{lz, rs, ess, prof, mom, dg, &batch.Samples{Write: sw.Write, Flush: sw.Flush}}
	res, err := batch.Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := sw.Close(); err != nil {
		t.Fatal(err)
	}
	set := NewSettings("gaussian", "spline", &cfg)
	set.Params = map[string]json.RawMessage{"dim": json.RawMessage("2")}
	// The Gaussian's closed form (ExactLogZ's doc): d·(ln σ1 - ln σ0).
	if want := 2 * (math.Log(0.3) - math.Log(0.5)); set.ExactLogZ != want || set.Workers != 1 || set.Thin != 1 {
		t.Fatalf("NewSettings: %+v, want log_z_exact %v, 1 worker, thin 1", set, want)
	}
	rec := NewRecord(res, set)
	rec.SetMoments(mom.Record())
	rec.LogZ, rec.Restarts = lz.Record(), rs.Record()
	e, p := ess.Record(), prof.Record()
	rec.ESS, rec.Profile = &e, &p
	return rec, Extras{Draws: DrawsOf(dg)}
}

// timings are summary.json's fields that depend on the machine's speed.
var timings = []string{"elapsed_seconds", "chain_steps_per_second", "tuning_fraction", "ess_per_second"}

// TestMergedShardsWriteOneRunsFiles checks the package's claim through
// its API alone: replicates 0–2 and 3–7 run apart, their records merged
// (Merge) and samples.csv joined (MergeStreamed), written by WriteFiles,
// give the files of the run of replicates 0–7 written by WriteFiles byte
// for byte (summary.json apart from its timings, result.gob apart).
func TestMergedShardsWriteOneRunsFiles(t *testing.T) {
	root := t.TempDir()
	one, merged := filepath.Join(root, "one"), filepath.Join(root, "merged")
	rec, x := libRun(t, one, 0, 8)
	if _, err := WriteFiles(one, rec, x); err != nil {
		t.Fatal(err)
	}
	var parts []*Record
	var streams []Stream
	for i, r := range [][2]int{{0, 3}, {3, 5}} {
		d := filepath.Join(root, "shard", string(rune('a'+i)))
		p, _ := libRun(t, d, r[0], r[1])
		parts = append(parts, p)
		streams = append(streams, Stream{Dir: d, Path: filepath.Join(d, "samples.csv")})
	}
	m, err := Merge(parts)
	if err != nil {
		t.Fatal(err)
	}
	c := m.Result.Config
	if err := MergeStreamed(merged, "samples.csv", c.Iterations/c.Scans, streams); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteFiles(merged, m, Extras{}); err != nil {
		t.Fatal(err)
	}
	sameRunFiles(t, one, merged)
}

// sameRunFiles fails unless the directory merged holds every file of the
// run directory one with the same bytes (summary.json apart from its
// timings, result.gob apart), and one holds a run's files.
func sameRunFiles(t *testing.T, one, merged string) {
	t.Helper()
	files, _ := os.ReadDir(one)
	if len(files) < 12 { // 4 CSVs of the tables and logz, lambda.csv/png/svg, samples.csv/png/svg, diagnostics.csv, summary.json, result.gob
		t.Fatalf("one run wrote %d files", len(files))
	}
	for _, f := range files {
		switch f.Name() {
		case RecordName:
		case "summary.json":
			if a, b := summaryWithout(t, one), summaryWithout(t, merged); a != b {
				t.Errorf("summary.json beyond timings:\none run %s\nmerged %s", a, b)
			}
		default:
			a, _ := os.ReadFile(filepath.Join(one, f.Name()))
			b, err := os.ReadFile(filepath.Join(merged, f.Name()))
			if err != nil || !bytes.Equal(a, b) {
				t.Errorf("%s: merged differs from one run (%v)", f.Name(), err)
			}
		}
	}
}

// summaryWithout returns dir's summary.json without its timings and
// config.out, re-encoded.
func summaryWithout(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var obj map[string]any
	if err := json.Unmarshal(b, &obj); err != nil {
		t.Fatal(err)
	}
	for _, k := range timings {
		delete(obj, k)
	}
	delete(obj["config"].(map[string]any), "out")
	out, _ := json.Marshal(obj)
	return string(out)
}

// TestRecordRoundTrip checks that a record read back from result.gob is
// the record written, and that a record of another format is refused.
func TestRecordRoundTrip(t *testing.T) {
	dir := t.TempDir()
	rec, _ := libRun(t, dir, 0, 2)
	path := filepath.Join(dir, RecordName)
	if err := WriteRecord(path, rec); err != nil {
		t.Fatal(err)
	}
	got, err := ReadRecord(path)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := summaryOf(t, rec), summaryOf(t, got); a != b {
		t.Errorf("read back:\n%s\nwritten:\n%s", b, a)
	}
	rec.Format = RecordFormat + 1
	if err := WriteRecord(path, rec); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadRecord(path); err == nil {
		t.Error("a record of another format was read")
	}
}

// summaryOf returns rec's summary.json, its diagnostics left empty.
func summaryOf(t *testing.T, rec *Record) string {
	t.Helper()
	var b bytes.Buffer
	if err := EncodeJSON(&b, Summary(rec, "", NewDiagnostics(nil, nil, &rec.Result), nil), SummaryLead); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
