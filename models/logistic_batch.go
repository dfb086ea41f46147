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
// tile of predictors (96 KiB) stays in cache.
const (
	logitCols = 64
	logitRows = 192
)

// logitScratch is one call's tile buffers.
type logitScratch struct {
	eta, resid, k []float64 // logitCols × logitRows; k: LogitSums' scratch
	ll, grad      []float64 // logitCols, and logitCols × p
}

// LogisticBatch returns the Batch of the logistic regression on d with
// prior N(0, priorSD² I). For a tile of w states B (p × w, the states'
// columns) and of observations X_t (rows × p), it forms the predictors of
// each state over the observations, Bᵀ·X_tᵀ (w × rows), with Dgemm; the
// log-likelihood Σ y·η − log(1 + e^η) and the residuals y − σ(η) with
// kernel.LogitSums (vector exponentials and logarithms); and the
// gradient, residuals × X_t (w × p), with Dgemm, added tile after tile.
// Each state's results take the same operations in the same order
// whatever the other states, so that runs do not depend on the number of
// replicates or workers. Its functions may run on several goroutines at
// once.
func LogisticBatch(d *LogisticData, priorSD float64) Batch {
	p, n, prec := d.NumCoefs(), d.NumRows(), 1/(priorSD*priorSD)
	xt := make([]float64, p*n) // Xᵀ, p × n
	for i := 0; i < n; i++ {
		for k := 0; k < p; k++ {
			xt[k*n+i] = d.X[i*p+k]
		}
	}
	pool := sync.Pool{New: func() any {
		const m = logitRows * logitCols
		return &logitScratch{eta: make([]float64, m), resid: make([]float64, m),
			k:  make([]float64, m+2*kernel.LogitScratchRows(logitCols, logitRows)),
			ll: make([]float64, logitCols), grad: make([]float64, p*logitCols)}
	}}
	eval := func(x []float64, ns int, w0, w1, g0, g1 []float64) {
		s := pool.Get().(*logitScratch)
		defer pool.Put(s)
		for j := 0; j < ns; j++ {
			ss := 0.0
			for k := 0; k < p; k++ {
				v := x[k*ns+j]
				ss += v * v
				if g0 != nil {
					g0[k*ns+j] = -prec * v
				}
			}
			w0[j] = -prec * ss / 2
		}
		for j0 := 0; j0 < ns; j0 += logitCols {
			w := min(logitCols, ns-j0)
			d.tile(s, xt, x[j0:], ns, w, g1 != nil)
			for j := 0; j < w; j++ {
				w1[j0+j] = w0[j0+j] + s.ll[j]
				for k := 0; g1 != nil && k < p; k++ {
					g1[k*ns+j0+j] = g0[k*ns+j0+j] + s.grad[j*p+k]
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

// tile sets s.ll[:w] (and with grad, s.grad, w × p) for the w states whose
// coordinate k is at b[k*ldb+j], over every observation; xt is Xᵀ.
func (d *LogisticData) tile(s *logitScratch, xt, b []float64, ldb, w int, grad bool) {
	p, n := d.NumCoefs(), d.NumRows()
	ll := s.ll[:w]
	clear(ll)
	if grad {
		clear(s.grad[:w*p])
	}
	impl := gonum.Implementation{}
	for i0 := 0; i0 < n; i0 += logitRows {
		rows := min(logitRows, n-i0)
		ld := (rows + layout.Lanes - 1) / layout.Lanes * layout.Lanes // the tile's row stride
		m := w * ld
		impl.Dgemm(blas.Trans, blas.NoTrans, w, rows, p, 1, b, ldb, xt[i0:], n, 0, s.eta, ld)
		var resid []float64
		if grad {
			resid = s.resid[:m]
		}
		kernel.LogitSums(ll, resid, s.eta[:m], d.Y[i0:i0+rows], ld, s.k)
		if grad {
			impl.Dgemm(blas.NoTrans, blas.Trans, w, p, rows, 1, resid, ld, xt[i0:], n, 1, s.grad, p)
		}
	}
}
