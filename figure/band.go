package figure

import "github.com/ptbatch/ptbatch/batch"

// Band returns the series of the mean over rows of ys at each x, with a
// band of one standard deviation (n-1 in the denominator) either side;
// there is no band for a single row.
func Band(name string, xs []float64, ys [][]float64) Series {
	s := Series{Name: name, Xs: xs, Ys: make([]float64, len(xs))}
	if len(ys) > 1 {
		s.Lo, s.Hi = make([]float64, len(xs)), make([]float64, len(xs))
	}
	col := make([]float64, len(ys))
	for i := range xs {
		for b, y := range ys {
			col[b] = y[i]
		}
		mean, sd := batch.MeanSD(col)
		s.Ys[i] = mean
		if s.Lo != nil {
			s.Lo[i], s.Hi[i] = mean-sd, mean+sd
		}
	}
	return s
}
