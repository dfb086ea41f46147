package models

import (
	"fmt"
	"math"
	"strconv"
)

// Limits of NewFunnel's scale: below MinFunnelScale the funnel is a
// point; above MaxFunnelScale, e^{−v} overflows float64 within a few
// standard deviations of v (e^{709} is the largest).
const (
	MinFunnelScale = 1e-3
	MaxFunnelScale = 50.0
)

// NewFunnel returns Neal's funnel (Neal, Slice sampling, Ann. Statist.
// 31(3), 2003, §8) in dim ≥ 2 coordinates, explored by ex: v ~ N(0,
// scale²) and x_i | v ~ N(0, e^v) for i = 1 … dim−1, so that v's marginal
// is exactly N(0, scale²), and the neck (v ≪ 0, where the x_i have
// standard deviation e^{v/2}) is what a fixed-step explorer cannot enter.
// The reference is N(0, I); the model has gradients, so every explorer
// fits. Its observables are "v", "x1", ….
func NewFunnel(dim int, scale float64, ex Explorer) (Model, error) {
	if dim < 2 {
		return nil, fmt.Errorf("models: the funnel needs dimension at least 2 (v and one x), got %d", dim)
	}
	if !(scale >= MinFunnelScale && scale <= MaxFunnelScale) {
		return nil, fmt.Errorf("models: the funnel's scale must be in [%g, %g], got %g", MinFunnelScale, MaxFunnelScale, scale)
	}
	names := []string{"v"}
	for i := 1; i < dim; i++ {
		names = append(names, "x"+strconv.Itoa(i))
	}
	m, err := FromFuncs(Funcs{
		Dim: dim, Names: names,
		LogReference: StdNormalLog, SampleReference: StdNormalDraw, GradLogReference: StdNormalGrad,
		LogTarget:     func(x []float64) float64 { return funnelLog(x, scale) },
		GradLogTarget: func(x, g []float64) { funnelGrad(x, g, scale) },
	}, ex)
	if err != nil {
		return nil, err
	}
	return &funnelModel{funcsModel: m.(*funcsModel), scale: scale}, nil
}

// funnelLog is log N(v; 0, scale²) + Σ log N(x_i; 0, e^v), up to the
// 2π terms.
func funnelLog(x []float64, scale float64) float64 {
	v := x[0]
	e := math.Exp(-v)
	s := -v * v / (2 * scale * scale)
	for _, xi := range x[1:] {
		s -= xi*xi*e/2 + v/2
	}
	return s
}

// funnelGrad writes funnelLog's gradient: ∂v = −v/scale² +
// Σ (x_i² e^{−v} − 1)/2, ∂x_i = −x_i e^{−v}.
func funnelGrad(x, g []float64, scale float64) {
	v := x[0]
	e := math.Exp(-v)
	g[0] = -v / (scale * scale)
	for i, xi := range x[1:] {
		g[0] += (xi*xi*e - 1) / 2
		g[i+1] = -xi * e
	}
}

func sumSquares(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v * v
	}
	return s
}

// funnelModel is the funnel: a FromFuncs model with a name and a
// description of its own.
type funnelModel struct {
	*funcsModel
	scale float64
}

// Name returns "funnel".
func (m *funnelModel) Name() string { return "funnel" }

// Description returns "funnel dim=… scale=… explorer=…".
func (m *funnelModel) Description() string {
	return fmt.Sprintf("funnel dim=%d scale=%s explorer=%s", m.f.Dim, fmtFloat(m.scale), describeExplorer(m.ex))
}

var _ Described = (*funnelModel)(nil)
