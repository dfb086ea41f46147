package kernel

import (
	"fmt"
	"math"
	"testing"

	"github.com/ptbatch/ptbatch/asm"
	"github.com/ptbatch/ptbatch/layout"
)

// TestMixKernelsCheckLengths checks that each mixture kernel refuses, with
// the constant message, every slice whose length disagrees with the others
// by one row or one value, a start past the observations or before the
// first, and a label row of the wrong length; and that the well-formed
// call goes through.
func TestMixKernelsCheckLengths(t *testing.T) {
	const L = layout.Lanes
	const nd, m = 5, 3
	f := func(n int) []float64 { return sentinels(max(n, 0)) } // a negative length: an empty slice, still wrong
	calls := map[string]func(d [8]int) func(){
		"MixTerms2": func(d [8]int) func() {
			return func() { MixTerms2(f(nd*L+d[0]), f(nd*L+d[1]), f(2*L+d[2]), f(nd+d[3]), f(3*L+d[4])) }
		},
		"MixProp2": func(d [8]int) func() {
			return func() { MixProp2(f(3*L+d[0]), f(nd*L+d[1]), f(nd*L+d[2]), f(2*L+d[3]), nd+d[4]) }
		},
		"MixLabels2": func(d [8]int) func() {
			return func() {
				MixLabels2(make([]uint8, max(nd*L+d[0], 0)), f(3*L+d[1]), f(nd*L+d[2]), f(nd*L+d[3]), f(2*L+d[4]), f(nd+d[5]), f(nd+d[6]))
			}
		},
		"MixTermsK": func(d [8]int) func() {
			return func() { MixTermsK(f(nd*m*L+d[0]), f(nd*L+d[1]), f(m*L+d[2]), f(nd+d[3]), f(m*L+d[4]), f(m*L+d[5])) }
		},
		"MixPropK": func(d [8]int) func() {
			return func() { MixPropK(f((m+1)*L+d[0]), f(nd*m*L+d[1]), f(nd*L+d[2]), f(m*L+d[3]), nd+d[4]) }
		},
		"MixGammaTry": func(d [8]int) func() {
			return func() { MixGammaTry(f(m*L+d[0]), f(m*L+d[1]), f(m*L+d[2]), f(m*L+d[3])) }
		},
		"MixLog": func(d [8]int) func() {
			return func() { MixLog(f(m*L+d[0]), f(m*L+d[1])) }
		},
		"MixLabelsK": func(d [8]int) func() {
			return func() {
				MixLabelsK(make([]uint8, max(nd*L+d[0], 0)), f(3*2*L+d[1]), f(nd*m*L+d[2]), f(nd*L+d[3]), f(m*L+d[4]), f(m+1+d[5]), f(2+d[6]), f(nd+d[7]), f(nd))
			}
		},
	}
	args := map[string]int{"MixTerms2": 5, "MixProp2": 5, "MixLabels2": 7, "MixTermsK": 6, "MixPropK": 5, "MixLabelsK": 8, "MixGammaTry": 4, "MixLog": 2}
	for name, call := range calls {
		// The well-formed call runs (the sentinels are NaN: no fault).
		if msg := panicMessage(call([8]int{})); msg != nil {
			t.Fatalf("%s: well-formed call panicked: %v", name, msg)
		}
		for i := 0; i < args[name]; i++ {
			for _, delta := range []int{-L, -1, 1, L} {
				var d [8]int
				d[i] = delta
				if (name == "MixProp2" || name == "MixPropK") && i == 4 && delta < 0 {
					continue // an earlier start is fine
				}
				if msg := panicMessage(call(d)); msg != errLengths {
					t.Errorf("%s: argument %d off by %d: panic %v, want %q", name, i, delta, msg, errLengths)
				}
			}
		}
	}
	if msg := panicMessage(func() { MixProp2(f(3*L), f(nd*L), f(nd*L), f(2*L), -1) }); msg != errLengths {
		t.Errorf("MixProp2 from -1: panic %v", msg)
	}
}

// sameOrBothNaN is sameFloat64Bits for the mixture kernels, which promise
// every bit except a NaN's payload (it depends on operand order; every NaN
// reads the same downstream).
func sameOrBothNaN(a, b []float64) (int, bool) {
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) && !(math.IsNaN(a[i]) && math.IsNaN(b[i])) {
			return i, false
		}
	}
	return 0, true
}

// FuzzMixKernels checks the eight mixture kernels under every implementation
// against their generic twins on nd%24 observations and 1 + m%7
// components, with every input decoded from data by mode (the base label
// and steps of MixLabelsK from bytes, so that every label is a whole
// number below 256 as the kernel requires): terms, inverse sums, running
// sums, the observations where the MH pass stops, labels and tallies, and
// the first gamma attempts (shapes from u, normals and uniforms from the
// terms) and logarithms of the decoded uniforms u. MixLog is compared with
// every bit, NaN payloads included, in its own test; here as the others.
func FuzzMixKernels(f *testing.F) {
	f.Add(uint8(3), uint8(2), uint8(1), []byte("three observations, three components"))
	f.Add(uint8(17), uint8(5), uint8(2), []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 200})
	f.Add(uint8(5), uint8(0), uint8(0), []byte("\x00\x00\x00\x00\x00\x00\xf8\x7f\x00\x00\x00\x00\x00\x00\xf0\xff\x01\x00\x00\x00\x00\x00\x00\x00"))
	f.Add(uint8(0), uint8(1), uint8(1), []byte{})
	f.Fuzz(func(t *testing.T, nd8, m8, mode uint8, data []byte) {
		nd, m := int(nd8%24), 1+int(m8%7)
		pos := 0
		y := decode(data, nd, mode, &pos)
		y2 := decode(data, nd, mode, &pos)
		coef := decode(data, 3*L, mode, &pos)
		cc := decode(data, m*L, mode, &pos)
		cb := decode(data, m*L, mode, &pos)
		a2 := decode(data, 2*L, mode, &pos)
		ak := decode(data, m*L, mode, &pos)
		u := decode(data, nd*L, mode, &pos)
		f2 := decode(data, 2*L, mode, &pos)
		fk := decode(data, m*L, mode, &pos)
		tv := decode(data, 2, mode, &pos)
		acc3 := decode(data, 3*L, mode, &pos)
		accK := decode(data, (m+1)*L, mode, &pos)
		lv := make([]float64, m+1)
		for i := range lv {
			b := 0
			if len(data) > 0 {
				b = int(data[(pos+i)%len(data)])
			}
			lv[i] = float64(b % 32)
		}
		tv = append(tv, lv[0], lv[0]+lv[1])
		type result struct {
			e2, inv2, r2, e, inv, r, p2, pk, l2, lk []float64
			gam, logs                               []float64
			stops                                   []int
			z2, zk                                  []uint8
		}
		prop := func(run func(acc, e, inv, a []float64, from int) int, acc, e, inv, a []float64, stops *[]int) {
			for from := 0; ; {
				n := run(acc, e, inv, a, from)
				*stops = append(*stops, n)
				if n >= nd {
					return
				}
				for j := 0; j < L; j++ {
					acc[len(acc)-L+j] = 1 // the caller's step, reduced to a reset
				}
				from = n + 1
			}
		}
		runAll := func(im asm.Impl, checked bool) result {
			var r result
			r.e2, r.inv2, r.r2 = make([]float64, nd*L), make([]float64, nd*L), make([]float64, 2*L)
			r.e, r.inv, r.r = make([]float64, nd*m*L), make([]float64, nd*L), make([]float64, m*L)
			r.p2, r.pk = append([]float64(nil), acc3...), append([]float64(nil), accK...)
			r.l2, r.lk = append([]float64(nil), acc3...), make([]float64, 3*len(tv)*L)
			r.z2, r.zk = make([]uint8, nd*L), make([]uint8, nd*L)
			r.gam, r.logs = make([]float64, nd*L), make([]float64, nd*L)
			if checked {
				MixTerms2(r.e2, r.inv2, r.r2, y, coef)
				MixTermsK(r.e, r.inv, r.r, y, cc, cb)
				prop(MixProp2, r.p2, r.e2, r.inv2, a2, &r.stops)
				prop(MixPropK, r.pk, r.e, r.inv, ak, &r.stops)
				MixLabels2(r.z2, r.l2, r.e2, u, f2, y, y2)
				MixLabelsK(r.zk, r.lk, r.e, u, fk, lv, tv, y, y2)
				MixGammaTry(r.gam, u, r.e2, r.inv2)
				MixLog(r.logs, u)
				return r
			}
			im.MixTerms2(r.e2, r.inv2, r.r2, y, coef)
			im.MixTermsK(r.e, r.inv, r.r, y, cc, cb)
			prop(im.MixProp2, r.p2, r.e2, r.inv2, a2, &r.stops)
			prop(im.MixPropK, r.pk, r.e, r.inv, ak, &r.stops)
			im.MixLabels2(r.z2, r.l2, r.e2, u, f2, y, y2)
			im.MixLabelsK(r.zk, r.lk, r.e, u, fk, lv, tv, y, y2)
			im.MixGammaTry(r.gam, u, r.e2, r.inv2)
			im.MixLog(r.logs, u)
			return r
		}
		want := runAll(asm.Generic, false)
		eachImpl(t, func(name string) {
			got := runAll(asm.Impl{}, true)
			for _, c := range []struct {
				what      string
				got, want []float64
			}{{"MixTerms2 e", got.e2, want.e2}, {"MixTerms2 inv", got.inv2, want.inv2}, {"MixTerms2 r", got.r2, want.r2},
				{"MixTermsK e", got.e, want.e}, {"MixTermsK inv", got.inv, want.inv}, {"MixTermsK r", got.r, want.r},
				{"MixProp2 acc", got.p2, want.p2}, {"MixPropK acc", got.pk, want.pk},
				{"MixLabels2 acc", got.l2, want.l2}, {"MixLabelsK acc", got.lk, want.lk},
				{"MixGammaTry", got.gam, want.gam}, {"MixLog", got.logs, want.logs}} {
				if i, ok := sameOrBothNaN(c.got, c.want); !ok {
					t.Fatalf("%s: %s[%d] = %v (%#x), generic twin %v (%#x)", name, c.what, i,
						c.got[i], math.Float64bits(c.got[i]), c.want[i], math.Float64bits(c.want[i]))
				}
			}
			if fmt.Sprint(got.stops) != fmt.Sprint(want.stops) {
				t.Fatalf("%s: the MH passes stop at %v, generic twins at %v", name, got.stops, want.stops)
			}
			if string(got.z2) != string(want.z2) || string(got.zk) != string(want.zk) {
				t.Fatalf("%s: labels differ from the generic twins'", name)
			}
		})
	})
}

// TestMixGammaTryIsGammaSamplerTry checks the first attempts of
// MixGammaTry against GammaSampler.Try, which the sweeps' scalar reference
// uses (through mixDirichlet): equal bits wherever the kernel accepts, and
// where it gives 0, Try either rejects too or accepts by its logarithmic
// test, which the kernel leaves to the caller: the squeeze
// u < 1 - 0.0331 x⁴ fails there.
func TestMixGammaTryIsGammaSamplerTry(t *testing.T) {
	const n = 8192
	rng := NewStream(4, 0)
	conc, x, u, g := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	rng.Uniform(conc)
	for i := range conc {
		conc[i] = 1 / conc[i] // shapes from 1 up, heavy-tailed
	}
	rng.Normal(x)
	rng.Uniform(u)
	logAccepted := 0
	eachImpl(t, func(name string) {
		MixGammaTry(g, conc, x, u)
		for i := range g {
			want := NewGammaSampler(conc[i]).Try(x[i], u[i])
			switch {
			case g[i] != 0 && math.Float64bits(g[i]) != math.Float64bits(want):
				t.Fatalf("%s: shape %v, x %v, u %v: %v, Try %v", name, conc[i], x[i], u[i], g[i], want)
			case g[i] == 0 && want != 0:
				if x2 := x[i] * x[i]; u[i] < 1-float64(float64(0.0331*x2)*x2) {
					t.Fatalf("%s: shape %v, x %v, u %v: refused an attempt that the squeeze accepts", name, conc[i], x[i], u[i])
				}
				logAccepted++
			}
		}
	})
	if logAccepted == 0 {
		t.Error("no attempt was left to the logarithmic test: the case is not exercised")
	}
}
