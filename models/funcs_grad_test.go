package models

import (
	"errors"
	"strings"
	"testing"
)

// gaussFuncs is reference N(0, I) and target N(1, I/4) in dim
// coordinates, with their exact gradients −x and −4(x − 1).
func gaussFuncs(dim int) Funcs {
	return Funcs{
		Dim:          dim,
		LogReference: StdNormalLog, SampleReference: StdNormalDraw, GradLogReference: StdNormalGrad,
		LogTarget: func(x []float64) float64 {
			s := 0.0
			for _, v := range x {
				s -= 2 * (v - 1) * (v - 1)
			}
			return s
		},
		GradLogTarget: func(x, g []float64) {
			for d, v := range x {
				g[d] = -4 * (v - 1)
			}
		},
	}
}

// TestGradientCheck accepts exact gradients and refuses one with an error
// in a single coordinate (coordinate 2 of GradLogTarget off by a factor
// 1.01, a relative error of 0.01 against the tolerance 1e-4), naming the
// function and the coordinate.
func TestGradientCheck(t *testing.T) {
	if _, err := FromFuncs(gaussFuncs(5), MALA{}); err != nil {
		t.Fatalf("exact gradients refused: %v", err)
	}
	f := gaussFuncs(5)
	good := f.GradLogTarget
	f.GradLogTarget = func(x, g []float64) {
		good(x, g)
		g[2] *= 1.01
	}
	_, err := FromFuncs(f, MALA{})
	if !errors.Is(err, ErrGradient) || !strings.Contains(err.Error(), "GradLogTarget's coordinate 2") {
		t.Errorf("wrong gradient: %v, want ErrGradient naming GradLogTarget's coordinate 2", err)
	}
	f = gaussFuncs(5)
	f.GradLogReference = func([]float64, []float64) { panic("grad bug") }
	if _, err := FromFuncs(f, MALA{}); !errors.Is(err, ErrPanic) || !strings.Contains(err.Error(), "GradLogReference") {
		t.Errorf("panicking gradient: %v, want ErrPanic naming GradLogReference", err)
	}
	f = gaussFuncs(5)
	f.GradLogReference, f.GradLogTarget = nil, nil
	if _, err := FromFuncs(f, MALA{}); err == nil || !strings.Contains(err.Error(), "needs gradients") {
		t.Errorf("MALA without gradients: %v, want a refusal", err)
	}
}
