package models

import (
	"sync"

	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/layout"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// Tiles of the logistic model's batches: logitCols states by logitRows
// observations at a time, small enough that gonum's Dgemm stays on the
// calling goroutine (it goes parallel from 4 blocks of 64×64) and that a
// tile of predictors (64 KiB) stays in cache.
const (
	logitCols = 64
	logitRows = 128
)

// logitScratch is one call's tile buffers.
type logitScratch struct {
	eta, resid, k []float64 // logitRows × logitCols; k: LogitSums' scratch, and 2 rows
	ll, grad      []float64 // logitCols, and p × logitCols
}

// LogisticBatch returns the Batch of the logistic regression on d with
// prior N(0, priorSD² I): for a tile of states B (p × w) and of
// observations X_t (rows × p), η = X_t·B with Dgemm, the log-likelihood
// Σ y·η − log(1 + e^η) and the residuals y − σ(η) with kernel.LogitSums
// (vector exponentials and logarithms), and the gradient X_tᵀ(y − σ(η))
// with Dgemm, added tile after tile. Each state's results
// take the same operations in the same order whatever the other states, so
// runs do not depend on the number of replicates or workers. Its functions
// may run on several goroutines at once.
func LogisticBatch(d *LogisticData, priorSD float64) Batch {
	p, prec := d.NumCoefs(), 1/(priorSD*priorSD)
	pool := sync.Pool{New: func() any {
		const n = logitRows * logitCols
		return &logitScratch{eta: make([]float64, n), resid: make([]float64, n), k: make([]float64, n+2*logitCols),
			ll: make([]float64, logitCols), grad: make([]float64, p*logitCols)}
	}}
	eval := func(x []float64, n int, w0, w1, g0, g1 []float64) {
		s := pool.Get().(*logitScratch)
		defer pool.Put(s)
		for j := 0; j < n; j++ {
			ss := 0.0
			for k := 0; k < p; k++ {
				v := x[k*n+j]
				ss += v * v
				if g0 != nil {
					g0[k*n+j] = -prec * v
				}
			}
			w0[j] = -prec * ss / 2
		}
		for j0 := 0; j0 < n; j0 += logitCols {
			w := min(logitCols, n-j0)
			d.tile(s, x[j0:], n, w, g1 != nil)
			for j := 0; j < w; j++ {
				w1[j0+j] = w0[j0+j] + s.ll[j]
				for k := 0; g1 != nil && k < p; k++ {
					g1[k*n+j0+j] = g0[k*n+j0+j] + s.grad[k*w+j]
				}
			}
		}
	}
	return Batch{
		Dim: p, Names: d.Names,
		Energies:  func(x []float64, n int, w0, w1 []float64) { eval(x, n, w0, w1, nil, nil) },
		Gradients: eval,
		SampleReference: func(r Rand, b []float64) {
			for k := range b {
				b[k] = priorSD * r.Normal()
			}
		},
	}
}

// tile sets s.ll (and with grad, s.grad, p × w) for the w states whose
// coordinate k is at b[k*ldb+j], over every observation.
func (d *LogisticData) tile(s *logitScratch, b []float64, ldb, w int, grad bool) {
	p, n := d.NumCoefs(), d.NumRows()
	wp := (w + layout.Lanes - 1) / layout.Lanes * layout.Lanes // the tile's row stride
	ll := s.ll[:wp]
	clear(ll)
	if grad {
		clear(s.grad[:p*w])
	}
	impl := gonum.Implementation{}
	for i0 := 0; i0 < n; i0 += logitRows {
		rows := min(logitRows, n-i0)
		m := rows * wp
		impl.Dgemm(blas.NoTrans, blas.NoTrans, rows, w, p, 1, d.X[i0*p:], p, b, ldb, 0, s.eta, wp)
		var resid []float64
		if grad {
			resid = s.resid[:m]
		}
		kernel.LogitSums(ll, resid, s.eta[:m], d.Y[i0:i0+rows], wp, s.k)
		if grad {
			impl.Dgemm(blas.Trans, blas.NoTrans, p, w, rows, 1, d.X[i0*p:], p, resid, wp, 1, s.grad, w)
		}
	}
}
