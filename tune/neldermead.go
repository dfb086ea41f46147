package tune

import (
	"math"
	"sort"
)

// nelderMead minimises f from x0 with the Nelder–Mead simplex method, with
// the dimension-dependent coefficients of Gao and Han (2012), as gonum's
// optimize.NelderMead uses: reflection 1, expansion 1 + 2/n, contraction
// 3/4 - 1/(2n), shrink 1 - 1/n. The initial simplex is x0 and x0 + size·e_i.
// It stops when the spread of the simplex values falls below
// ftol·(|f_best| + 1e-300) or after maxEval evaluations, and returns the
// best vertex and its value. (gonum/optimize is not used: it pulls in
// golang.org/x/tools through stat/distmv, which the module's go.sum lacks.)
func nelderMead(f func([]float64) float64, x0 []float64, size, ftol float64, maxEval int) ([]float64, float64) {
	n := len(x0)
	if n == 0 {
		return nil, f(x0)
	}
	nf := float64(n)
	expand, contract, shrink := 1+2/nf, 0.75-1/(2*nf), 1-1/nf
	verts := make([][]float64, n+1)
	vals := make([]float64, n+1)
	for i := range verts {
		verts[i] = append([]float64(nil), x0...)
		if i > 0 {
			verts[i][i-1] += size
		}
		vals[i] = f(verts[i])
	}
	evals := n + 1
	order := make([]int, n+1)
	centroid := make([]float64, n)
	trial := func(t float64) []float64 { // centroid + t (centroid - worst)
		x := make([]float64, n)
		w := verts[order[n]]
		for j := range x {
			x[j] = centroid[j] + t*(centroid[j]-w[j])
		}
		return x
	}
	for evals < maxEval {
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(a, b int) bool { return vals[order[a]] < vals[order[b]] })
		best, worst := vals[order[0]], vals[order[n]]
		if worst-best <= ftol*(math.Abs(best)+1e-300) {
			break
		}
		clear(centroid)
		for _, i := range order[:n] {
			for j, v := range verts[i] {
				centroid[j] += v / nf
			}
		}
		wi := order[n]
		second := vals[order[n-1]]
		xr := trial(1)
		fr := f(xr)
		evals++
		switch {
		case fr < best:
			xe := trial(expand)
			fe := f(xe)
			evals++
			if fe < fr {
				verts[wi], vals[wi] = xe, fe
			} else {
				verts[wi], vals[wi] = xr, fr
			}
		case fr < second:
			verts[wi], vals[wi] = xr, fr
		default:
			var xc []float64
			if fr < worst {
				xc = trial(contract) // outside contraction
			} else {
				xc = trial(-contract) // inside contraction
			}
			fc := f(xc)
			evals++
			if fc < math.Min(fr, worst) {
				verts[wi], vals[wi] = xc, fc
				break
			}
			b := verts[order[0]]
			for _, i := range order[1:] {
				for j := range verts[i] {
					verts[i][j] = b[j] + shrink*(verts[i][j]-b[j])
				}
				vals[i] = f(verts[i])
				evals++
			}
		}
	}
	bi := 0
	for i := range vals {
		if vals[i] < vals[bi] {
			bi = i
		}
	}
	return verts[bi], vals[bi]
}
