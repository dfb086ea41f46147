package kernel

import (
	"fmt"
	"math"
	"testing"

	"github.com/ptbatch/ptbatch/layout"
)

const L = layout.Lanes

// forEachImpl runs f under every implementation this CPU and build offer.
func forEachImpl(t testing.TB, f func(name string)) {
	for _, name := range Impls() {
		restore, err := SetImpl(name)
		if err != nil {
			t.Fatal(err)
		}
		f(name)
		restore()
	}
}

// draws runs a fixed mixture of fills on a fresh stream and returns every
// number drawn, including odd last rows of Normal.
func draws() []float64 {
	s := NewStream(99, 40)
	var all []float64
	for _, rows := range []int{1, 2, 3, 7, 16, 33, 128} {
		u := make([]float64, rows*L)
		s.Uniform(u)
		z := make([]float64, rows*L)
		s.Normal(z)
		all = append(append(all, u...), z...)
	}
	return all
}

// TestStreamDrawsIdenticalUnderEveryImpl checks that the assembly tiers
// and the generic code draw the same numbers bit for bit.
func TestStreamDrawsIdenticalUnderEveryImpl(t *testing.T) {
	restore, _ := SetImpl("generic")
	want := draws()
	restore()
	forEachImpl(t, func(name string) {
		got := draws()
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("impl %s: draw %d = %v, generic %v", name, i, got[i], want[i])
			}
		}
	})
}

// TestLaneDrawsMatchBatchedFills checks the scalar view of a lane
// (Lane.Uniform, Normals, LaneNormal) against the batched fills, for even
// and odd numbers of normal rows.
func TestLaneDrawsMatchBatchedFills(t *testing.T) {
	forEachImpl(t, func(name string) {
		for _, rows := range []int{1, 2, 5, 10} {
			s := NewStream(5, 3)
			ref := NewStream(5, 3)
			u := make([]float64, rows*L)
			z := make([]float64, rows*L)
			odd := make([]float64, L)
			s.Uniform(u)
			s.Normal(z)
			s.Normal(odd) // one odd row: the cosine half of a pair
			for j := 0; j < L; j++ {
				lane := ref.Lane(j)
				for r := 0; r < rows; r++ {
					if got := lane.Uniform(); got != u[r*L+j] {
						t.Fatalf("%s rows %d lane %d: Uniform %v, batched %v", name, rows, j, got, u[r*L+j])
					}
				}
				zs := Normals(lane, rows)
				for r := range zs {
					if zs[r] != z[r*L+j] {
						t.Fatalf("%s rows %d lane %d row %d: Normals %v, batched %v", name, rows, j, r, zs[r], z[r*L+j])
					}
				}
				if got := ref.LaneNormal(j); got != odd[j] {
					t.Fatalf("%s rows %d lane %d: LaneNormal %v, batched odd row %v", name, rows, j, got, odd[j])
				}
			}
		}
	})
}

// TestNormalMoments checks the Box–Muller normals against N(0, 1): with
// n = 2^20 draws the standard errors are 1/√n ≈ 0.001 for the mean,
// √(2/n) ≈ 0.0014 for the variance, √(24/n) ≈ 0.0048 for the fourth
// moment (3), and √(p(1-p)/n) ≈ 5.1e-5 for p = P(|Z| > 3) = 0.0026998
// (erfc(3/√2)); each is allowed 5 standard errors.
func TestNormalMoments(t *testing.T) {
	const n = 1 << 20
	z := make([]float64, n)
	NewStream(2024, 0).Normal(z)
	var m1, m2, m4, tail float64
	for _, v := range z {
		m1 += v
		m2 += v * v
		m4 += v * v * v * v
		if math.Abs(v) > 3 {
			tail++
		}
	}
	m1, m2, m4, tail = m1/n, m2/n, m4/n, tail/n
	p := math.Erfc(3 / math.Sqrt2)
	for _, c := range []struct {
		what      string
		got, want float64
		se        float64
	}{
		{"mean", m1, 0, 1 / math.Sqrt(n)},
		{"variance", m2, 1, math.Sqrt(2.0 / n)},
		{"fourth moment", m4, 3, math.Sqrt(96.0 / n)},
		{"P(|Z|>3)", tail, p, math.Sqrt(p * (1 - p) / n)},
	} {
		if math.Abs(c.got-c.want) > 5*c.se {
			t.Errorf("%s = %v, want %v ± %v (5 standard errors)", c.what, c.got, c.want, 5*c.se)
		}
	}
}

func TestSetImplRejectsUnknown(t *testing.T) {
	if _, err := SetImpl("avx1024"); err == nil {
		t.Error("SetImpl accepted an unknown implementation")
	}
	if Impls()[len(Impls())-1] != "generic" {
		t.Errorf("Impls() = %v, want generic last", Impls())
	}
}

// perElement reports ns/element for n elements per iteration.
func perElement(b *testing.B, n int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/(float64(b.N)*float64(n)), "ns/element")
}

func benchImpls(b *testing.B, f func(b *testing.B)) {
	for _, name := range Impls() {
		b.Run("impl="+name, func(b *testing.B) {
			restore, err := SetImpl(name)
			if err != nil {
				b.Fatal(err)
			}
			defer restore()
			f(b)
		})
	}
}

func BenchmarkUniform(b *testing.B) { benchFill(b, (*Stream).Uniform) }

func BenchmarkNormal(b *testing.B) { benchFill(b, (*Stream).Normal) }

// benchFill times fill on 4096 values under every implementation.
func benchFill(b *testing.B, fill func(*Stream, []float64)) {
	benchImpls(b, func(b *testing.B) {
		const n = 4096
		s := NewStream(1, 0)
		dst := layout.Float64s(n)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for b.Loop() {
				fill(s, dst)
			}
			perElement(b, n)
		})
	})
}

// BenchmarkGaussEnergy: elements are rows × lanes × dim coordinates.
func BenchmarkGaussEnergy(b *testing.B) {
	benchImpls(b, func(b *testing.B) {
		const rows, dim = 2, 256
		n := rows * L
		m, s, w0, w1, first := layout.Float64s(n), layout.Float64s(n), layout.Float64s(n), layout.Float64s(n), layout.Float64s(n)
		z := layout.Float64s(n * dim)
		NewStream(1, 0).Normal(z)
		for i := range s {
			s[i] = 0.1
		}
		b.Run(fmt.Sprintf("rows=%d/dim=%d", rows, dim), func(b *testing.B) {
			for b.Loop() {
				GaussEnergy(w0, w1, first, m, s, z, dim, -1, 1, 50, 50)
			}
			perElement(b, n*dim)
		})
	})
}

// BenchmarkSwapAlpha: elements are pairs × lanes swap decisions.
func BenchmarkSwapAlpha(b *testing.B) {
	benchImpls(b, func(b *testing.B) {
		const chains = 240
		n := (chains - 1) * L
		alpha, rej := layout.Float64s(n), layout.Float64s(n)
		eta0, eta1, w0, w1 := layout.Float64s(n+L), layout.Float64s(n+L), layout.Float64s(n+L), layout.Float64s(n+L)
		u := layout.Float64s(n + L)
		NewStream(3, 0).Uniform(u)
		for i := range eta0 {
			c := float64(i/L) / (chains - 1)
			eta0[i], eta1[i] = 1-c, c
			w0[i], w1[i] = -300*u[i], -300*u[(i+L)%len(u)]
		}
		b.Run(fmt.Sprintf("chains=%d", chains), func(b *testing.B) {
			for b.Loop() {
				SwapAlpha(alpha, rej, eta0, eta1, w0, w1)
			}
			perElement(b, n)
		})
	})
}

// TestStreamLanesMatchNewStream checks that lane j of NewStreamLanes draws
// what replicate replicates[j]'s lane of NewStream draws: uniforms and
// normals, batched, for replicates out of order and repeated.
func TestStreamLanesMatchNewStream(t *testing.T) {
	reps := [layout.Lanes]int{9, 8, 0, 17, 3, 9, 100, 1}
	s := NewStreamLanes(42, &reps)
	lone := make([]*Stream, layout.Lanes)
	for j, r := range reps {
		lone[j] = NewStream(42, r-r%layout.Lanes)
	}
	for round := 0; round < 3; round++ {
		got := make([]float64, 5*layout.Lanes)
		if round == 1 {
			s.Normal(got)
		} else {
			s.Uniform(got)
		}
		for j, r := range reps {
			want := make([]float64, 5*layout.Lanes)
			if round == 1 {
				lone[j].Normal(want)
			} else {
				lone[j].Uniform(want)
			}
			for k := 0; k < 5; k++ {
				if g, w := got[k*layout.Lanes+j], want[k*layout.Lanes+r%layout.Lanes]; g != w {
					t.Fatalf("round %d, lane %d (replicate %d), row %d: %v, want %v", round, j, r, k, g, w)
				}
			}
		}
	}
}
