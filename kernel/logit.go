package kernel

import (
	"math"

	"github.com/ptbatch/ptbatch/asm"
)

// LogitGroup is the number of observations whose terms log(1 + e^−|η|)
// LogitSums adds as the logarithm of their product: 64 factors in [1, 2],
// whose product stays below 2^64.
const LogitGroup = 64

// LogitSums adds a tile of a logistic regression's log-likelihood for
// len(ll) states: with the linear predictors of state r over the tile's
// observations in row r of eta (row r at eta[r*stride:], the first len(y)
// values; stride a multiple of layout.Lanes, the rest padding) and the
// observations' responses y (0 or 1), for every state r
//
//	ll[r] += Σ_i y_i·η_ri − log(1 + e^η_ri),
//	log(1 + e^η) = max(η, 0) + log(1 + e^−|η|),
//
// and, when resid is not nil, it writes the gradient's residuals
// resid[r*stride+i] = y_i − σ(η_ri), σ(η) = ½ + ½·sign(η)·tanh(|η|/2),
// tanh(|η|/2) = (1 − e^−|η|)/(1 + e^−|η|) (within about 2^−53 absolute).
// Every form is stable for every η.
//
// One exponential e^−|η| per term, by asm.ExpNonPos's operations (four at
// a time in assembly on amd64; the same bits everywhere); the terms
// log(1 + e^−|η|) of each group of LogitGroup observations are added as
// the logarithm of their product, by the MixLog kernel (math.Log bit for
// bit), which rounds a group's sum to within about 64 ulps of its terms'
// scale. Each state's sums run over its observations in order, whatever
// the other rows. LogitSumsGeneric, the plain-Go twin, gives the same
// bits. A NaN η gives a NaN ll. scratch holds at least len(eta) +
// 2·LogitScratchRows(len(ll), len(y)) values. It panics with "kernel: slice
// lengths do not match" unless the lengths agree.
func LogitSums(ll, resid, eta, y []float64, stride int, scratch []float64) {
	rows, groups := len(ll), (len(y)+LogitGroup-1)/LogitGroup
	nl := LogitScratchRows(rows, len(y))
	if rowsOf(stride) < 0 || len(y) > stride || len(eta) != rows*stride || (resid != nil && len(resid) != len(eta)) ||
		len(scratch) < len(eta)+2*nl {
		panic(errLengths)
	}
	raceRead(eta)
	raceRead(y)
	raceWrite(ll)
	raceWrite(scratch[:len(eta)+2*nl])
	e, prod, logs := scratch[:len(eta)], scratch[len(eta):len(eta)+nl], scratch[len(eta)+nl:len(eta)+2*nl]
	expNegAbs(e, eta)
	clear(prod[rows*groups:])
	for g := 0; g < groups; g++ {
		lo, hi := g*LogitGroup, min((g+1)*LogitGroup, len(y))
		r := 0
		for ; r+4 <= rows; r += 4 {
			logitGroup4(ll[r:r+4], prod[r*groups+g:], groups, eta[r*stride:], e[r*stride:], stride, lo, hi, y)
		}
		for ; r < rows; r++ {
			s, p := logitGroup1(eta[r*stride+lo:r*stride+hi], e[r*stride+lo:r*stride+hi], y[lo:hi])
			ll[r] += s
			prod[r*groups+g] = p
		}
	}
	impl.MixLog(logs, prod)
	for r := 0; r < rows; r++ {
		for g := 0; g < groups; g++ {
			ll[r] -= logs[r*groups+g]
		}
	}
	if resid != nil {
		raceWrite(resid)
		for r := 0; r < rows; r++ {
			logitResid(resid[r*stride:r*stride+len(y)], eta[r*stride:r*stride+len(y)], e[r*stride:r*stride+len(y)], y)
		}
	}
}

// LogitScratchRows returns the number of group products of LogitSums
// for rows states and n observations, rounded up to whole rows of
// layout.Lanes.
func LogitScratchRows(rows, n int) int {
	k := rows * ((n + LogitGroup - 1) / LogitGroup)
	return (k + 7) / 8 * 8
}

// logitGroup1 returns one state's Σ y_i·η_i − max(η_i, 0) and
// Π (1 + e_i) over one group, in order.
func logitGroup1(eta, e, y []float64) (s, p float64) {
	p = 1
	for i, x := range eta {
		s += y[i]*x - max(x, 0)
		p *= 1 + e[i]
	}
	return s, p
}

// logitGroup4 is logitGroup1 for four states at once (rows at eta[k*stride:],
// observations lo to hi), interleaved so that the eight sums and products
// do not wait on one another; each state's operations are logitGroup1's,
// in the same order. It adds the sums to ll[0:4] and writes the products
// to prod[k*groups].
func logitGroup4(ll, prod []float64, groups int, eta, e []float64, stride, lo, hi int, y []float64) {
	x0, x1, x2, x3 := eta[lo:hi], eta[stride+lo:stride+hi], eta[2*stride+lo:2*stride+hi], eta[3*stride+lo:3*stride+hi]
	e0, e1, e2, e3 := e[lo:hi], e[stride+lo:stride+hi], e[2*stride+lo:2*stride+hi], e[3*stride+lo:3*stride+hi]
	yy := y[lo:hi]
	var s0, s1, s2, s3 float64
	p0, p1, p2, p3 := 1.0, 1.0, 1.0, 1.0
	for i, v := range yy {
		a, b, c, d := x0[i], x1[i], x2[i], x3[i]
		s0 += v*a - max(a, 0)
		s1 += v*b - max(b, 0)
		s2 += v*c - max(c, 0)
		s3 += v*d - max(d, 0)
		p0 *= 1 + e0[i]
		p1 *= 1 + e1[i]
		p2 *= 1 + e2[i]
		p3 *= 1 + e3[i]
	}
	ll[0] += s0
	ll[1] += s1
	ll[2] += s2
	ll[3] += s3
	prod[0], prod[groups], prod[2*groups], prod[3*groups] = p0, p1, p2, p3
}

// logitResid writes one state's residuals y − σ(η), σ(η) = ½ + ½·sign(η)·
// (1 − e)/(1 + e) with e = e^−|η| (tanh(|η|/2) = (1 − e)/(1 + e)):
// without a branch on the sign, which the predictor would miss half the
// time.
func logitResid(r, eta, e, y []float64) {
	for i, x := range eta {
		t := (1 - e[i]) / (1 + e[i])
		r[i] = y[i] - (0.5 + 0.5*math.Copysign(t, x))
	}
}

// LogitSumsGeneric is LogitSums in plain Go, one term at a time, with
// asm.ExpNonPos and math.Log: the twin its tests compare it with, bit for
// bit.
func LogitSumsGeneric(ll, resid, eta, y []float64, stride int) {
	for r := range ll {
		var logs []float64
		for g := 0; g < len(y); g += LogitGroup {
			s, p := 0.0, 1.0
			for i := g; i < min(g+LogitGroup, len(y)); i++ {
				x := eta[r*stride+i]
				s += y[i]*x - max(x, 0)
				p *= 1 + asm.ExpNonPos(-math.Abs(x))
			}
			ll[r] += s
			logs = append(logs, math.Log(p))
		}
		for _, l := range logs {
			ll[r] -= l
		}
	}
	for r := 0; resid != nil && r < len(ll); r++ {
		for i := range y {
			x := eta[r*stride+i]
			e := asm.ExpNonPos(-math.Abs(x))
			t := (1 - e) / (1 + e)
			resid[r*stride+i] = y[i] - (0.5 + 0.5*math.Copysign(t, x))
		}
	}
}

// expNegAbsGeneric sets dst[i] = asm.ExpNonPos(−|src[i]|).
func expNegAbsGeneric(dst, src []float64) {
	for i, x := range src {
		dst[i] = asm.ExpNonPos(-math.Abs(x))
	}
}
