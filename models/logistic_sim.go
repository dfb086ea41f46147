package models

import (
	"math"
	"strconv"

	"github.com/ptbatch/ptbatch/kernel"
)

// SimulateLogistic returns n observations of a logistic regression with
// an intercept and d standard normal covariates "x1" … "xd", from seed:
// the true coefficients are β_0 = −0.5 (the intercept) and β_k =
// (−1)^k·(1 + k/d)·2/√d (effects of alternating sign whose combined
// predictor has standard deviation about 3, so that the data inform every
// coefficient without separating the classes). It is the data of
// examples/logistic and of `ptbatch bench --model logistic`.
func SimulateLogistic(n, d int, seed uint64) *LogisticData {
	rng := kernel.NewStream(seed, 0).Lane(0)
	beta := SimulatedLogisticCoefs(d)
	data := &LogisticData{Names: []string{"intercept"}}
	for k := 1; k <= d; k++ {
		data.Names = append(data.Names, "x"+strconv.Itoa(k))
	}
	for i := 0; i < n; i++ {
		eta := beta[0]
		data.X = append(data.X, 1)
		for k := 1; k <= d; k++ {
			x := math.Round(kernel.Normal(rng)*1e4) / 1e4 // 4 decimals, as the CSV writes them
			data.X = append(data.X, x)
			eta += beta[k] * x
		}
		y := 0.0
		if rng.Uniform() < 1/(1+math.Exp(-eta)) {
			y = 1
		}
		data.Y = append(data.Y, y)
	}
	return data
}

// SimulatedLogisticCoefs returns the true coefficients of
// SimulateLogistic with d covariates, the intercept first.
func SimulatedLogisticCoefs(d int) []float64 {
	beta := []float64{-0.5}
	for k := 1; k <= d; k++ {
		b := (1 + float64(k)/float64(d)) * 2 / math.Sqrt(float64(d))
		if k%2 == 1 {
			b = -b
		}
		beta = append(beta, b)
	}
	return beta
}
