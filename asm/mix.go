package asm

import "math"

// The kernels of the mixture models' Gibbs sweep (models.Mixture), one row
// of layout.Lanes replicates at a time, with the lanes innermost: value v of
// lane j is x[v*8+j]. Each kernel performs, lane by lane, the operations of
// the scalar reference models.Mixture.Scalar in the same order, every
// product rounded before it is added (no fused multiply-add), so that the
// batched sweep and the reference agree bit for bit. Their doc comments are
// the loops themselves, for one lane j; the running sums (r, p, counts) are
// read from and written back to their slices, so a caller may split the
// observations over several calls.

// MixTerms2Generic computes the label terms of a two-component mixture
// (models.mix2Term): for every observation n in order, with
// a, b, mid = coef[j], coef[8+j], coef[16+j],
//
//	d := a + b*(y[n]-mid); if d > 700 { d = 700 }
//	x := MixExp(d)                  // E_n1
//	v := 1/(1 + x)                  // 1/S_n
//	e[n*8+j], inv[n*8+j] = x, v
//	r[j] += v; r[8+j] += x*v        // R_0, R_1
func MixTerms2Generic(e, inv, r, y, coef []float64) {
	for j := 0; j < lanes; j++ {
		a, b, mid := coef[j], coef[lanes+j], coef[2*lanes+j]
		r0, r1 := r[j], r[lanes+j]
		for n, yn := range y {
			d := a + float64(b*(yn-mid))
			if d > 700 {
				d = 700
			}
			x := MixExp(d)
			v := 1 / (1 + x)
			e[n*lanes+j], inv[n*lanes+j] = x, v
			r0 += v
			r1 += float64(x * v)
		}
		r[j], r[lanes+j] = r0, r1
	}
}

// MixRatioInRange reports whether the log-ratio sum of the mixtures' MH
// move (models.mixLogRatioStep) multiplies ratio into its running product,
// giving q: ratio within [2^-332, 2^332) and q within [2^-498, 2^498), by
// their exponent bits (zero, subnormal, infinite, NaN and negative values
// fall outside).
func MixRatioInRange(ratio, q float64) bool {
	return math.Float64bits(ratio)>>52-(1023-332) < 2*332 && math.Float64bits(q)>>52-(1023-498) < 2*498
}

// MixProp2Generic runs the second pass of the MH move of a two-component
// mixture (models.mixBlock.propTerms2) over the observations n = from,
// from+1, … with the factors a0, a1 = a[j], a[8+j] and the running sums
// r0, r1, p = acc[j], acc[8+j], acc[16+j]:
//
//	t := a0 + a1*e[n*8+j]           // S'_n
//	v := 1/t
//	ratio := t*inv[n*8+j]           // S'_n/S_n
//	q := p*ratio
//
// and when MixRatioInRange(ratio, q) in every lane, r0 += v,
// r1 += e[n*8+j]*v and p = q in every lane; otherwise it stops before
// observation n, leaving it to the caller, and returns n. It returns the
// number of observations when none stops it.
func MixProp2Generic(acc, e, inv, a []float64, from int) int {
	nd := len(inv) / lanes
	for n := from; n < nd; n++ {
		for j := 0; j < lanes; j++ {
			t := a[j] + float64(a[lanes+j]*e[n*lanes+j])
			if !MixRatioInRange(t*inv[n*lanes+j], acc[2*lanes+j]*(t*inv[n*lanes+j])) {
				return n
			}
		}
		for j := 0; j < lanes; j++ {
			x := e[n*lanes+j]
			t := a[j] + float64(a[lanes+j]*x)
			v := 1 / t
			acc[j] += v
			acc[lanes+j] += float64(x * v)
			acc[2*lanes+j] *= t * inv[n*lanes+j]
		}
	}
	return nd
}

// MixLabels2Generic draws the labels of a two-component mixture
// (models.mix2Label) and tallies component 1: for every observation n in
// order, with f0, f1 = f[j], f[8+j] and n1, s1, q1 = acc[j], acc[8+j],
// acc[16+j],
//
//	l := f0 <= u[n*8+j]*(f0 + f1*e[n*8+j])    // false for NaN
//	z[n*8+j] = l (0 or 1)
//	if l { n1 += 1; s1 += yc[n]; q1 += yc2[n] } else { n1 += 0; s1 += 0; q1 += 0 }
//
// (adding +0 changes a sum only from -0 to +0, as the assembly's masked
// additions do).
func MixLabels2Generic(z []uint8, acc, e, u, f, yc, yc2 []float64) {
	for j := 0; j < lanes; j++ {
		f0, f1 := f[j], f[lanes+j]
		n1, s1, q1 := acc[j], acc[lanes+j], acc[2*lanes+j]
		for n := range yc {
			if f0 <= u[n*lanes+j]*(f0+float64(f1*e[n*lanes+j])) {
				z[n*lanes+j] = 1
				n1 += 1
				s1 += yc[n]
				q1 += yc2[n]
			} else {
				z[n*lanes+j] = 0
				n1 += 0
				s1 += 0
				q1 += 0
			}
		}
		acc[j], acc[lanes+j], acc[2*lanes+j] = n1, s1, q1
	}
}

// MixTermsKGeneric computes the label terms of an m-component mixture,
// m = len(cc)/8 (models.mixTerm, the components the caller keeps): for
// every observation n in order,
//
//	l_i := cc[i*8+j] + cb[i*8+j]*yc[n]          // i = 0 … m-1
//	mx := l_0; mx = max(mx, l_i) for i = 1 … m-1  // Go's max: NaN wins
//	s := 0
//	for i: x := MixExp(l_i - mx); e[(n*m+i)*8+j] = x; s += x
//	inv[n*8+j] = 1/s
//	for i: r[i*8+j] += e[(n*m+i)*8+j] * inv[n*8+j]
func MixTermsKGeneric(e, inv, r, yc, cc, cb []float64) {
	m := len(cc) / lanes
	for j := 0; j < lanes; j++ {
		for n, y := range yc {
			en := e[n*m*lanes:]
			mx := 0.0
			for i := 0; i < m; i++ {
				l := cc[i*lanes+j] + float64(cb[i*lanes+j]*y)
				en[i*lanes+j] = l
				if i == 0 {
					mx = l
				} else {
					mx = max(mx, l)
				}
			}
			s := 0.0
			for i := 0; i < m; i++ {
				x := MixExp(en[i*lanes+j] - mx)
				en[i*lanes+j] = x
				s += x
			}
			v := 1 / s
			inv[n*lanes+j] = v
			for i := 0; i < m; i++ {
				r[i*lanes+j] += float64(en[i*lanes+j] * v)
			}
		}
	}
}

// MixPropKGeneric is MixProp2Generic for m = len(a)/8 components
// (models.mixBlock.propTerms): with the running sums r_i = acc[i*8+j] and
// p = acc[m*8+j], for n = from, from+1, …,
//
//	t := 0; for i: t += a[i*8+j]*e[(n*m+i)*8+j]   // S'_n
//	v := 1/t
//	ratio := t*inv[n*8+j]
//	q := p*ratio
//
// and when MixRatioInRange(ratio, q) in every lane, r_i += e[(n*m+i)*8+j]*v
// for every i and p = q in every lane; otherwise it returns n.
func MixPropKGeneric(acc, e, inv, a []float64, from int) int {
	m := len(a) / lanes
	nd := len(inv) / lanes
	sum := func(n, j int) float64 {
		t := 0.0
		for i := 0; i < m; i++ {
			t += float64(a[i*lanes+j] * e[(n*m+i)*lanes+j])
		}
		return t
	}
	for n := from; n < nd; n++ {
		for j := 0; j < lanes; j++ {
			ratio := sum(n, j) * inv[n*lanes+j]
			if !MixRatioInRange(ratio, acc[m*lanes+j]*ratio) {
				return n
			}
		}
		for j := 0; j < lanes; j++ {
			t := sum(n, j)
			v := 1 / t
			for i := 0; i < m; i++ {
				acc[i*lanes+j] += float64(e[(n*m+i)*lanes+j] * v)
			}
			acc[m*lanes+j] *= t * inv[n*lanes+j]
		}
	}
	return nd
}

// MixLabelsKGeneric draws the labels of an m-component mixture,
// m = len(f)/8, by the inverse of the cumulative sums (models.mixLabel),
// and tallies them: lv holds a base label and m steps, tv the labels to
// tally (len(acc) = 3*len(tv)*8). For every observation n in order,
//
//	s := 0
//	for i: s += f[i*8+j]*e[(n*m+i)*8+j]; cum_i = s
//	t := u[n*8+j]*s
//	l := lv[0]; for i: if cum_i <= t { l += lv[1+i] }
//	z[n*8+j] = uint8(l)
//	for k, v := range tv: if l == v {
//		acc[3k*8+j] += 1; acc[(3k+1)*8+j] += yc[n]; acc[(3k+2)*8+j] += yc2[n]
//	} else { the three += 0 }
//
// The cumulative sums never decrease, so the i with cum_i <= t are the
// first q of them, and l = lv[0] + lv[1] + … + lv[q].
func MixLabelsKGeneric(z []uint8, acc, e, u, f, lv, tv, yc, yc2 []float64) {
	m := len(f) / lanes
	for j := 0; j < lanes; j++ {
		for n := range yc {
			s := 0.0
			for i := 0; i < m; i++ {
				s += float64(f[i*lanes+j] * e[(n*m+i)*lanes+j])
			}
			t := u[n*lanes+j] * s
			l, c := lv[0], 0.0
			for i := 0; i < m; i++ {
				c += float64(f[i*lanes+j] * e[(n*m+i)*lanes+j]) // cum_i again
				if c <= t {
					l += lv[1+i]
				}
			}
			z[n*lanes+j] = uint8(l)
			for k, v := range tv {
				if l == v {
					acc[3*k*lanes+j] += 1
					acc[(3*k+1)*lanes+j] += yc[n]
					acc[(3*k+2)*lanes+j] += yc2[n]
				} else {
					acc[3*k*lanes+j] += 0
					acc[(3*k+1)*lanes+j] += 0
					acc[(3*k+2)*lanes+j] += 0
				}
			}
		}
	}
}

// MixGammaTryGeneric makes the first attempts of Marsaglia and Tsang's
// method (kernel.GammaSampler, whose Try it follows step by step) for
// Gamma(conc[i], 1) variates with shapes at least 1, from the normals x and
// uniforms u, and keeps those that the squeeze accepts: for every i,
//
//	d := conc[i] - 1.0/3
//	c := 1/sqrt(9*d)
//	t := 1 + c*x[i]
//	v := t*t*t
//	x2 := x[i]*x[i]
//	g[i] = d*v if t > 0 && u[i] < 1 - 0.0331*x2*x2, else 0
//
// An attempt refused here may still pass Try's logarithmic test, which the
// caller makes (kernel.GammaSampler.Try gives the same value) before any
// retry.
func MixGammaTryGeneric(g, conc, x, u []float64) {
	for i, a := range conc {
		d := a - 1.0/3
		c := 1 / math.Sqrt(9*d)
		t := 1 + float64(c*x[i])
		v := t * t * t
		x2 := x[i] * x[i]
		g[i] = 0
		if t > 0 && u[i] < 1-float64(0.0331*x2*x2) {
			g[i] = d * v
		}
	}
}

// MixLogGeneric sets dst[i] = math.Log(src[i]) for every i: the
// logarithms of the mixtures' weights, which the scalar reference takes
// with math.Log. The amd64 assembly performs the operations of the
// standard library's amd64 math.Log (math/log_amd64.s, the FreeBSD
// algorithm), lane by lane, special cases included.
func MixLogGeneric(dst, src []float64) {
	for i, x := range src {
		dst[i] = math.Log(x)
	}
}
