package asm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// bookValue draws an energy-like value, now and then a special one.
func bookValue(rng *rand.Rand) float64 {
	special := []float64{0, math.Copysign(0, -1), math.NaN(), -math.NaN(), math.Float64frombits(0x7ff8dead0000beef),
		math.Inf(1), math.Inf(-1), 1e300, -1e300, 5e-324}
	if rng.IntN(12) == 0 {
		return special[rng.IntN(len(special))]
	}
	return math.Ldexp(rng.NormFloat64(), rng.IntN(40)-20)
}

func TestMomentsAddMatchesGeneric(t *testing.T) {
	forEachImpl(t, func(t *testing.T, im Impl) {
		rng := rand.New(rand.NewPCG(21, 22))
		for rows := 0; rows <= 40; rows++ {
			n := rows * lanes
			in := make([][]float64, 4) // w0, w1, shift0, shift1
			for k := range in {
				in[k] = make([]float64, n)
				for i := range in[k] {
					in[k][i] = bookValue(rng)
				}
			}
			sums := make([][]float64, 5)
			guards := make([][]float64, 5)
			want := make([][]float64, 5)
			for k := range sums {
				sums[k], guards[k] = guarded(n)
				want[k] = make([]float64, n)
				for i := range sums[k] {
					sums[k][i] = bookValue(rng)
					want[k][i] = sums[k][i]
				}
			}
			im.MomentsAdd(sums[0], sums[1], in[0], in[1], in[2], in[3])
			MomentsAddGeneric(want[0], want[1], in[0], in[1], in[2], in[3])
			for k := 0; k < 2; k++ {
				checkGuard(t, guards[k])
				sameBitsOrNaN(t, fmt.Sprintf("rows=%d: MomentsAdd sum%d", rows, k), sums[k], want[k])
			}
			im.MomentsAddSq(sums[0], sums[1], sums[2], sums[3], sums[4], in[0], in[1], in[2], in[3])
			MomentsAddSqGeneric(want[0], want[1], want[2], want[3], want[4], in[0], in[1], in[2], in[3])
			for k := range sums {
				checkGuard(t, guards[k])
				sameBitsOrNaN(t, fmt.Sprintf("rows=%d: MomentsAddSq output %d", rows, k), sums[k], want[k])
			}
		}
	})
}

// sameBitsOrNaN is sameBits with every NaN equal to every other: of two NaN
// operands x86 returns the first's payload, and the Go compiler orders the
// commutative additions of the moment twins by register allocation (see
// kernel.FuzzBookKernels), so only the NaN-ness of a sum is specified.
func sameBitsOrNaN(t *testing.T, what string, got, want []float64) {
	t.Helper()
	for i := range want {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) && !(math.IsNaN(got[i]) && math.IsNaN(want[i])) {
			t.Fatalf("%s[%d] = %v (%#x), generic %v (%#x)", what, i, got[i], math.Float64bits(got[i]), want[i], math.Float64bits(want[i]))
		}
	}
}

// TestMomentsAddSqRoundsEachProduct checks the generic twin's operation
// order on a case where a fused multiply-add would differ: d0 = 1+2⁻³⁰,
// whose square 1+2⁻²⁹+2⁻⁶⁰ rounds to 1+2⁻²⁹ before it is added to
// -(1+2⁻²⁹), giving exactly 0 (a fused d0·d0 + s gives 2⁻⁶⁰).
func TestMomentsAddSqRoundsEachProduct(t *testing.T) {
	forEachImpl(t, func(t *testing.T, im Impl) {
		w := make([]float64, lanes)
		zero := make([]float64, lanes)
		s0, s1, q00, q01, q11 := make([]float64, lanes), make([]float64, lanes), make([]float64, lanes), make([]float64, lanes), make([]float64, lanes)
		for j := range w {
			w[j] = 1 + 0x1p-30
			q00[j] = -(1 + 0x1p-29)
		}
		im.MomentsAddSq(s0, s1, q00, q01, q11, w, zero, zero, zero)
		for j := range w {
			if q00[j] != 0 || s0[j] != w[j] || q01[j] != 0 || q11[j] != 0 || s1[j] != 0 {
				t.Fatalf("lane %d: sum0 %v sq00 %v sq01 %v sq11 %v sum1 %v, want %v 0 0 0 0", j, s0[j], q00[j], q01[j], q11[j], s1[j], w[j])
			}
		}
	})
}

// swapApplyPlain is the communication step's swaps as the engine wrote them
// before SwapApply, lane by lane and pair by pair.
func swapApplyPlain(w0, w1 []float64, rep []int32, alpha, u []float64, from int) {
	c := len(w0) / lanes
	for j := 0; j < lanes; j++ {
		for n := from; n < c-1; n += 2 {
			i := n*lanes + j
			if u[(n/2)*lanes+j] <= alpha[i] {
				k := i + lanes
				w0[i], w0[k] = w0[k], w0[i]
				w1[i], w1[k] = w1[k], w1[i]
				rep[i], rep[k] = rep[k], rep[i]
			}
		}
	}
}

func TestSwapApplyMatchesGeneric(t *testing.T) {
	forEachImpl(t, func(t *testing.T, im Impl) {
		rng := rand.New(rand.NewPCG(23, 24))
		for c := 1; c <= 41; c++ {
			for from := 0; from <= 1; from++ {
				n := c * lanes
				w0, g0 := guarded(n)
				w1, g1 := guarded(n)
				repBuf := make([]int32, n+2*lanes)
				for i := range repBuf {
					repBuf[i] = -7
				}
				rep := repBuf[:n]
				alpha := make([]float64, (c-1)*lanes)
				u := make([]float64, c/2*lanes)
				for i := range w0 {
					w0[i], w1[i], rep[i] = bookValue(rng), bookValue(rng), int32(rng.IntN(1<<20))
				}
				for i := range alpha {
					alpha[i] = rng.Float64()
					if rng.IntN(10) == 0 {
						alpha[i] = []float64{0, 1, math.NaN()}[rng.IntN(3)]
					}
				}
				for i := range u {
					u[i] = rng.Float64()
					if rng.IntN(20) == 0 {
						u[i] = math.NaN()
					}
				}
				r0, r1, rr := append([]float64(nil), w0...), append([]float64(nil), w1...), append([]int32(nil), rep...)
				p0, p1, pr := append([]float64(nil), w0...), append([]float64(nil), w1...), append([]int32(nil), rep...)
				im.SwapApply(w0, w1, rep, alpha, u, from)
				SwapApplyGeneric(r0, r1, rr, alpha, u, from)
				swapApplyPlain(p0, p1, pr, alpha, u, from)
				what := fmt.Sprintf("chains=%d from=%d", c, from)
				checkGuard(t, g0)
				checkGuard(t, g1)
				for _, v := range repBuf[n:] {
					if v != -7 {
						t.Fatalf("%s: SwapApply wrote past rep", what)
					}
				}
				sameBits(t, what+": w0", w0, r0)
				sameBits(t, what+": w1", w1, r1)
				sameBits(t, what+": generic w0 against the plain loop", r0, p0)
				sameBits(t, what+": generic w1 against the plain loop", r1, p1)
				for i := range rep {
					if rep[i] != rr[i] || rr[i] != pr[i] {
						t.Fatalf("%s: rep[%d] = %d, generic %d, plain %d", what, i, rep[i], rr[i], pr[i])
					}
				}
			}
		}
	})
}
