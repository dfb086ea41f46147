package batch

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/ptbatch/ptbatch/models"
)

// recordsOf runs cfg with the statistics whose records merge, and returns
// their records.
func recordsOf(t *testing.T, cfg Config) (LogZRecord, RestartsRecord, ESSRecord, ProfileRecord, MomentsRecord) {
	t.Helper()
	lz, rs, ess, prof, mom := new(LogZ), new(Restarts), new(ESS), &BarrierProfile{Points: 20}, new(TargetMoments)
	cfg.Statistics = []Statistic{lz, rs, ess, prof, mom}
	mustRun(t, cfg)
	return lz.Record(), rs.Record(), ess.Record(), prof.Record(), mom.Record()
}

// exact formats v with every float64 exactly (%v prints the shortest
// representation that reads back as the same float64, NaN as NaN).
func exact(v any) string { return fmt.Sprintf("%v", v) }

// TestRecordsMergeToOneRun checks the records' Merge against an
// independent computation: the run of replicates 0–9 (the reference),
// against the merge of the runs of replicates 0–3 and 4–9 of the same
// configuration (FirstReplicate 0 and 4), field by field, bit for bit.
func TestRecordsMergeToOneRun(t *testing.T) {
	g, _ := models.NewGaussian(2, -1, 1, 0.5, 0.3) // the invariance test's model
	cfg := Config{Model: g, Chains: 8, Replicates: 10, Iterations: 200, Scans: 4, TuneSchedule: true, Knots: 2, TunePath: true,
		LearningRate: 0.2, Seed: 9, Workers: 1}
	lz, rs, ess, prof, mom := recordsOf(t, cfg)
	if len(lz.Fwd) != 10 || len(rs.Count) != 10 || len(ess.PerReplicate) != 10 || len(prof.Cum) != 10 || len(mom.Mean) != 10 || ess.N == 0 {
		t.Fatalf("the reference run has %d, %d, %d, %d, %d replicates' values (ESS over %d draws), want 10 each",
			len(lz.Fwd), len(rs.Count), len(ess.PerReplicate), len(prof.Cum), len(mom.Mean), ess.N)
	}
	cfg.Replicates = 4
	lz1, rs1, ess1, prof1, mom1 := recordsOf(t, cfg)
	cfg.FirstReplicate, cfg.Replicates = 4, 6
	lz2, rs2, ess2, prof2, mom2 := recordsOf(t, cfg)
	check := func(name string, want, got any, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if exact(want) != exact(got) {
			t.Errorf("%s: merged %v, one run %v", name, got, want)
		}
	}
	m1, err := lz1.Merge(lz2)
	check("log Z", lz, m1, err)
	if exact(m1.Estimates()) != exact(lz.Estimates()) || len(m1.Differences()) != 10 {
		t.Errorf("log Z estimates: merged %v, one run %v", m1.Estimates(), lz.Estimates())
	}
	m2, err := rs1.Merge(rs2)
	check("restarts", rs, m2, err)
	m3, err := ess1.Merge(ess2)
	check("ESS", ess, m3, err)
	m4, err := prof1.Merge(prof2)
	check("barrier profile", prof, m4, err)
	m5, err := mom1.Merge(mom2)
	check("target moments", mom, m5, err)
}

// TestRecordsMergeRefuses checks that records of different
// configurations are refused: another grid, another number of draws,
// unequal forward and reverse estimates, or unequal counts and rates.
func TestRecordsMergeRefuses(t *testing.T) {
	_, err1 := ProfileRecord{T: []float64{0, 1}}.Merge(ProfileRecord{T: []float64{0, 0.5}})
	_, err2 := ESSRecord{N: 100}.Merge(ESSRecord{N: 99})
	_, err3 := LogZRecord{Fwd: []float64{1}}.Merge(LogZRecord{})
	_, err4 := RestartsRecord{Count: []int{1}}.Merge(RestartsRecord{})
	for i, err := range []error{err1, err2, err3, err4} {
		if !errors.Is(err, ErrRecordMismatch) {
			t.Errorf("case %d: %v, want ErrRecordMismatch", i+1, err)
		}
	}
}

// TestMeanSD checks MeanSD against the closed form for {1, 2, 3, 4}: mean
// 2.5, squares about it 2.25+0.25+0.25+2.25 = 5, sd √(5/3); MeanSE is
// sd/√4; one value has sd 0 and no standard error; none gives NaN.
func TestMeanSD(t *testing.T) {
	x := []float64{1, 2, 3, 4}
	if m, sd := MeanSD(x); m != 2.5 || sd != math.Sqrt(5.0/3) {
		t.Errorf("MeanSD = %v, %v, want 2.5, √(5/3)", m, sd)
	}
	if m, se := MeanSE(x); m != 2.5 || se != math.Sqrt(5.0/3)/2 {
		t.Errorf("MeanSE = %v, %v, want 2.5, √(5/3)/2", m, se)
	}
	if m, sd := MeanSD([]float64{7}); m != 7 || sd != 0 {
		t.Errorf("one value: %v, %v", m, sd)
	}
	if _, se := MeanSE([]float64{7}); !math.IsNaN(se) {
		t.Errorf("one value's se %v, want NaN", se)
	}
	if m, _ := MeanSD(nil); !math.IsNaN(m) {
		t.Errorf("no values: mean %v, want NaN", m)
	}
}
