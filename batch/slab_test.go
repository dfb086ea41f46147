package batch

import (
	"math"
	"testing"
	"unsafe"

	"github.com/ptbatch/ptbatch/layout"
	"github.com/ptbatch/ptbatch/models"
)

// TestSlab checks that a slab hands out aligned, zeroed, capped slices
// that do not overlap, and panics when asked for more than it holds.
func TestSlab(t *testing.T) {
	lens := []int{3, 8, 17, 1, 24}
	total := 0
	for _, n := range lens {
		total += slabLen(n)
	}
	sl := newSlab(total)
	var got [][]float64
	for _, n := range lens {
		s := sl.take(n)
		if a := uintptr(unsafe.Pointer(&s[0])) % layout.Align; len(s) != n || cap(s) != n || a != 0 {
			t.Fatalf("take(%d): len %d cap %d, %d bytes past a %d-byte boundary", n, len(s), cap(s), a, layout.Align)
		}
		for i := range s {
			if s[i] != 0 {
				t.Fatalf("take(%d)[%d] = %g, want 0", n, i, s[i])
			}
			s[i] = float64(len(got) + 1)
		}
		got = append(got, s)
	}
	for k, s := range got {
		for i, v := range s {
			if v != float64(k+1) {
				t.Fatalf("slice %d [%d] = %g: overwritten by another slice", k, i, v)
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("take past the slab's end did not panic")
		}
	}()
	sl.take(1)
}

// TestCarve checks that carve's slices have the asked length and capacity
// and that an append past the capacity leaves the next slice alone.
func TestCarve(t *testing.T) {
	var dst [3][]int
	carve(dst[:], 2, 4)
	for i, s := range dst {
		if len(s) != 2 || cap(s) != 4 {
			t.Fatalf("slice %d: len %d cap %d, want 2 and 4", i, len(s), cap(s))
		}
	}
	dst[0] = append(dst[0], 1, 2, 3)
	if dst[1][0] != 0 || dst[1][1] != 0 {
		t.Errorf("append to slice 0 wrote into slice 1: %v", dst[1])
	}
}

// TestSetEtaStartMatchesEveryLane checks that a new block's coefficients,
// computed once for lane 0 and copied, are bit for bit those that
// setEtaLanes computes lane by lane, with one leg and two, the paper's
// tuning and the automatic one.
func TestSetEtaStartMatchesEveryLane(t *testing.T) {
	g, _ := models.NewGaussian(1, -1, 1, 0.1, 0.1)
	for _, cfg := range []Config{
		{Model: g, Chains: 50, Replicates: 8, Iterations: 10, Scans: 1, Knots: 1},
		{Model: g, Chains: 13, Replicates: 5, Iterations: 10, Scans: 1, Knots: 4, TunePath: true, TuneSchedule: true, LearningRate: 0.2},
		{Model: g, Chains: 13, Replicates: 5, Iterations: 40, Scans: 4, Knots: 3, TunePath: true, TuneSchedule: true, Tuning: AutoTuning},
		{Model: walkGaussian(t), Chains: 9, VariationalLeg: 4, Replicates: 3, Iterations: 10, Scans: 1, Knots: 3},
	} {
		b := newBlock(&cfg, 0, cfg.Iterations/cfg.Scans)
		eta0, eta1, epoch := append([]float64(nil), b.x.eta0...), append([]float64(nil), b.x.eta1...), b.x.epoch
		all := [lanes]bool{true, true, true, true, true, true, true, true}
		b.x.setEtaLanes(&b.tuner, &all)
		for i := range eta0 {
			if math.Float64bits(eta0[i]) != math.Float64bits(b.x.eta0[i]) || math.Float64bits(eta1[i]) != math.Float64bits(b.x.eta1[i]) {
				t.Fatalf("chains %d, legs %d: row %d lane %d: start (%g, %g), every lane (%g, %g)",
					cfg.Chains, cfg.VariationalLeg, i/lanes, i%lanes, eta0[i], eta1[i], b.x.eta0[i], b.x.eta1[i])
			}
		}
		if epoch != 1 || b.x.epoch != 2 {
			t.Errorf("chains %d: epoch %d after the start, %d after setEtaLanes; want 1 and 2", cfg.Chains, epoch, b.x.epoch)
		}
	}
}
