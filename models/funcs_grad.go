package models

import (
	"errors"
	"fmt"
	"math"

	"github.com/ptbatch/ptbatch/kernel"
)

// ErrGradient is a user gradient that disagrees with finite differences
// of its density.
var ErrGradient = errors.New("gradient disagrees with finite differences")

// Settings of the gradient check of FromFuncs: gradCheckDraws reference
// draws from stream gradCheckSeed, at most gradCheckCoords coordinates of
// each (spread evenly), central differences of step gradCheckStep·
// max(1, |x_d|), and a relative error |g − fd|/max(1, |fd|) above
// gradCheckTol refused. Central differences err by about h²·|f”'| +
// ε·|f|/h ≈ 1e-10 + 1e-11·|f| at h = 1e-5, far below the tolerance.
const (
	gradCheckDraws  = 3
	gradCheckSeed   = 0x67726164 // "grad"
	gradCheckCoords = 32
	gradCheckStep   = 1e-5
	gradCheckTol    = 1e-4
)

// gradWorst is the worst disagreement the check found.
type gradWorst struct {
	fn    string
	rel   float64
	coord int
	x     []float64
}

// checkGradients compares f's gradients with central differences of its
// densities at a few reference draws, and refuses them with ErrGradient
// giving the worst relative error and where. A panic or non-finite value
// of user code during the check is returned as its *CallError.
func checkGradients(f *Funcs) (err error) {
	t := &Target{f: f, g1: make([]float64, f.Dim)}
	defer func() {
		if r := recover(); r != nil {
			ce, ok := r.(*CallError)
			if !ok {
				panic(r)
			}
			err = fmt.Errorf("models: checking the gradients: %w", ce)
		}
	}()
	rng := laneRand{kernel.NewStream(gradCheckSeed, 0).Lane(0)}
	x, g := make([]float64, f.Dim), make([]float64, f.Dim)
	worst := gradWorst{rel: -1}
	for k := 0; k < gradCheckDraws; k++ {
		t.referenceDraw(rng, x)
		for _, c := range []struct {
			fn   string
			logp func([]float64) float64
			grad *func(x, grad []float64)
		}{{"GradLogReference", f.LogReference, &f.GradLogReference}, {"GradLogTarget", f.LogTarget, &f.GradLogTarget}} {
			t.grad(c.grad, c.fn, x, g)
			worst = worseOf(worst, t.compare(c.fn, c.logp, x, g))
		}
	}
	if worst.rel > gradCheckTol {
		return fmt.Errorf("models: %w: %s's coordinate %d has relative error %.3g (tolerance %g) at x = %s",
			ErrGradient, worst.fn, worst.coord, worst.rel, gradCheckTol, short(worst.x))
	}
	return nil
}

// compare returns the worst relative error of gradient g of logp at x
// over the checked coordinates; coordinates where the density is not
// finite on both sides are skipped.
func (t *Target) compare(fn string, logp func([]float64) float64, x, g []float64) gradWorst {
	worst := gradWorst{fn: fn, rel: -1}
	step := max(1, len(x)/gradCheckCoords)
	for d := 0; d < len(x); d += step {
		x0 := x[d]
		h := gradCheckStep * max(1, math.Abs(x0))
		x[d] = x0 + h
		hi := t.density(fn[len("Grad"):], logp, x)
		x[d] = x0 - h
		lo := t.density(fn[len("Grad"):], logp, x)
		x[d] = x0
		fd := (hi - lo) / (2 * h)
		if math.IsInf(fd, 0) || math.IsNaN(fd) {
			continue
		}
		rel := math.Abs(g[d]-fd) / max(1, math.Abs(fd))
		if !(rel <= worst.rel) { // NaN gradients are the worst
			if math.IsNaN(rel) {
				rel = math.Inf(1)
			}
			worst = gradWorst{fn: fn, rel: rel, coord: d, x: append([]float64(nil), x...)}
		}
	}
	return worst
}

func worseOf(a, b gradWorst) gradWorst {
	if b.rel > a.rel {
		return b
	}
	return a
}
