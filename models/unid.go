package models

import (
	"fmt"
	"math"
)

// MaxUnidTrials bounds unid's n: counts up to 2^52 stay exact in float64.
const MaxUnidTrials = 1 << 52

// Unid is Pigeons.jl's unidentifiable product: y ~ Binomial(n, p1·p2)
// with p1, p2 ~ U(0, 1) independently. Only the product is identified, so
// the posterior is a thin ridge along the curve p1·p2 = y/n, the harder
// the larger n.
//
// The state is u = (logit p1, logit p2) ∈ R², so that every explorer
// (the gradient ones too) moves it freely: the reference, the uniform
// prior pushed to u, is the standard logistic density in each coordinate,
//
//	W0(u) = Σ_i ln σ(u_i) + ln(1 − σ(u_i)),  drawn exactly as logit U,
//	W1(u) = W0(u) + ln C(n, y) + y ln(p1 p2) + (n − y) ln(1 − p1 p2),
//
// with p_i = σ(u_i). Z0 = 1, so log(Z1/Z0) is the log evidence (LogZPath
// at t = 1). The observables are "logit_p1" and "logit_p2".
type Unid struct {
	N, Y int64 // trials n and successes y; read-only after NewUnid
	*funcsModel
	lnChoose float64 // ln C(n, y)
}

// NewUnid returns unid with n trials and y successes, 0 ≤ y ≤ n ≤
// MaxUnidTrials, explored by ex.
func NewUnid(n, y int64, ex Explorer) (*Unid, error) {
	if n < 1 || n > MaxUnidTrials || y < 0 || y > n {
		return nil, fmt.Errorf("models: unid needs 0 ≤ y ≤ n, 1 ≤ n ≤ 2^52; got n = %d, y = %d", n, y)
	}
	u := &Unid{N: n, Y: y, lnChoose: lnChoose(float64(n), float64(y))}
	m, err := FromFuncs(Funcs{
		Dim: 2, Names: []string{"logit_p1", "logit_p2"},
		LogReference:     unidLogPrior,
		LogTarget:        func(x []float64) float64 { return unidLogPrior(x) + u.logLik(x) },
		SampleReference:  sampleLogistic,
		GradLogReference: unidGradPrior,
		GradLogTarget:    u.gradTarget,
	}, ex)
	if err != nil {
		return nil, err
	}
	u.funcsModel = m.(*funcsModel)
	return u, nil
}

// lnChoose returns ln C(n, k).
func lnChoose(n, k float64) float64 {
	a, _ := math.Lgamma(n + 1)
	b, _ := math.Lgamma(k + 1)
	c, _ := math.Lgamma(n - k + 1)
	return a - b - c
}

// softplus returns ln(1 + e^x) without overflow: −ln σ(−x).
func softplus(x float64) float64 {
	if x > 0 {
		return x + math.Log1p(math.Exp(-x))
	}
	return math.Log1p(math.Exp(x))
}

// sigmoid returns σ(x) = 1/(1 + e^{−x}).
func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// unidLogPrior is W0: Σ ln σ(u_i) + ln σ(−u_i) = −Σ softplus(−u_i) +
// softplus(u_i).
func unidLogPrior(x []float64) float64 {
	return -softplus(-x[0]) - softplus(x[0]) - softplus(-x[1]) - softplus(x[1])
}

// unidGradPrior writes ∇W0: 1 − 2σ(u_i).
func unidGradPrior(x, g []float64) {
	g[0] = 1 - 2*sigmoid(x[0])
	g[1] = 1 - 2*sigmoid(x[1])
}

// logOneMinusProduct returns ln(1 − p1 p2) as ln((1 − p1) + p1(1 − p2)),
// a log-sum of exponentials of −softplus(u1) and −softplus(−u1) −
// softplus(u2), exact where p1 p2 is near 1.
func logOneMinusProduct(u1, u2 float64) float64 {
	a, b := -softplus(u1), -softplus(-u1)-softplus(u2)
	hi, lo := math.Max(a, b), math.Min(a, b)
	return hi + math.Log1p(math.Exp(lo-hi))
}

// logLik is ln C(n, y) + y ln(p1 p2) + (n − y) ln(1 − p1 p2); a zero
// count's term is left out (0 · −∞ would be NaN).
func (u *Unid) logLik(x []float64) float64 {
	s := u.lnChoose
	if u.Y > 0 {
		s -= float64(u.Y) * (softplus(-x[0]) + softplus(-x[1]))
	}
	if u.N > u.Y {
		s += float64(u.N-u.Y) * logOneMinusProduct(x[0], x[1])
	}
	return s
}

// gradTarget writes ∇W1 = ∇W0 + ∇ln L: ∂/∂u_i of y ln p_i is y(1 − p_i),
// of (n − y) ln(1 − p1 p2) it is −(n − y) p1 p2 (1 − p_i)/(1 − p1 p2).
func (u *Unid) gradTarget(x, g []float64) {
	unidGradPrior(x, g)
	y, f := float64(u.Y), float64(u.N-u.Y)
	r := math.Exp(-softplus(-x[0]) - softplus(-x[1]) - logOneMinusProduct(x[0], x[1])) // p1p2/(1 − p1p2)
	for i := range 2 {
		q := sigmoid(-x[i]) // 1 − p_i
		g[i] += y*q - f*r*q
	}
}

// sampleLogistic draws each coordinate as logit U = ln U − ln(1 − U), U
// uniform on (0, 1): U = 1 (probability 2⁻⁵³, logit +∞) is drawn again,
// which leaves U exactly uniform on (0, 1).
func sampleLogistic(r Rand, x []float64) {
	for i := range x {
		v := r.Uniform()
		for v >= 1 {
			v = r.Uniform()
		}
		x[i] = math.Log(v) - math.Log1p(-v)
	}
}

// Name returns "unid".
func (u *Unid) Name() string { return "unid" }

// Description returns "unid n=… y=… explorer=…".
func (u *Unid) Description() string {
	return fmt.Sprintf("unid n=%d y=%d explorer=%s", u.N, u.Y, describeExplorer(u.ex))
}

var (
	_ ExactLogZ = (*Unid)(nil)
	_ Described = (*Unid)(nil)
	_ Named     = (*Unid)(nil)
)
