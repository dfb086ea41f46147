package models_test

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mathext"

	"github.com/ptbatch/ptbatch/models"
)

// TestUnidLogZPathAgainstGonumDigamma checks Unid.LogZPath's own
// difference of digammas against the same closed form written with gonum's
// mathext.Digamma (an independent implementation), where subtracting two
// digammas loses nothing (arguments ≤ 1000: error ~1e-13, tolerance 1e-9
// relative), and at y = n = 10⁶, where the subtraction would lose 8 digits,
// against Z(1) = ∫∫(p1 p2)^n = 1/(n+1)² (tolerance 1e-8: ln Γ(10⁶) ≈
// 1.3e7 carries an error of about 1e-9 into ln B).
func TestUnidLogZPathAgainstGonumDigamma(t *testing.T) {
	for _, p := range []struct{ n, y int64 }{{100, 50}, {1000, 3}, {7, 7}, {5, 0}} {
		u, err := models.NewUnid(p.n, p.y, models.SliceSampler{})
		if err != nil {
			t.Fatal(err)
		}
		for _, tt := range []float64{0, 1e-6, 0.01, 0.3, 1} {
			n, y := float64(p.n), float64(p.y)
			a, b := tt*y+1, tt*(n-y)+1
			lb, _ := math.Lgamma(a)
			lb2, _ := math.Lgamma(b)
			lb3, _ := math.Lgamma(a + b)
			ln1, _ := math.Lgamma(n + 1)
			ln2, _ := math.Lgamma(y + 1)
			ln3, _ := math.Lgamma(n - y + 1)
			want := tt*(ln1-ln2-ln3) + lb + lb2 - lb3 + math.Log(mathext.Digamma(a+b)-mathext.Digamma(a))
			if got := u.LogZPath(tt); math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
				t.Errorf("n %d y %d t %g: LogZPath = %.15g, with gonum's digamma %.15g", p.n, p.y, tt, got, want)
			}
		}
	}
	const big = 1000000
	u, _ := models.NewUnid(big, big, models.SliceSampler{})
	if got, want := u.LogZPath(1), -2*math.Log(big+1); math.Abs(got-want) > 1e-8 {
		t.Errorf("n = y = %d: LogZPath(1) = %.15g, want −2 ln(n+1) = %.15g", big, got, want)
	}
}

// TestUnidLogZPathByQuadrature checks the closed form of Unid.LogZPath
// against its definition, with no use of the derivation: Z(t) =
// ∫∫_{[0,1]²} L(p1 p2)^t dp1 dp2 by Simpson's rule in both coordinates,
// after p_i = v_i² (which smooths the integrand's p^{ty} at 0), on 600 and
// 1200 intervals per axis. The two grids agree to 1e-8 relative here
// (checked), so the 1e-7 tolerance on log Z(t) is the quadrature's.
func TestUnidLogZPathByQuadrature(t *testing.T) {
	const n, y = 20, 7 // small enough that the 2-D rule resolves L^t
	u, err := models.NewUnid(n, y, models.SliceSampler{})
	if err != nil {
		t.Fatal(err)
	}
	lc := math.Log(20 * 19 * 18 * 17 * 16 * 15 * 14 / 5040.0) // ln C(20, 7) = ln 77520
	for _, tt := range []float64{0.1, 0.5, 1} {
		f := func(v1, v2 float64) float64 {
			s := v1 * v1 * v2 * v2
			return 4 * v1 * v2 * math.Exp(tt*(lc+y*math.Log(s)+(n-y)*math.Log1p(-s)))
		}
		quad := func(k int) float64 {
			return models.SimpsonRule(func(v1 float64) float64 {
				return models.SimpsonRule(func(v2 float64) float64 { return f(v1, v2) }, 0, 1, k)
			}, 0, 1, k)
		}
		coarse, fine := math.Log(quad(600)), math.Log(quad(1200))
		if math.Abs(coarse-fine) > 1e-8 {
			t.Fatalf("t %g: the quadrature has not converged: %.12g on 600, %.12g on 1200 intervals", tt, coarse, fine)
		}
		if got := u.LogZPath(tt); math.Abs(got-fine) > 1e-7 {
			t.Errorf("t %g: LogZPath = %.12g, quadrature %.12g", tt, got, fine)
		}
	}
	if got := u.ExactLogZ(); got != u.LogZPath(1) {
		t.Errorf("ExactLogZ = %v, LogZPath(1) = %v", got, u.LogZPath(1))
	}
}
