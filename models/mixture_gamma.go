package models

import "math"

// mixGammaFrom returns a Gamma(a, 1) variate, a ≥ 1, by Marsaglia and Tsang
// ("A simple method for generating gamma variables", ACM TOMS 26(3), 2000):
// with d = a - 1/3 and c = 1/√(9d), each try takes a standard normal x and
// a uniform u, sets v = (1 + cx)³ and accepts when v > 0 and
//
//	u < 1 - 0.0331 x⁴  or  log u < x²/2 + d(1 - v + log v),
//
// returning d·v. The first try takes the x and u given (the sweeps draw
// them for all lanes at once), later ones draw x by mixNormal and then u
// from rng alone, so a lane's draws never depend on other lanes. The
// shapes of the mixture's moves are all at least 1 (see Mixture; move 1
// checks with mhProposable); a smaller one is a programmer error. (Generic
// in the source so that the batched block passes a kernel.Lane without
// allocating.)
func mixGammaFrom[L Lane](rng L, a, x, u float64) float64 {
	if !(a >= 1) || math.IsInf(a, 1) {
		panic("models: mixture gamma shape must be finite and at least 1")
	}
	d := a - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		if v := 1 + float64(c*x); v > 0 {
			v = v * v * v
			x2 := x * x
			if u < 1-float64(0.0331*x2*x2) || math.Log(u) < float64(0.5*x2)+float64(d*(1-v+math.Log(v))) {
				return d * v
			}
		}
		x = mixNormal(rng)
		u = rng.Uniform()
	}
}

// mixGamma returns a Gamma(a, 1) variate drawn by mixGammaFrom from rng
// alone: its first normal, then its first uniform, then the later tries.
func mixGamma[L Lane](rng L, a float64) float64 {
	x := mixNormal(rng)
	return mixGammaFrom(rng, a, x, rng.Uniform())
}

// mixNormal returns a standard normal draw from two uniforms of rng by the
// Box–Muller transform, cosine half: √(-2 log u1) cos(2π u2).
func mixNormal[L Lane](rng L) float64 {
	u1 := rng.Uniform()
	u2 := rng.Uniform()
	return math.Sqrt(-2*math.Log(u1)) * math.Cos(2*math.Pi*u2)
}

// mixDirichlet fills w with a Dir(conc) draw (len(w) == len(conc)): Gamma
// variates g_i ~ Gamma(conc[i], 1) drawn in order i = 0, 1, … by
// mixGammaFrom with the first normals x[i] and uniforms u[i], then
// w_i = g_i / Σ_i g_i.
func mixDirichlet[L Lane](rng L, conc, w, x, u []float64) {
	sum := 0.0
	for i, a := range conc {
		g := mixGammaFrom(rng, a, x[i], u[i])
		w[i] = g
		sum += g
	}
	for i := range w {
		w[i] /= sum
	}
}
