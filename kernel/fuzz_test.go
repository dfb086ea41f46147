package kernel

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"testing"

	"github.com/ptbatch/ptbatch/asm"
)

// Differential fuzzing of the checked layer against the generic twins of
// package asm, as klauspost/compress fuzzes its assembly against plain Go:
// every implementation Impls offers (the dispatched assembly tiers and
// "generic") must give bit for bit what the twin gives, write nothing past
// the lengths it was given, and refuse bad lengths with the constant panic
// message before any kernel runs. The seed corpus (the f.Add calls and
// testdata/fuzz/FuzzXxx) runs under plain go test; fuzz with
//
//	go test ./kernel -run '^$' -fuzz '^FuzzGaussEnergy$' -fuzztime 60s

// specials are the values the decoder of mode 2 picks from: signed zeros,
// NaNs (quiet, negative, with a payload), infinities, the extremes of the
// normal and subnormal ranges, the edges of asm.ExpNonPos's domain, and
// ordinary numbers.
var specials = []float64{
	0, math.Copysign(0, -1), math.NaN(), -math.NaN(), math.Float64frombits(0x7ff8dead0000beef),
	math.Float64frombits(0x7ff0000000000001), // a signalling NaN
	math.Inf(1), math.Inf(-1), math.MaxFloat64, -math.MaxFloat64,
	math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, 0x1p-1022, 1e-310, -1e-310,
	asm.ExpMin, math.Nextafter(asm.ExpMin, math.Inf(-1)), -745.2, -708.4, 709.8,
	1, -1, 0.5, 2, 1e300, -1e300, 1e-300, 1e154, -1e154,
}

// decode turns fuzz bytes into n float64 values, reading data cyclically
// (zeros when it is empty). mode%3 chooses the decoding: 0 takes 8 bytes
// as the IEEE 754 bits (any value, NaN payloads included); 1 takes 2 bytes
// as an int16 divided by 64 (moderate values in ±512, where energies and
// log acceptance ratios are interesting); 2 takes one byte, a special when
// it is below len(specials), otherwise the moderate value of two bytes.
func decode(data []byte, n int, mode uint8, pos *int) []float64 {
	x := make([]float64, n)
	if len(data) == 0 {
		return x
	}
	next := func() byte {
		b := data[*pos%len(data)]
		*pos++
		return b
	}
	moderate := func() float64 {
		return float64(int16(uint16(next())|uint16(next())<<8)) / 64
	}
	for i := range x {
		switch mode % 3 {
		case 0:
			var b [8]byte
			for k := range b {
				b[k] = next()
			}
			x[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[:]))
		case 1:
			x[i] = moderate()
		case 2:
			if c := int(next()); c < len(specials) {
				x[i] = specials[c]
			} else {
				x[i] = moderate()
			}
		}
	}
	return x
}

// perturb changes lens[which] as code says (0 leaves it alone; 1 and 2 add
// and remove a value, 3 and 4 a row, 5 empties it) and returns the result.
func perturb(lens []int, code uint8) []int {
	out := append([]int(nil), lens...)
	which := int(code/8) % len(lens)
	switch code % 8 {
	case 1:
		out[which]++
	case 2:
		out[which]--
	case 3:
		out[which] += L
	case 4:
		out[which] -= L
	case 5:
		out[which] = 0
	}
	out[which] = max(out[which], 0)
	return out
}

// guardedCopy returns a slice with the values of x followed, in the same
// array, by L sentinels, and the guard.
func guardedCopy(x []float64) ([]float64, []float64) {
	buf := sentinels(len(x) + L)
	copy(buf, x)
	return buf[:len(x):len(x)], buf[len(x):]
}

func sameFloat64Bits(a, b []float64) (int, bool) {
	if len(a) != len(b) {
		return -1, false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return i, false
		}
	}
	return 0, true
}

// sameBitsOrNaN is sameFloat64Bits with every NaN equal to every other.
func sameBitsOrNaN(a, b []float64) (int, bool) {
	if len(a) != len(b) {
		return -1, false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) && !(math.IsNaN(a[i]) && math.IsNaN(b[i])) {
			return i, false
		}
	}
	return 0, true
}

// eachImpl runs f under every implementation Impls offers and restores
// the one in use.
func eachImpl(t *testing.T, f func(name string)) {
	for _, name := range Impls() {
		restore, err := SetImpl(name)
		if err != nil {
			t.Fatal(err)
		}
		func() {
			defer restore()
			f(name)
		}()
	}
}

// FuzzGaussEnergy checks GaussEnergy under every implementation against
// asm.GaussEnergyGeneric on rows%10 rows of dim coordinates, with one
// length perturbed by code and values decoded from data by mode. A dim
// outside 1..64 gets the z whose length n·dim wraps to (when that is
// small), the adversarial case of issue 13, or an arbitrary short one.
func FuzzGaussEnergy(f *testing.F) {
	f.Add(uint8(1), 1, uint8(0), uint8(1), 0.0, 0.0, 0.5, 0.5, []byte{1, 2, 3, 4})
	f.Add(uint8(3), 5, uint8(0), uint8(1), -1.0, 1.0, 50.0, 50.0, []byte("energies of three rows of five coordinates"))
	f.Add(uint8(2), 17, uint8(0), uint8(2), 0.0, 1.0, 1.0, 2.0, []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 200, 201})
	f.Add(uint8(4), 3, uint8(0), uint8(0), math.NaN(), math.Inf(1), math.Inf(-1), 1e-310, []byte("\x00\x00\x00\x00\x00\x00\xf8\x7f\x01\x00\x00\x00\x00\x00\x00\x00"))
	f.Add(uint8(1), 4611686018427387904, uint8(0), uint8(1), 0.0, 0.0, 1.0, 1.0, []byte{})
	f.Add(uint8(1), 2305843009213693953, uint8(0), uint8(1), 0.0, 0.0, 1.0, 1.0, []byte{})
	f.Add(uint8(1), 0, uint8(0), uint8(1), 0.0, 0.0, 1.0, 1.0, []byte{})
	f.Add(uint8(1), -2305843009213693951, uint8(0), uint8(1), 0.0, 0.0, 1.0, 1.0, []byte{})
	f.Add(uint8(2), 3, uint8(1), uint8(1), 0.0, 0.0, 1.0, 1.0, []byte{7})
	f.Add(uint8(2), 3, uint8(44), uint8(1), 0.0, 0.0, 1.0, 1.0, []byte{7})
	f.Fuzz(func(t *testing.T, rows uint8, dim int, code, mode uint8, mu0, mu1, h0, h1 float64, data []byte) {
		n := int(rows%10) * L
		var lz int
		if dim >= 1 && dim <= 64 {
			lz = n * dim
		} else if w := int(uint(n) * uint(dim)); w >= 0 && w <= 4096 {
			lz = w // what n*dim wraps to
		} else {
			lz = int(uint(dim) % 4096)
		}
		lens := perturb([]int{n, n, n, n, n, lz}, code) // w0, w1, first, m, s, z
		want := ""
		nm := lens[3]
		switch {
		case nm%L != 0 || lens[0] != nm || lens[1] != nm || lens[2] != nm || lens[4] != nm:
			want = errLengths
		case dim < 1:
			want = errDim
		default:
			if hi, lo := bits.Mul64(uint64(nm), uint64(dim)); hi != 0 || lo != uint64(lens[5]) {
				want = errLengths
			}
		}
		pos := 0
		m := decode(data, lens[3], mode, &pos)
		s := decode(data, lens[4], mode, &pos)
		z := decode(data, lens[5], mode, &pos)
		m0, s0, z0 := append([]float64(nil), m...), append([]float64(nil), s...), append([]float64(nil), z...)
		var rw0, rw1, rfirst []float64
		if want == "" {
			rw0, rw1, rfirst = make([]float64, nm), make([]float64, nm), make([]float64, nm)
			asm.GaussEnergyGeneric(rw0, rw1, rfirst, m, s, z, dim, mu0, mu1, h0, h1)
		}
		eachImpl(t, func(name string) {
			what := fmt.Sprintf("%s: lengths %v, dim %d", name, lens, dim)
			w0, g0 := guardedCopy(sentinels(lens[0]))
			w1, g1 := guardedCopy(sentinels(lens[1]))
			first, g2 := guardedCopy(sentinels(lens[2]))
			got := panicMessage(func() { GaussEnergy(w0, w1, first, m, s, z, dim, mu0, mu1, h0, h1) })
			if want != "" {
				if got != want {
					t.Fatalf("%s: panic %v, want %q", what, got, want)
				}
				if !untouched(w0) || !untouched(w1) || !untouched(first) {
					t.Fatalf("%s: refused call wrote its outputs", what)
				}
				return
			}
			if got != nil {
				t.Fatalf("%s: panic %v on valid lengths", what, got)
			}
			if !untouched(g0) || !untouched(g1) || !untouched(g2) {
				t.Fatalf("%s: wrote past the end of an output", what)
			}
			for _, c := range []struct {
				out string
				got []float64
				ref []float64
			}{{"w0", w0, rw0}, {"w1", w1, rw1}, {"first", first, rfirst}, {"m", m, m0}, {"s", s, s0}, {"z", z, z0}} {
				if i, ok := sameFloat64Bits(c.got, c.ref); !ok {
					t.Fatalf("%s: %s[%d] = %v (%#x), generic twin %v (%#x)", what, c.out, i,
						c.got[i], math.Float64bits(c.got[i]), c.ref[i], math.Float64bits(c.ref[i]))
				}
			}
		})
	})
}

// FuzzSwapAlpha checks SwapAlpha under every implementation against
// asm.SwapAlphaGeneric on rows%41 pairs of chains, with one of the six
// lengths perturbed by code and the coefficients, energies and initial
// rejections decoded from data by mode.
func FuzzSwapAlpha(f *testing.F) {
	f.Add(uint8(1), uint8(0), uint8(1), []byte("pair"))
	f.Add(uint8(7), uint8(0), uint8(1), []byte("seven pairs of adjacent chains, one block"))
	f.Add(uint8(3), uint8(0), uint8(2), []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28})
	f.Add(uint8(2), uint8(0), uint8(0), []byte("\x00\x00\x00\x00\x00\x00\xf0\x7f\x00\x00\x00\x00\x00\x00\xf0\xff\x01\x00\x00\x00\x00\x00\x00\x00"))
	f.Add(uint8(0), uint8(0), uint8(1), []byte{})
	f.Add(uint8(2), uint8(17), uint8(1), []byte{9})
	f.Add(uint8(2), uint8(43), uint8(1), []byte{9})
	f.Fuzz(func(t *testing.T, rows, code, mode uint8, data []byte) {
		n := int(rows%41) * L
		lens := perturb([]int{n, n, n + L, n + L, n + L, n + L}, code) // alpha, rej, eta0, eta1, w0, w1
		na := lens[0]
		valid := na%L == 0 && lens[1] == na
		for _, l := range lens[2:] {
			valid = valid && l-L == na
		}
		pos := 0
		rej := decode(data, lens[1], mode, &pos)
		eta0 := decode(data, lens[2], mode, &pos)
		eta1 := decode(data, lens[3], mode, &pos)
		w0 := decode(data, lens[4], mode, &pos)
		w1 := decode(data, lens[5], mode, &pos)
		var ralpha, rrej []float64
		if valid {
			ralpha, rrej = make([]float64, na), append([]float64(nil), rej...)
			asm.SwapAlphaGeneric(ralpha, rrej, eta0, eta1, w0, w1)
		}
		in := [][]float64{eta0, eta1, w0, w1}
		in0 := make([][]float64, len(in))
		for i := range in {
			in0[i] = append([]float64(nil), in[i]...)
		}
		eachImpl(t, func(name string) {
			what := fmt.Sprintf("%s: lengths %v", name, lens)
			alpha, ga := guardedCopy(sentinels(lens[0]))
			r, gr := guardedCopy(rej)
			got := panicMessage(func() { SwapAlpha(alpha, r, eta0, eta1, w0, w1) })
			if !valid {
				if got != errLengths {
					t.Fatalf("%s: panic %v, want %q", what, got, errLengths)
				}
				if !untouched(alpha) {
					t.Fatalf("%s: refused call wrote alpha", what)
				}
				if _, ok := sameFloat64Bits(r, rej); !ok {
					t.Fatalf("%s: refused call wrote rej", what)
				}
				return
			}
			if got != nil {
				t.Fatalf("%s: panic %v on valid lengths", what, got)
			}
			if !untouched(ga) || !untouched(gr) {
				t.Fatalf("%s: wrote past the end of alpha or rej", what)
			}
			if i, ok := sameFloat64Bits(alpha, ralpha); !ok {
				t.Fatalf("%s: alpha[%d] = %v (%#x), generic twin %v (%#x)", what, i, alpha[i], math.Float64bits(alpha[i]), ralpha[i], math.Float64bits(ralpha[i]))
			}
			if i, ok := sameFloat64Bits(r, rrej); !ok {
				t.Fatalf("%s: rej[%d] = %v (%#x), generic twin %v (%#x)", what, i, r[i], math.Float64bits(r[i]), rrej[i], math.Float64bits(rrej[i]))
			}
			for i := range in {
				if _, ok := sameFloat64Bits(in[i], in0[i]); !ok {
					t.Fatalf("%s: input %d changed", what, i)
				}
			}
		})
	})
}

// fillLengths turns fuzz bytes into the lengths of successive fills: an
// even byte b asks for b/2 whole rows (0..127), an odd one for b/2 values,
// which is refused unless a multiple of L.
func fillLengths(fills []byte) []int {
	lens := make([]int, len(fills))
	for i, b := range fills {
		if b%2 == 0 {
			lens[i] = int(b/2) * L
		} else {
			lens[i] = int(b / 2)
		}
	}
	return lens
}

// fuzzState returns the generator state of NewStream(seed, first), its
// words then xored with raw, read cyclically as little-endian uint64 (raw
// may make a lane all zero, a state no seed gives; the kernels must still
// agree on it).
func fuzzState(seed uint64, first int, raw []byte) *Stream {
	s := NewStream(seed, first)
	if len(raw) > 0 {
		for i := range s.state {
			var b [8]byte
			for k := range b {
				b[k] = raw[(8*i+k)%len(raw)]
			}
			s.state[i] ^= binary.LittleEndian.Uint64(b[:])
		}
	}
	return s
}

// fuzzFills runs the fills of lengths fills on the stream of (seed, first,
// raw) under every implementation and compares each with ref, which must
// perform the documented fill with the generic twins on a copy of the
// state (and the buffer of odd rows): the same numbers bit for bit, the
// same state after, nothing written past dst, and bad lengths refused with
// the constant message, drawing nothing.
func fuzzFills(t *testing.T, fill func(*Stream, []float64), ref func(dst []float64, st *[4 * L]uint64, tail *[2 * L]float64), seed uint64, first int, raw, fills []byte) {
	lens := fillLengths(fills)
	eachImpl(t, func(name string) {
		s := fuzzState(seed, first, raw)
		want := *s
		for k, n := range lens {
			what := fmt.Sprintf("%s: fill %d of length %d", name, k, n)
			dst, guard := guardedCopy(sentinels(n))
			got := panicMessage(func() { fill(s, dst) })
			if n%L != 0 {
				if got != errRows {
					t.Fatalf("%s: panic %v, want %q", what, got, errRows)
				}
				if *s != want || !untouched(dst) {
					t.Fatalf("%s: refused fill drew numbers", what)
				}
				continue
			}
			if got != nil {
				t.Fatalf("%s: panic %v", what, got)
			}
			wdst := make([]float64, n)
			ref(wdst, &want.state, &want.tail)
			if !untouched(guard) {
				t.Fatalf("%s: wrote past the end of dst", what)
			}
			if i, ok := sameFloat64Bits(dst, wdst); !ok {
				t.Fatalf("%s: dst[%d] = %v (%#x), generic twin %v (%#x)", what, i, dst[i], math.Float64bits(dst[i]), wdst[i], math.Float64bits(wdst[i]))
			}
			if s.state != want.state {
				t.Fatalf("%s: state differs from the generic twin's", what)
			}
			if _, ok := sameFloat64Bits(s.tail[:], want.tail[:]); !ok {
				t.Fatalf("%s: buffer of odd rows differs from the generic twin's", what)
			}
		}
	})
}

// FuzzUniform checks Stream.Uniform under every implementation against
// asm.XoshiroUniformGeneric over a sequence of fills.
func FuzzUniform(f *testing.F) {
	f.Add(uint64(1), 0, []byte{}, []byte{2, 4, 0, 254})
	f.Add(uint64(99), 40, []byte{}, []byte{2, 1, 4, 15, 6, 17, 14})
	f.Add(uint64(0), -8, []byte{0xff}, []byte{66, 3, 128})
	f.Add(uint64(7), 1<<40, []byte("all ones and more"), []byte{32, 32, 32})
	f.Fuzz(func(t *testing.T, seed uint64, first int, raw, fills []byte) {
		fuzzFills(t, (*Stream).Uniform, func(dst []float64, st *[4 * L]uint64, _ *[2 * L]float64) {
			asm.XoshiroUniformGeneric(dst, st)
		}, seed, first, raw, fills)
	})
}

// FuzzNormal checks Stream.Normal under every implementation against the
// fill its doc comment gives in terms of asm.XoshiroNormalGeneric: the
// whole pairs of rows, then, for an odd last row, a pair into the buffer
// of odd rows whose cosine half is copied out.
func FuzzNormal(f *testing.F) {
	f.Add(uint64(1), 0, []byte{}, []byte{2, 4, 0, 254})
	f.Add(uint64(5), 3, []byte{}, []byte{2, 1, 6, 9, 20, 2, 2})
	f.Add(uint64(0), -8, []byte{0xff}, []byte{66, 3, 130})
	f.Add(uint64(2024), 0, []byte("\x00\x00\x00\x00\x00\x00\x00\x00"), []byte{14, 14, 16})
	f.Fuzz(func(t *testing.T, seed uint64, first int, raw, fills []byte) {
		fuzzFills(t, (*Stream).Normal, func(dst []float64, st *[4 * L]uint64, tail *[2 * L]float64) {
			even := len(dst) - len(dst)%(2*L)
			asm.XoshiroNormalGeneric(dst[:even], st)
			if even < len(dst) {
				asm.XoshiroNormalGeneric(tail[:], st)
				copy(dst[even:], tail[:L])
			}
		}, seed, first, raw, fills)
	})
}

// FuzzBookKernels checks the engine's bookkeeping kernels under every
// implementation against their generic twins, on rows%41 chains of values
// decoded from data by mode: MomentsAdd and MomentsAddSq on sums that
// start from decoded values, and SwapApply with decoded acceptances and
// uniforms (NaN among them) for both parities, its replicas a
// permutation. Nothing may be written past the slices.
//
// The moment sums must agree bit for bit except in the payload of a NaN:
// when both operands of an addition are NaN, x86 returns the first
// operand's, and for the twin's sum[i] + d the Go compiler picks the order
// of the commutative ADDSD by register allocation (sum first in
// MomentsAddSqGeneric, d first in MomentsAddGeneric, as go1.26 compiles
// them), so no fixed operand order in the assembly matches it everywhere.
// A NaN sum is NaN whatever its payload wherever the engine uses it. The
// swaps move values without arithmetic and must agree bit for bit.
func FuzzBookKernels(f *testing.F) {
	f.Add(uint8(1), uint8(1), []byte("one chain"))
	f.Add(uint8(7), uint8(1), []byte("seven chains of one block, moderate values"))
	f.Add(uint8(50), uint8(2), []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 200, 201})
	f.Add(uint8(3), uint8(0), []byte("\x00\x00\x00\x00\x00\x00\xf0\x7f\x00\x00\x00\x00\x00\x00\xf8\x7f"))
	f.Add(uint8(2), uint8(1), []byte{})
	f.Fuzz(func(t *testing.T, rows, mode uint8, data []byte) {
		c := max(1, int(rows%41))
		n := c * L
		pos := 0
		in := make([][]float64, 4) // w0, w1, shift0, shift1
		for i := range in {
			in[i] = decode(data, n, mode, &pos)
		}
		start := make([][]float64, 5) // sum0, sum1, sq00, sq01, sq11
		for i := range start {
			start[i] = decode(data, n, mode, &pos)
		}
		want := make([][]float64, 5)
		for i := range want {
			want[i] = append([]float64(nil), start[i]...)
		}
		asm.MomentsAddSqGeneric(want[0], want[1], want[2], want[3], want[4], in[0], in[1], in[2], in[3])
		want2 := [][]float64{append([]float64(nil), start[0]...), append([]float64(nil), start[1]...)}
		asm.MomentsAddGeneric(want2[0], want2[1], in[0], in[1], in[2], in[3])

		alpha := decode(data, n-L, mode, &pos)
		u := decode(data, c/2*L, mode, &pos)
		rep := make([]int32, n)
		for i := range rep {
			rep[i] = int32(i / L)
		}
		eachImpl(t, func(name string) {
			got := make([][]float64, 5)
			guards := make([][]float64, 5)
			for i := range got {
				got[i], guards[i] = guardedCopy(start[i])
			}
			MomentsAdd(got[0], got[1], in[0], in[1], in[2], in[3])
			for i := 0; i < 2; i++ {
				if j, ok := sameBitsOrNaN(got[i], want2[i]); !ok {
					t.Fatalf("%s: MomentsAdd output %d [%d] = %v, generic %v", name, i, j, got[i][j], want2[i][j])
				}
				copy(got[i], start[i])
			}
			MomentsAddSq(got[0], got[1], got[2], got[3], got[4], in[0], in[1], in[2], in[3])
			for i := range got {
				if j, ok := sameBitsOrNaN(got[i], want[i]); !ok {
					t.Fatalf("%s: MomentsAddSq output %d [%d] = %v, generic %v", name, i, j, got[i][j], want[i][j])
				}
				if !untouched(guards[i]) {
					t.Fatalf("%s: moments wrote past output %d", name, i)
				}
			}
			for from := 0; from <= 1; from++ {
				w0, g0 := guardedCopy(in[0])
				w1, g1 := guardedCopy(in[1])
				r := append([]int32(nil), rep...)
				rw0, rw1, rr := append([]float64(nil), in[0]...), append([]float64(nil), in[1]...), append([]int32(nil), rep...)
				SwapApply(w0, w1, r, alpha, u, from)
				asm.SwapApplyGeneric(rw0, rw1, rr, alpha, u, from)
				if !untouched(g0) || !untouched(g1) {
					t.Fatalf("%s: SwapApply from %d wrote past w0 or w1", name, from)
				}
				_, ok0 := sameFloat64Bits(w0, rw0)
				_, ok1 := sameFloat64Bits(w1, rw1)
				if !ok0 || !ok1 {
					t.Fatalf("%s: SwapApply from %d: energies differ from the generic twin", name, from)
				}
				for i := range r {
					if r[i] != rr[i] {
						t.Fatalf("%s: SwapApply from %d: rep[%d] = %d, generic %d", name, from, i, r[i], rr[i])
					}
				}
			}
		})
	})
}

// FuzzSolveCubicsAt checks SolveCubicsAt under every implementation
// against asm.SolveCubicsAtGeneric on (rows%11)·L targets on a fit of
// (rows%11)·L + 1 + extra%5 segments, with one of the eight lengths
// perturbed by code, the columns decoded from data by mode (see decode)
// and each target's segment read from data (now and then one outside the
// columns, which must be refused). With mode/3 odd the columns are the
// values as decoded; with mode/3 even each segment is one of a monotone
// cubic built from them (its width, rise and end slopes, the knots
// increasing) and each target a height within its segment's rise, the
// scan end's kind of problem: with moderate values (mode%3 == 1) about
// half the solves converge (the test of convergence is absolute, made for
// t in [0, 1], and these segments reach ±512), so that the iteration's
// steps, not only its NaN paths, are compared.
func FuzzSolveCubicsAt(f *testing.F) {
	f.Add(uint8(1), uint8(0), uint8(1), uint8(0), []byte("one register of segments"))
	f.Add(uint8(6), uint8(0), uint8(1), uint8(3), []byte{3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4, 6, 2, 6, 4})
	f.Add(uint8(3), uint8(0), uint8(2), uint8(1), []byte{0, 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4, 6, 2, 6, 4})
	f.Add(uint8(2), uint8(0), uint8(3), uint8(2), []byte("\x00\x00\x00\x00\x00\x00\xf8\x7f\x00\x00\x00\x00\x00\x00\xf0\xff\x01\x00"))
	f.Add(uint8(0), uint8(0), uint8(0), uint8(0), []byte{})
	f.Add(uint8(2), uint8(9), uint8(0), uint8(0), []byte{9})
	f.Add(uint8(2), uint8(70), uint8(0), uint8(4), []byte{9})
	f.Add(uint8(1), uint8(0), uint8(1), uint8(0), []byte{255, 255, 255, 255})
	f.Fuzz(func(t *testing.T, rows, code, mode, extra uint8, data []byte) {
		n := int(rows%11) * L
		m := n + 1 + int(extra%5)
		// t, segs, targets, xs, ys, d, a2, a3
		lens := perturb([]int{n, n, n, m + 1, m + 1, m, m, m}, code)
		mm := lens[3] - 1 // the segments the checked layer sees
		valid := lens[0]%L == 0 && lens[1] == lens[0] && lens[2] == lens[0] && mm >= 1 && lens[4] == lens[3] &&
			lens[5] >= mm && lens[6] >= mm && lens[7] >= mm
		pos := 0
		in := make([][]float64, 8)
		for k := 2; k < 8; k++ {
			in[k] = decode(data, lens[k], mode, &pos)
		}
		// Each target's segment: a byte of data, reduced to -1 … m (the
		// ends outside), in range unless the byte is 255 or 254.
		segs := make([]int, lens[1])
		for i := range segs {
			b := 0
			if len(data) > 0 {
				b = int(data[(pos+i)%len(data)])
			}
			switch {
			case b == 255:
				segs[i] = -1
			case b == 254:
				segs[i] = max(mm, 0)
			case mm > 0:
				segs[i] = b % mm
			}
		}
		inRange := true
		for _, s := range segs {
			inRange = inRange && s >= 0 && s < mm
		}
		if mode/3%2 == 0 && valid && inRange {
			// Segment k of a monotone cubic: width h, rise dy, end slopes
			// s0, s1 in [0, 3·dy/h]; each target a share of its segment's
			// rise above its first knot.
			xs, ys, d, a2, a3 := in[3], in[4], in[5], in[6], in[7]
			x, y := xs[0], ys[0]
			if math.IsNaN(x) || math.IsInf(x, 0) {
				x = 0
			}
			if math.IsNaN(y) || math.IsInf(y, 0) {
				y = 0
			}
			xs[0], ys[0] = x, y
			for k := 0; k < mm; k++ {
				h := math.Abs(xs[k+1]) + 1e-3
				dy := math.Abs(ys[k+1]) + 1e-3
				sec := dy / h
				s0 := 3 * sec * math.Abs(math.Sin(d[k]))
				s1 := 3 * sec * math.Abs(math.Sin(a2[k]))
				d[k], a2[k], a3[k] = s0, (3*sec-2*s0-s1)/h, (s0+s1-2*sec)/(h*h)
				xs[k+1], ys[k+1] = xs[k]+h, ys[k]+dy
			}
			for i, s := range segs {
				in[2][i] = ys[s] + (ys[s+1]-ys[s])*math.Abs(math.Sin(in[2][i]))
			}
		}
		var want []float64
		if valid && inRange {
			want = make([]float64, n)
			asm.SolveCubicsAtGeneric(want, segs, in[2], in[3], in[4], in[5], in[6], in[7])
		}
		in0 := make([][]float64, len(in))
		for i := range in {
			in0[i] = append([]float64(nil), in[i]...)
		}
		segs0 := append([]int(nil), segs...)
		eachImpl(t, func(name string) {
			what := fmt.Sprintf("%s: lengths %v", name, lens)
			out, g := guardedCopy(sentinels(lens[0]))
			got := panicMessage(func() { SolveCubicsAt(out, segs, in[2], in[3], in[4], in[5], in[6], in[7]) })
			if !valid || !inRange {
				wantPanic := errLengths
				if valid {
					wantPanic = errSegment
				}
				if got != wantPanic {
					t.Fatalf("%s: panic %v, want %q", what, got, wantPanic)
				}
				if !untouched(out) {
					t.Fatalf("%s: refused call wrote t", what)
				}
				return
			}
			if got != nil {
				t.Fatalf("%s: panic %v on valid input", what, got)
			}
			if !untouched(g) {
				t.Fatalf("%s: wrote past the end of t", what)
			}
			if i, ok := sameFloat64Bits(out, want); !ok {
				t.Fatalf("%s: t[%d] = %v (%#x), generic twin %v (%#x)", what, i, out[i], math.Float64bits(out[i]), want[i], math.Float64bits(want[i]))
			}
			for i := 2; i < len(in); i++ {
				if _, ok := sameFloat64Bits(in[i], in0[i]); !ok {
					t.Fatalf("%s: input %d changed", what, i)
				}
			}
			for i := range segs {
				if segs[i] != segs0[i] {
					t.Fatalf("%s: segs changed", what)
				}
			}
		})
	})
}

// FuzzSplineSteps checks SplineSteps under every implementation against
// asm.SplineStepsGeneric (a NaN equal to any NaN: which operand's payload
// and sign a NaN keeps depends on the order the compiler gives a product's
// operands; a run never steps with a NaN, which Spline.Step skips and
// Config.Validate refuses) on (rows%11)·L components, with one of the three
// lengths perturbed by code, the values and the learning rate decoded from
// data by mode (see decode). With mode/3 even the knots are made to lie in
// (0, 1] and the sums non-negative, as a spline's are, and the learning
// rate is moderate; with mode/3 odd they are the values as decoded (NaN,
// infinities, huge rates whose exponentials overflow or underflow).
func FuzzSplineSteps(f *testing.F) {
	f.Add(uint8(1), uint8(0), uint8(1), []byte("a row of knots"))
	f.Add(uint8(3), uint8(0), uint8(4), []byte{0, 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4, 6, 2, 6, 4})
	f.Add(uint8(2), uint8(0), uint8(3), []byte("\x00\x00\x00\x00\x00\x00\xf8\x7f\x00\x00\x00\x00\x00\x00\xf0\xff\x01\x00"))
	f.Add(uint8(0), uint8(0), uint8(0), []byte{})
	f.Add(uint8(2), uint8(9), uint8(1), []byte{9})
	f.Fuzz(func(t *testing.T, rows, code, mode uint8, data []byte) {
		n := int(rows%11) * L
		lens := perturb([]int{n, n, n}, code) // knots, accum, grad
		valid := lens[0]%L == 0 && lens[1] == lens[0] && lens[2] == lens[0]
		pos := 0
		in := make([][]float64, 3)
		for k := range in {
			in[k] = decode(data, lens[k], mode, &pos)
		}
		lr := decode(data, 1, mode, &pos)[0]
		if mode/3%2 == 0 {
			for i, v := range in[0] {
				in[0][i] = 1 / (1 + math.Abs(v)) // in (0, 1]; NaN stays NaN
			}
			for i, v := range in[1] {
				in[1][i] = math.Abs(v)
			}
			lr = math.Mod(math.Abs(lr), 2)
		}
		var wantK, wantA []float64
		if valid {
			wantK, wantA = append([]float64(nil), in[0]...), append([]float64(nil), in[1]...)
			asm.SplineStepsGeneric(wantK, wantA, in[2], lr, 1e-8)
		}
		grad0 := append([]float64(nil), in[2]...)
		eachImpl(t, func(name string) {
			what := fmt.Sprintf("%s: lengths %v, lr %v", name, lens, lr)
			knots, gk := guardedCopy(in[0])
			accum, ga := guardedCopy(in[1])
			if !valid {
				knots, gk = guardedCopy(sentinels(lens[0]))
				accum, ga = guardedCopy(sentinels(lens[1]))
			}
			got := panicMessage(func() { SplineSteps(knots, accum, in[2], lr, 1e-8) })
			if !valid {
				if got != errLengths {
					t.Fatalf("%s: panic %v, want %q", what, got, errLengths)
				}
				if !untouched(knots) || !untouched(accum) {
					t.Fatalf("%s: refused call wrote knots or accum", what)
				}
				return
			}
			if got != nil {
				t.Fatalf("%s: panic %v on valid lengths", what, got)
			}
			if !untouched(gk) || !untouched(ga) {
				t.Fatalf("%s: wrote past the end of knots or accum", what)
			}
			if i, ok := sameBitsOrNaN(knots, wantK); !ok {
				t.Fatalf("%s: knots[%d] = %v (%#x), generic twin %v (%#x)", what, i, knots[i], math.Float64bits(knots[i]), wantK[i], math.Float64bits(wantK[i]))
			}
			if i, ok := sameBitsOrNaN(accum, wantA); !ok {
				t.Fatalf("%s: accum[%d] = %v, generic twin %v", what, i, accum[i], wantA[i])
			}
			if _, ok := sameFloat64Bits(in[2], grad0); !ok {
				t.Fatalf("%s: grad changed", what)
			}
		})
	})
}

// FuzzTargetIndices checks TargetIndices under every implementation
// against asm.TargetIndicesGeneric on (rows%11)·L knot values, with one of
// the two lengths perturbed by code, the values, the step and the target
// count decoded from data by mode (see decode). With mode/3 even the
// values are made non-decreasing from 0 (each decoded value's magnitude
// added to the one before, as the schedule's cumulative barrier) and the
// step their last over the count, as the schedule update makes it.
func FuzzTargetIndices(f *testing.F) {
	f.Add(uint8(1), uint8(0), uint8(1), uint16(9), []byte("knots between targets"))
	f.Add(uint8(3), uint8(0), uint8(4), uint16(49), []byte{0, 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4, 6, 2, 6, 4})
	f.Add(uint8(2), uint8(0), uint8(3), uint16(2), []byte("\x00\x00\x00\x00\x00\x00\xf8\x7f\x00\x00\x00\x00\x00\x00\xf0\xff\x01\x00"))
	f.Add(uint8(0), uint8(0), uint8(0), uint16(0), []byte{})
	f.Add(uint8(2), uint8(9), uint8(1), uint16(3), []byte{9})
	f.Fuzz(func(t *testing.T, rows, code, mode uint8, num16 uint16, data []byte) {
		n := int(rows%11) * L
		lens := perturb([]int{n, n}, code) // g, ys
		num := int(num16 % 400)            // 0 is refused
		valid := lens[0]%L == 0 && lens[1] == lens[0]
		pos := 0
		ys := decode(data, lens[1], mode, &pos)
		step := decode(data, 1, mode, &pos)[0]
		if mode/3%2 == 0 {
			cum := 0.0
			for i, v := range ys {
				ys[i] = cum
				cum += math.Abs(v)
			}
			if num > 0 && cum > 0 {
				step = cum / float64(num)
			}
		}
		inv := 1 / step
		var want []int
		if valid && num >= 1 {
			want = make([]int, lens[0])
			asm.TargetIndicesGeneric(want, ys, step, inv, num)
		}
		ys0 := append([]float64(nil), ys...)
		eachImpl(t, func(name string) {
			what := fmt.Sprintf("%s: lengths %v, step %v, num %d", name, lens, step, num)
			g := make([]int, lens[0]+L)
			for i := range g {
				g[i] = -7
			}
			got := panicMessage(func() { TargetIndices(g[:lens[0]], ys, step, inv, num) })
			if !valid || num < 1 {
				wantPanic := errLengths
				if valid {
					wantPanic = errTargets
				}
				if got != wantPanic {
					t.Fatalf("%s: panic %v, want %q", what, got, wantPanic)
				}
				for _, v := range g {
					if v != -7 {
						t.Fatalf("%s: refused call wrote g", what)
					}
				}
				return
			}
			if got != nil {
				t.Fatalf("%s: panic %v on valid input", what, got)
			}
			for i := range want {
				if g[i] != want[i] {
					t.Fatalf("%s: g[%d] = %d for %v, generic twin %d", what, i, g[i], ys[i], want[i])
				}
			}
			for _, v := range g[lens[0]:] {
				if v != -7 {
					t.Fatalf("%s: wrote past the end of g", what)
				}
			}
			if _, ok := sameFloat64Bits(ys, ys0); !ok {
				t.Fatalf("%s: ys changed", what)
			}
		})
	})
}

// FuzzFitKernels checks CubicSlopes, CubicDerivs and CubicCoeffs under
// every implementation against their generic twins on (rows%11)·L
// segments whose points, slopes, derivatives and reciprocals are decoded
// from data by mode (a NaN equal to any NaN: x86 keeps the first operand's
// payload). With mode/3 even the abscissae are made increasing (each
// decoded value's magnitude added to the one before), as the schedule
// update's are.
func FuzzFitKernels(f *testing.F) {
	f.Add(uint8(1), uint8(1), []byte("a row of segments"))
	f.Add(uint8(3), uint8(2), []byte{0, 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4, 6, 2, 6, 4})
	f.Add(uint8(2), uint8(3), []byte("\x00\x00\x00\x00\x00\x00\xf8\x7f\x00\x00\x00\x00\x00\x00\xf0\xff\x01\x00"))
	f.Add(uint8(0), uint8(0), []byte{})
	f.Fuzz(func(t *testing.T, rows, mode uint8, data []byte) {
		n := int(rows%11) * L
		pos := 0
		xs := decode(data, n+2, mode, &pos)
		ys := decode(data, n+2, mode, &pos)
		sl := decode(data, n+1, mode, &pos)
		d := decode(data, n+1, mode, &pos)
		invs := decode(data, n, mode, &pos)
		if mode/3%2 == 0 {
			for i := 1; i < len(xs); i++ {
				xs[i] = xs[i-1] + math.Abs(xs[i])
			}
		}
		ws, wi, wd, w2, w3 := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
		asm.CubicSlopesGeneric(ws, wi, xs[:n+1], ys[:n+1])
		asm.CubicDerivsGeneric(wd, sl, xs)
		asm.CubicCoeffsGeneric(w2, w3, d, xs[:n+1], ys[:n+1], invs)
		eachImpl(t, func(name string) {
			s, gs := guardedCopy(sentinels(n))
			iv, gi := guardedCopy(sentinels(n))
			dd, gd := guardedCopy(sentinels(n))
			a2, g2 := guardedCopy(sentinels(n))
			a3, g3 := guardedCopy(sentinels(n))
			CubicSlopes(s, iv, xs[:n+1], ys[:n+1])
			CubicDerivs(dd, sl, xs)
			CubicCoeffs(a2, a3, d, xs[:n+1], ys[:n+1], invs)
			for k, g := range [][]float64{gs, gi, gd, g2, g3} {
				if !untouched(g) {
					t.Fatalf("%s: output %d written past its end", name, k)
				}
			}
			for k, pair := range [][2][]float64{{s, ws}, {iv, wi}, {dd, wd}, {a2, w2}, {a3, w3}} {
				if i, ok := sameBitsOrNaN(pair[0], pair[1]); !ok {
					t.Fatalf("%s: output %d [%d] = %v (%#x), generic twin %v (%#x)", name, k, i,
						pair[0][i], math.Float64bits(pair[0][i]), pair[1][i], math.Float64bits(pair[1][i]))
				}
			}
		})
	})
}

// FuzzPathKernels checks PathMoments, PathProject and PathEta under every
// implementation against their generic twins (a NaN equal to any NaN) on
// 2 + rows%12 chains and splines of 1 + knots%6 segments, the moments,
// schedule points and knots decoded from data by mode; with mode/3 even
// the schedule points are folded into [-0.25, 1.25] (most of them inside
// (0, 1), where the knots are read), and PathProject reads the generic
// records.
func FuzzPathKernels(f *testing.F) {
	f.Add(uint8(1), uint8(3), uint8(1), []byte("a block of chains on a spline"))
	f.Add(uint8(5), uint8(0), uint8(2), []byte{0, 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4, 6, 2, 6, 4})
	f.Add(uint8(0), uint8(5), uint8(0), []byte("\x00\x00\x00\x00\x00\x00\xf8\x7f\x00\x00\x00\x00\x00\x00\xf0\xff\x01\x00"))
	f.Add(uint8(2), uint8(1), uint8(4), []byte{})
	f.Fuzz(func(t *testing.T, rows, knots, mode uint8, data []byte) {
		chains, k := 2+int(rows%12), 1+int(knots%6)
		n := chains * L
		pos := 0
		var in [8][]float64 // the seven moment rows and t
		for i := range in {
			in[i] = decode(data, n, mode, &pos)
		}
		if mode/3%2 == 0 {
			for i, v := range in[7] {
				in[7][i] = 1.5*math.Abs(math.Mod(v, 1)) - 0.25
			}
		}
		kn := decode(data, 2*(k+1)*L, mode, &pos)
		inv, inv1 := 1/float64(chains+50), 1/float64(chains+49)
		want := make([]float64, asm.PathRecord*n)
		asm.PathMomentsGeneric(want, in[0], in[1], in[2], in[3], in[4], in[5], in[6], in[7], kn, k, inv, inv1)
		acc0 := decode(data, 2*(k+1)*L, mode, &pos)
		wacc := append([]float64(nil), acc0...)
		asm.PathProjectGeneric(wacc, want, chains, k)
		we0, we1 := make([]float64, n), make([]float64, n)
		asm.PathEtaGeneric(we0, we1, in[7], kn, k)
		eachImpl(t, func(name string) {
			e0, e1 := make([]float64, n), make([]float64, n)
			PathEta(e0, e1, in[7], kn, k)
			if i, ok := sameBitsOrNaN(e0, we0); !ok {
				t.Fatalf("%s: PathEta eta0[%d] = %v, generic twin %v", name, i, e0[i], we0[i])
			}
			if i, ok := sameBitsOrNaN(e1, we1); !ok {
				t.Fatalf("%s: PathEta eta1[%d] = %v, generic twin %v", name, i, e1[i], we1[i])
			}
			rec, g := guardedCopy(sentinels(len(want)))
			PathMoments(rec, in[0], in[1], in[2], in[3], in[4], in[5], in[6], in[7], kn, k, inv, inv1)
			if !untouched(g) {
				t.Fatalf("%s: PathMoments wrote past the end of rec", name)
			}
			if i, ok := sameBitsOrNaN(rec, want); !ok {
				t.Fatalf("%s: rec[%d] = %v, generic twin %v", name, i, rec[i], want[i])
			}
			acc, ga := guardedCopy(acc0)
			PathProject(acc, want, chains, k)
			if !untouched(ga) {
				t.Fatalf("%s: PathProject wrote past the end of acc", name)
			}
			if i, ok := sameBitsOrNaN(acc, wacc); !ok {
				t.Fatalf("%s: acc[%d] = %v, generic twin %v", name, i, acc[i], wacc[i])
			}
		})
	})
}

// FuzzScanSums checks ScanSums under every implementation against its
// generic twin (a NaN equal to any NaN) on 1 + rows%40 pairs of chains,
// the rejection counts, coefficients and sums decoded from data by mode;
// with mode/3 even the counts are whole numbers up to 1.25 times the
// scan's length, so that some pairs reach a rejection of 1.
func FuzzScanSums(f *testing.F) {
	f.Add(uint8(3), uint8(1), []byte("the swaps of a scan"))
	f.Add(uint8(0), uint8(2), []byte{0, 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9})
	f.Add(uint8(7), uint8(3), []byte("\x00\x00\x00\x00\x00\x00\xf8\x7f\x00\x00\x00\x00\x00\x00\xf0\xff\x01\x00"))
	f.Add(uint8(1), uint8(0), []byte{})
	f.Fuzz(func(t *testing.T, rows, mode uint8, data []byte) {
		pairs := 1 + int(rows%40)
		n := pairs * L
		pos := 0
		xrej := decode(data, n, mode, &pos)
		if mode/3%2 == 0 {
			for i, v := range xrej {
				xrej[i] = math.Floor(125 * math.Abs(math.Mod(v, 1)))
			}
		}
		var in [6][]float64
		for i := range in {
			in[i] = decode(data, n+L, mode, &pos)
		}
		wout, wrej := make([]float64, 3*L), make([]float64, n)
		asm.ScanSumsGeneric(wout, wrej, xrej, in[0], in[1], in[2], in[3], in[4], in[5], 0.01)
		eachImpl(t, func(name string) {
			out, g := guardedCopy(sentinels(3 * L))
			rej, gr := guardedCopy(sentinels(n))
			ScanSums(out, rej, xrej, in[0], in[1], in[2], in[3], in[4], in[5], 0.01)
			if !untouched(g) || !untouched(gr) {
				t.Fatalf("%s: written past the end of an output", name)
			}
			if i, ok := sameBitsOrNaN(rej, wrej); !ok {
				t.Fatalf("%s: rej[%d] = %v, generic twin %v", name, i, rej[i], wrej[i])
			}
			if i, ok := sameBitsOrNaN(out, wout); !ok {
				t.Fatalf("%s: out[%d] = %v, generic twin %v", name, i, out[i], wout[i])
			}
		})
	})
}
