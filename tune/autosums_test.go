package tune_test

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ptbatch/ptbatch/internal/gaussexact"
	"github.com/ptbatch/ptbatch/tune"
)

// TestEndScanSumsMatchesEndScan drives two automatic tuners through the
// same scans of exact Gaussian energies, lane 1 of 3 side by side with
// other lanes' values around it: one is handed each scan's shifted sums
// (EndScanSums), the other the AutoScan of means and centred sums the
// engine built from them before (mean Shift + Sum·(1/M), M2 Sq -
// Sum·(Sum·(1/M))). Their state (MarshalBinary), schedules and knots must
// agree bit for bit after every scan, through rounds, path steps and the
// freeze.
func TestEndScanSumsMatchesEndScan(t *testing.T) {
	g := gaussexact.GaussianPair{Dim: 1, Mu0: -1, Mu1: 1, Sigma0: 0.3, Sigma1: 0.5}
	const c, k, m, stride, lane = 8, 4, 45, 3, 1
	opts := tune.AutoOptions{Budget: 20000, FirstRound: m, Path: true, Schedule: true}
	rng := rand.New(rand.NewPCG(3, 4))
	a, b := tune.NewAuto(c, k, opts), tune.NewAuto(c, k, opts)
	pa, pb := tune.NewSpline(k), tune.NewSpline(k)
	sa, sb := tune.UniformSchedule(c), tune.UniformSchedule(c)
	w := make([]float64, m*2*c)
	sums := tune.AutoSums{Iters: m, Stride: stride, Lane: lane}
	for _, p := range []*[]float64{&sums.Shift0, &sums.Shift1, &sums.Sum0, &sums.Sum1, &sums.Sq00, &sums.Sq01, &sums.Sq11, &sums.RejSum} {
		*p = make([]float64, c*stride)
	}
	scan := tune.AutoScan{Iters: m, Mean: make([]float64, 2*c), M2: make([]float64, 3*c), RejSum: make([]float64, c-1)}
	inv := 1 / float64(m)
	scans := 0
	for ; !a.Frozen() && scans < 400; scans++ {
		for _, s := range [][]float64{sums.Shift0, sums.Shift1, sums.Sum0, sums.Sum1, sums.Sq00, sums.Sq01, sums.Sq11, sums.RejSum} {
			for i := range s {
				s[i] = rng.NormFloat64() // the other lanes
			}
		}
		g.SampleEnergies(rng, pa, sa, m, w)
		for n := 0; n < c; n++ {
			i := n*stride + lane
			sums.Shift0[i], sums.Shift1[i] = w[2*n], w[2*n+1]
			sums.Sum0[i], sums.Sum1[i], sums.Sq00[i], sums.Sq01[i], sums.Sq11[i] = 0, 0, 0, 0, 0
			for it := 0; it < m; it++ {
				d0, d1 := w[it*2*c+2*n]-sums.Shift0[i], w[it*2*c+2*n+1]-sums.Shift1[i]
				sums.Sum0[i] += d0
				sums.Sum1[i] += d1
				sums.Sq00[i] += d0 * d0
				sums.Sq01[i] += d0 * d1
				sums.Sq11[i] += d1 * d1
			}
			s0, s1 := sums.Sum0[i], sums.Sum1[i]
			f0, f1 := s0*inv, s1*inv
			scan.Mean[2*n], scan.Mean[2*n+1] = sums.Shift0[i]+f0, sums.Shift1[i]+f1
			scan.M2[3*n], scan.M2[3*n+1], scan.M2[3*n+2] = sums.Sq00[i]-s0*f0, sums.Sq01[i]-s0*f1, sums.Sq11[i]-s1*f1
			if n+1 < c {
				sums.RejSum[i] = float64(m) * rng.Float64() * 0.5
				scan.RejSum[n] = sums.RejSum[i]
			}
		}
		ea, eb := a.EndScanSums(sa, pa, sums), b.EndScan(sb, pb, scan)
		ma, _ := a.MarshalBinary()
		mb, _ := b.MarshalBinary()
		if ea != eb || !bytes.Equal(ma, mb) || !slices.Equal(sa, sb) || !slices.Equal(pa.Knots(), pb.Knots()) {
			t.Fatalf("scan %d: EndScanSums and EndScan disagree (ended %v, %v; schedules %v, %v; knots %v, %v)",
				scans+1, ea, eb, sa, sb, pa.Knots(), pb.Knots())
		}
	}
	if a.Rounds() < 3 {
		t.Fatalf("only %d rounds in %d scans: the test did not reach the path steps", a.Rounds(), scans)
	}
	t.Logf("%d scans, %d rounds, frozen %v", scans, a.Rounds(), a.Frozen())
}

// TestEndScanSumsRejectsShortSums checks that sums shorter than the
// chains, stride and lane ask for are refused with a panic.
func TestEndScanSumsRejectsShortSums(t *testing.T) {
	const c = 4
	a := tune.NewAuto(c, 2, tune.AutoOptions{Budget: 100, FirstRound: 10, Schedule: true})
	mk := func(n int) []float64 { return make([]float64, n) }
	full := c * 2
	s := tune.AutoSums{Iters: 10, Stride: 2, Lane: 1, Shift0: mk(full), Shift1: mk(full), Sum0: mk(full),
		Sum1: mk(full), Sq00: mk(full), Sq01: mk(full), Sq11: mk(full - 1), RejSum: mk(full)}
	defer func() {
		if r := recover(); r != "tune: automatic tuner scan length mismatch" {
			t.Errorf("recovered %v, want the length mismatch", r)
		}
	}()
	a.EndScanSums(tune.UniformSchedule(c), tune.NewSpline(2), s)
}
