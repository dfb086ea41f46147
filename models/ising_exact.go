package models

import "math"

// MaxIsingEnumerationSites is the largest lattice, in sites, whose
// partition function ExactLogZ computes by enumerating its 2^N
// configurations (2^16 = 65536 for L = 4).
const MaxIsingEnumerationSites = 16

// ExactLogZ returns the exact log(Z1/Z0) a run estimates: Z1 = Σ_s
// exp(W1(s)) is the partition function of the finite periodic L × L
// lattice at (β, h) and Z0 = 2^N (N = L²) that of the uniform reference
// (W0 = 0), so the result is log Z1 − N·log 2.
//
// At zero field it is Kaufman's closed form (IsingKaufmanLogZ, any L); at
// non-zero field, for L² ≤ MaxIsingEnumerationSites, it enumerates the 2^N
// configurations; otherwise no exact value is known and it returns NaN.
func (m *Ising) ExactLogZ() float64 {
	n := m.Size * m.Size
	switch {
	case m.Field == 0 && (m.Beta >= 0 || m.Size%2 == 0):
		// On a torus of even side the sublattice flip maps β to −β.
		return IsingKaufmanLogZ(m.Size, m.Size, math.Abs(m.Beta)) - float64(n)*math.Ln2
	case n <= MaxIsingEnumerationSites:
		return isingEnumerateLogZ(m.Size, m.Beta, m.Field) - float64(n)*math.Ln2
	}
	return math.NaN()
}

// IsingKaufmanLogZ returns log Z of the zero-field Ising model at coupling
// K ≥ 0 on the periodic lattice of rows × cols sites, Z = Σ_s exp(K·Σ_<ij>
// s_i s_j) over the 2^(rows·cols) configurations, by Kaufman's four-term
// product formula (B. Kaufman, "Crystal statistics. II. Partition function
// evaluated by spinor analysis", Phys. Rev. 76, 1232 (1949), eqs. (75)
// and (7); McCoy and Wu, The Two-Dimensional Ising Model, ch. IV): with
// m = rows and n = cols,
//
//	Z = ½·(2 sinh 2K)^(mn/2)·[Π 2cosh(mγ_{2r+1}/2) + Π 2sinh(mγ_{2r+1}/2)
//	                          + Π 2cosh(mγ_{2r}/2) + Π 2sinh(mγ_{2r}/2)],
//
// the products over r = 0, …, n−1, where cosh γ_j = cosh 2K·coth 2K −
// cos(πj/n) for j ≥ 1 and γ_0 = 2K + log tanh K (negative above the
// critical temperature, which changes the sign of the last product). The
// products are summed in logarithms, so the result stays finite for any
// lattice; K = 0 gives rows·cols·log 2 exactly.
func IsingKaufmanLogZ(rows, cols int, k float64) float64 {
	if k < 0 || rows < 1 || cols < 1 {
		panic("models: IsingKaufmanLogZ needs K ≥ 0 and a lattice of at least one site")
	}
	mn := float64(rows * cols)
	if k == 0 {
		return mn * math.Ln2
	}
	m := float64(rows)
	c := math.Cosh(2*k) / math.Tanh(2*k)
	var logs [4]float64 // Σ log|2cosh| and Σ log|2sinh| over odd j, then even j
	sign := 1.0         // the sign of the last product
	for j := 0; j < 2*cols; j++ {
		var g float64
		if j == 0 {
			g = 2*k + math.Log(math.Tanh(k))
		} else {
			g = math.Acosh(c - math.Cos(math.Pi*float64(j)/float64(cols)))
		}
		x := m * g / 2
		e := math.Exp(-2 * math.Abs(x))
		t := 2 * (1 - j%2) // odd j: logs[0] and [1]; even j: logs[2] and [3]
		logs[t] += math.Abs(x) + math.Log1p(e)
		logs[t+1] += math.Abs(x) + math.Log1p(-e)
		if x < 0 && t == 2 { // only γ_0 can be negative
			sign = -sign
		}
	}
	hi := max(logs[0], logs[1], logs[2], logs[3])
	sum := 0.0
	for i, l := range logs {
		s := 1.0
		if i == 3 {
			s = sign
		}
		sum += s * math.Exp(l-hi)
	}
	return -math.Ln2 + mn/2*math.Log(2*math.Sinh(2*k)) + hi + math.Log(sum)
}

// isingEnumerateLogZ returns log Σ_s exp(β·Σ_<ij> s_i s_j + h·Σ s_i) over
// the 2^(size²) configurations of the periodic size × size lattice, by
// counting the configurations of each (bond sum, magnetisation) and
// summing exp(β·bonds + h·mag)·count in logarithms. It panics for a
// lattice of more than MaxIsingEnumerationSites sites.
func isingEnumerateLogZ(size int, beta, h float64) float64 {
	n := size * size
	if n > MaxIsingEnumerationSites {
		panic("models: lattice too large to enumerate")
	}
	counts := map[[2]int]float64{}
	for cfg := 0; cfg < 1<<n; cfg++ {
		spin := func(x, y int) int { return 2*(cfg>>(((y+size)%size)*size+(x+size)%size)&1) - 1 }
		bonds, mag := 0, 0
		for y := 0; y < size; y++ {
			for x := 0; x < size; x++ {
				s := spin(x, y)
				bonds += s * (spin(x+1, y) + spin(x, y+1))
				mag += s
			}
		}
		counts[[2]int{bonds, mag}]++
	}
	hi := math.Inf(-1)
	for k := range counts {
		hi = max(hi, beta*float64(k[0])+h*float64(k[1]))
	}
	sum := 0.0
	for k, c := range counts {
		sum += c * math.Exp(beta*float64(k[0])+h*float64(k[1])-hi)
	}
	return hi + math.Log(sum)
}
