package kernel

import (
	"math"

	"github.com/ptbatch/ptbatch/asm"
)

// LogitGroup is the number of rows whose terms log(1 + e^−|η|) LogitSums
// adds as the logarithm of their product: 64 factors in [1, 2], whose
// product stays below 2^64.
const LogitGroup = 64

// LogitSums adds a tile of a logistic regression's log-likelihood: for a
// tile of linear predictors η (rows of stride values, row i at
// eta[i*stride:], stride a multiple of layout.Lanes) and their responses
// y (one per row, 0 or 1), for every column j
//
//	ll[j] += Σ_i y_i·η_ij − log(1 + e^η_ij),
//	log(1 + e^η) = max(η, 0) + log(1 + e^−|η|),
//
// and, when resid is not nil, writes the gradient's residuals
// resid[i*stride+j] = y_i − σ(η_ij), σ(η) = 1/(1 + e^−|η|) for η ≥ 0 and
// e^−|η|/(1 + e^−|η|) otherwise. Every form is stable for every η.
//
// One exponential e^−|η| per term, by asm.ExpNonPos's operations (four
// lanes at a time in assembly on amd64; the same bits everywhere); the
// terms log(1 + e^−|η|) of each group of LogitGroup rows are added as the
// logarithm of their product, one MixLog kernel call (math.Log bit for
// bit) per group, which rounds the group's sum to within about 64 ulps of
// its terms' scale. LogitSumsGeneric, the plain-Go twin, gives the same
// bits. A NaN η gives a NaN ll. scratch holds at least len(eta) +
// 2·stride values. It panics with "kernel: slice lengths do not match"
// unless the lengths agree.
func LogitSums(ll, resid, eta, y []float64, stride int, scratch []float64) {
	rows := len(y)
	if stride < 0 || rowsOf(stride) < 0 || len(eta) != rows*stride || len(ll) != stride ||
		(resid != nil && len(resid) != len(eta)) || len(scratch) < len(eta)+2*stride {
		panic(errLengths)
	}
	raceRead(eta)
	raceRead(y)
	raceWrite(ll)
	e, prod, logs := scratch[:len(eta)], scratch[len(eta):len(eta)+stride], scratch[len(eta)+stride:len(eta)+2*stride]
	raceWrite(scratch[:len(eta)+2*stride])
	expNegAbs(e, eta)
	for g := 0; g < rows; g += LogitGroup {
		for j := range prod {
			prod[j] = 1
		}
		for i := g; i < min(g+LogitGroup, rows); i++ {
			logitRow(ll, prod, eta[i*stride:(i+1)*stride], e[i*stride:(i+1)*stride], y[i])
		}
		impl.MixLog(logs, prod)
		for j, l := range logs {
			ll[j] -= l
		}
	}
	if resid != nil {
		raceWrite(resid)
		for i := 0; i < rows; i++ {
			logitResid(resid[i*stride:(i+1)*stride], eta[i*stride:(i+1)*stride], e[i*stride:(i+1)*stride], y[i])
		}
	}
}

// logitRow adds one row's y·η − max(η, 0) to ll and multiplies prod by
// its factors 1 + e^−|η|.
func logitRow(ll, prod, eta, e []float64, y float64) {
	for j, x := range eta {
		ll[j] += y*x - max(x, 0)
		prod[j] *= 1 + e[j]
	}
}

// logitResid writes one row's residuals y − σ(η).
func logitResid(r, eta, e []float64, y float64) {
	for j, x := range eta {
		s := 1 / (1 + e[j])
		if x < 0 {
			s *= e[j]
		}
		r[j] = y - s
	}
}

// LogitSumsGeneric is LogitSums in plain Go, one term at a time, with
// asm.ExpNonPos and math.Log: the twin its tests compare it with, bit for
// bit.
func LogitSumsGeneric(ll, resid, eta, y []float64, stride int) {
	for g := 0; g < len(y); g += LogitGroup {
		for j := 0; j < stride; j++ {
			p := 1.0
			for i := g; i < min(g+LogitGroup, len(y)); i++ {
				x := eta[i*stride+j]
				ll[j] += y[i]*x - max(x, 0)
				p *= 1 + asm.ExpNonPos(-math.Abs(x))
			}
			ll[j] -= math.Log(p)
		}
	}
	for i := 0; resid != nil && i < len(y); i++ {
		for j := 0; j < stride; j++ {
			x := eta[i*stride+j]
			e := asm.ExpNonPos(-math.Abs(x))
			s := 1 / (1 + e)
			if x < 0 {
				s *= e
			}
			resid[i*stride+j] = y[i] - s
		}
	}
}

// expNegAbsGeneric sets dst[i] = asm.ExpNonPos(−|src[i]|).
func expNegAbsGeneric(dst, src []float64) {
	for i, x := range src {
		dst[i] = asm.ExpNonPos(-math.Abs(x))
	}
}
