package models

import "fmt"

// MaxBananaCurvature bounds NewBanana's curvature b: at b = 10 the
// banana's arms already reach x2 ≈ −10⁴ within three standard deviations
// of x1.
const MaxBananaCurvature = 10

// Banana is the twisted Gaussian of Haario, Saksman and Tamminen
// (Adaptive proposal distribution for random walk Metropolis, Comput.
// Stat. 14, 1999, §3): the Gaussian N(0, diag(100, 1, …, 1)) in dim ≥ 2
// coordinates with its second coordinate bent by x2 → x2 − b(x1² − 100),
// so that
//
//	W1(x) = −x1²/200 − ½(x2 + b(x1² − 100))² − ½ Σ_{j≥3} x_j²,
//
// and the reference is the untwisted Gaussian, W0(x) = −x1²/200 −
// ½ Σ_{j≥2} x_j². The twist has Jacobian 1, so Z1 = Z0 and log(Z1/Z0) = 0
// (ExactLogZ). Its marginals are exact (MarginalCDF): x1 ~ N(0, 100),
// x_j ~ N(0, 1) for j ≥ 3, and x2 = z2 − 100b(z1² − 1) with z1, z2
// independent standard normals. The target is drawn exactly by
// SampleTarget.
type Banana struct {
	Dim       int     // dimension d ≥ 2
	Curvature float64 // twist b; read-only after NewBanana
	*funcsModel
}

// NewBanana returns the banana in dim ≥ 2 coordinates with curvature b in
// [0, MaxBananaCurvature], explored by ex.
func NewBanana(dim int, b float64, ex Explorer) (*Banana, error) {
	switch {
	case dim < 2:
		return nil, fmt.Errorf("models: banana needs dimension at least 2, got %d", dim)
	case !(b >= 0 && b <= MaxBananaCurvature):
		return nil, fmt.Errorf("models: banana's curvature must be in [0, %g], got %g", float64(MaxBananaCurvature), b)
	}
	m := &Banana{Dim: dim, Curvature: b}
	f, err := FromFuncs(Funcs{
		Dim:             dim,
		LogReference:    func(x []float64) float64 { return -x[0]*x[0]/200 - sumSquares(x[1:])/2 },
		LogTarget:       m.logTarget,
		SampleReference: sampleUntwisted,
		GradLogReference: func(x, g []float64) {
			g[0] = -x[0] / 100
			for d := 1; d < len(x); d++ {
				g[d] = -x[d]
			}
		},
		GradLogTarget: m.gradTarget,
	}, ex)
	if err != nil {
		return nil, err
	}
	m.funcsModel = f.(*funcsModel)
	return m, nil
}

// sampleUntwisted draws N(0, diag(100, 1, …, 1)).
func sampleUntwisted(r Rand, x []float64) {
	x[0] = 10 * r.Normal()
	for d := 1; d < len(x); d++ {
		x[d] = r.Normal()
	}
}

// logTarget is W1.
func (m *Banana) logTarget(x []float64) float64 {
	r := x[1] + m.Curvature*(x[0]*x[0]-100)
	return -x[0]*x[0]/200 - r*r/2 - sumSquares(x[2:])/2
}

// gradTarget writes ∇W1: with r = x2 + b(x1² − 100), ∂x1 = −x1/100 −
// 2b·x1·r, ∂x2 = −r, ∂x_j = −x_j.
func (m *Banana) gradTarget(x, g []float64) {
	r := x[1] + m.Curvature*(x[0]*x[0]-100)
	g[0] = -x[0]/100 - 2*m.Curvature*x[0]*r
	g[1] = -r
	for d := 2; d < len(x); d++ {
		g[d] = -x[d]
	}
}

// SampleTarget overwrites x (Dim coordinates) with an exact draw of the
// target: the untwisted Gaussian, then x2 −= b(x1² − 100).
func (m *Banana) SampleTarget(r Rand, x []float64) {
	sampleUntwisted(r, x)
	x[1] -= m.Curvature * (x[0]*x[0] - 100)
}

// ExactLogZ returns 0: the twist preserves volume, so Z1 = Z0.
func (m *Banana) ExactLogZ() float64 { return 0 }

// Name returns "banana".
func (m *Banana) Name() string { return "banana" }

// Description returns "banana dim=… curvature=… explorer=…".
func (m *Banana) Description() string {
	return fmt.Sprintf("banana dim=%d curvature=%s explorer=%s", m.Dim, fmtFloat(m.Curvature), describeExplorer(m.ex))
}

var (
	_ ExactLogZ = (*Banana)(nil)
	_ Described = (*Banana)(nil)
	_ Named     = (*Banana)(nil)
)
