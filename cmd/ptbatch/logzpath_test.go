package main

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/models"
	"github.com/ptbatch/ptbatch/runout"
)

// TestLogZPathUnid checks the log Z curve of a run against the exact curve
// log Z(t) of Pigeons' unidentifiable product (models.Unid.LogZPath) at
// every chain: n = 100 trials, y = 50 successes (log Z(1) = −4.9746), 16
// chains on the linear path, the schedule tuned by the automatic tuner, 8
// replicates (one block) of 4000 iterations. Each replicate's schedule is
// its own, so the test compares, at each chain n, the replicates'
// differences log Z_b(t_{b,n}) − exact(t_{b,n}) (from result.gob): their
// mean must lie within 4 se of 0, and the se must be below 0.05. With
// these settings the se grows from 0.002 at chain 1 to 0.018 at the
// target, while the exact curve's steps between neighbouring chains are
// 0.17 to 0.88 (logged), 17 se or more: a curve shifted by one chain, a
// pair's term left out or a wrong t fails by far. logz_path.csv must hold
// the curve runout.LogZPath makes of the record, and its last point the
// run's log Z. (On a uniform schedule of 16 chains the first pair, t from
// 0 to 1/15, meets the likelihood's sharp rise, and its stepping stone is
// biased by 0.1 at 1000 draws, 7 se: the tuned schedule is what makes
// the estimate honest.)
func TestLogZPathUnid(t *testing.T) {
	const n, y = 100, 50
	out := filepath.Join(t.TempDir(), "out")
	_, errs, code := runCLI("run", "--model", "unid", "--n", "100", "--y", "50", "--chains", "16", "--replicates", "8",
		"--iterations", "4000", "--path", "linear", "--quiet", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	u, err := models.NewUnid(n, y, models.SliceSampler{})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := runout.ReadRecord(filepath.Join(out, runout.RecordName))
	if err != nil {
		t.Fatal(err)
	}
	sched, path := rec.LogZ.Path()
	for c := 1; c < 16; c++ {
		d := make([]float64, len(path))
		for b := range path {
			d[b] = path[b][c] - u.LogZPath(sched[b][c])
		}
		mean, se := batch.MeanSE(d)
		step := u.LogZPath(sched[0][c]) - u.LogZPath(sched[0][c-1])
		t.Logf("chain %d: t %.4f: log Z − exact %.4f ± %.4f (%.2f se); exact step from chain %d %.3f", c, sched[0][c], mean, se, mean/se, c-1, step)
		if math.Abs(mean) > 4*se || !(se < 0.05) {
			t.Errorf("chain %d: log Z − exact %v ± %v", c, mean, se)
		}
	}
	checkLogZPathCSV(t, filepath.Join(out, "logz_path.csv"), runout.LogZPath(rec.LogZ), rec.LogZ)
}

// checkLogZPathCSV checks the file at path against the curve want, and its
// last point against the run's log Z (the mean of the estimates).
func checkLogZPathCSV(t *testing.T, path string, want []runout.LogZPoint, lz batch.LogZRecord) {
	t.Helper()
	rows := readCSV(t, path)
	if len(rows) != len(want)+1 || rows[0][1] != "t" || rows[0][4] != "log_z" || rows[0][5] != "log_z_se" {
		t.Fatalf("logz_path.csv: %d rows, header %v", len(rows), rows[0])
	}
	for i, p := range want {
		r := rows[i+1]
		if r[1] != runout.FullFloat(p.T) || r[4] != runout.FullFloat(p.LogZ) || r[5] != runout.FullFloat(p.SE) {
			t.Errorf("logz_path.csv row %v, want %+v", r, p)
		}
	}
	mean, _ := batch.MeanSE(lz.Estimates())
	if last := want[len(want)-1]; math.Abs(last.LogZ-mean) > 1e-12 || last.T != 1 {
		t.Errorf("last point %+v, log Z %v", last, mean)
	}
}
