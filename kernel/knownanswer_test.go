package kernel

import (
	"math"
	"testing"

	"github.com/ptbatch/ptbatch/asm"
)

// The reference generators below are Vigna's C code (splitmix64.c and
// xoshiro256plusplus.c at https://prng.di.unimi.it/) written out line for
// line in Go, independently of the package's code, so that the tests can
// compare the package with them.

// refSplitMix64 is next() of splitmix64.c:
//
//	uint64_t z = (x += 0x9e3779b97f4a7c15);
//	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
//	z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
//	return z ^ (z >> 31);
func refSplitMix64(x *uint64) uint64 {
	*x += 0x9e3779b97f4a7c15
	z := *x
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// refRotl is rotl of xoshiro256plusplus.c: (x << k) | (x >> (64 - k)).
func refRotl(x uint64, k int) uint64 { return (x << k) | (x >> (64 - k)) }

// refXoshiro is the state s[4] of xoshiro256plusplus.c.
type refXoshiro [4]uint64

// next is next() of xoshiro256plusplus.c.
func (s *refXoshiro) next() uint64 {
	result := refRotl(s[0]+s[3], 23) + s[0]
	t := s[1] << 17
	s[2] ^= s[0]
	s[3] ^= s[1]
	s[1] ^= s[2]
	s[0] ^= s[3]
	s[2] ^= t
	s[3] = refRotl(s[3], 45)
	return result
}

// refUnit is the package's documented map of an output to a uniform,
// ((u>>11) + 0.5)·2⁻⁵³, written out.
func refUnit(u uint64) float64 { return (float64(u>>11) + 0.5) / (1 << 53) }

// refSource is a scalar Source built on refXoshiro alone.
type refSource struct{ s refXoshiro }

func (r *refSource) Uniform() float64 { return refUnit(r.s.next()) }

// streamFromStates returns a Stream whose lane j has the xoshiro256++
// state st[j] (a test hook: NewStream seeds from SplitMix64).
func streamFromStates(st [L][4]uint64) *Stream {
	s := &Stream{}
	for j := range st {
		for w := 0; w < 4; w++ {
			s.state[w*L+j] = st[j][w]
		}
	}
	return s
}

// TestSplitMix64KnownAnswers checks the literal SplitMix64 and the
// package's splitmix against published outputs, and SeedState against the
// literal SplitMix64.
func TestSplitMix64KnownAnswers(t *testing.T) {
	for _, c := range []struct {
		source string
		seed   uint64
		want   []uint64
	}{
		// The first outputs of splitmix64.c from x = 0, the commonly cited
		// sequence (first output 0xE220A8397B1DCDAF).
		{"splitmix64.c from x = 0", 0, []uint64{
			0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F,
			0xF88BB8A8724C81EC, 0x1B39896A51A8749B,
		}},
		// The first 5 of the 50 outputs of splitmix64.c from
		// x = 1477776061723855037 in the reference test of the Rust crate
		// rand_xoshiro (src/splitmix64.rs, "produced with the reference
		// implementation").
		{"rand_xoshiro splitmix64.rs reference", 1477776061723855037, []uint64{
			1985237415132408290, 2979275885539914483, 13511426838097143398,
			8488337342461049707, 15141737807933549159,
		}},
	} {
		ref, pkg := c.seed, c.seed
		for i, want := range c.want {
			if got := refSplitMix64(&ref); got != want {
				t.Errorf("%s: literal splitmix64.c output %d = %#016x, published %#016x", c.source, i, got, want)
			}
			if got := splitmix(&pkg); got != want {
				t.Errorf("%s: splitmix output %d = %#016x, published %#016x", c.source, i, got, want)
			}
		}
	}
	// SeedState(seed, b): x = SplitMix64 output of seed, mixed with b, then
	// four SplitMix64 outputs from x.
	for _, seed := range []uint64{0, 1, 99, 1 << 63, ^uint64(0)} {
		for _, b := range []uint64{0, 1, 7, 12345, ^uint64(0)} {
			sd := seed
			x := refSplitMix64(&sd) ^ (b * 0xD1B54A32D192ED03)
			var want [4]uint64
			for w := range want {
				want[w] = refSplitMix64(&x)
			}
			if got := SeedState(seed, b); got != want {
				t.Errorf("SeedState(%d, %d) = %x, literal %x", seed, b, got, want)
			}
		}
	}
}

// TestXoshiro256PlusPlusKnownAnswers checks the literal xoshiro256++
// against published outputs, then the package's scalar path
// (asm.XoshiroNext, LaneUniform) and its batched fills (Uniform, Normal)
// under every implementation against the literal generator, for lanes
// seeded with known states.
func TestXoshiro256PlusPlusKnownAnswers(t *testing.T) {
	// The first 10 outputs of xoshiro256plusplus.c from s = {1, 2, 3, 4},
	// from the reference test of the Rust crate rand_xoshiro
	// (src/xoshiro256plusplus.rs, "produced with the reference
	// implementation"). The first is rotl(1+4, 23) + 1 = 5·2²³ + 1.
	published := []uint64{
		41943041, 58720359, 3588806011781223, 3591011842654386,
		9228616714210784205, 9973669472204895162, 14011001112246962877,
		12406186145184390807, 15849039046786891736, 10450023813501588000,
	}
	if published[0] != 5<<23+1 { // 0x0000000002800001
		t.Fatalf("first published output %d is not 5·2²³ + 1", published[0])
	}
	ref := refXoshiro{1, 2, 3, 4}
	for i, want := range published {
		if got := ref.next(); got != want {
			t.Errorf("literal xoshiro256plusplus.c output %d = %d, published %d", i, got, want)
		}
	}

	// Lane 0 gets {1, 2, 3, 4}; the others states from SplitMix64, one
	// with only its last word set.
	var states [L][4]uint64
	states[0] = [4]uint64{1, 2, 3, 4}
	states[1] = [4]uint64{0, 0, 0, 1}
	x := uint64(2024)
	for j := 2; j < L; j++ {
		for w := range states[j] {
			states[j][w] = refSplitMix64(&x)
		}
	}
	refs := func() []refXoshiro {
		r := make([]refXoshiro, L)
		for j := range r {
			r[j] = states[j]
		}
		return r
	}

	// Scalar path: the full 64-bit outputs, lanes interleaved unevenly.
	s := streamFromStates(states)
	r := refs()
	for i := 0; i < 200; i++ {
		j := (i * 5) % L
		if got, want := asm.XoshiroNext(&s.state, j), r[j].next(); got != want {
			t.Fatalf("asm.XoshiroNext call %d, lane %d = %#016x, literal %#016x", i, j, got, want)
		}
		if got, want := s.LaneUniform(j), refUnit(r[j].next()); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("LaneUniform call %d, lane %d = %v, literal %v", i, j, got, want)
		}
	}
	s = streamFromStates(states)
	for i, want := range published {
		if got := asm.XoshiroNext(&s.state, 0); got != want {
			t.Errorf("asm.XoshiroNext output %d of lane 0 = %d, published %d", i, got, want)
		}
	}

	// Batched fills: 37 rows of uniforms, then 21 rows of normals (an odd
	// count: the last row takes a whole pair), each lane's numbers from its
	// literal generator.
	forEachImpl(t, func(name string) {
		s := streamFromStates(states)
		r := refs()
		const uRows, zRows = 37, 21
		u := make([]float64, uRows*L)
		z := make([]float64, zRows*L)
		s.Uniform(u)
		s.Normal(z)
		for j := 0; j < L; j++ {
			for k := 0; k < uRows; k++ {
				if want := refUnit(r[j].next()); math.Float64bits(u[k*L+j]) != math.Float64bits(want) {
					t.Fatalf("%s: Uniform row %d, lane %d = %v, literal %v", name, k, j, u[k*L+j], want)
				}
			}
			for k := 0; k < zRows; k += 2 {
				u1 := refUnit(r[j].next())
				u2 := refUnit(r[j].next())
				z0, z1 := asm.BoxMuller(u1, u2)
				if math.Float64bits(z[k*L+j]) != math.Float64bits(z0) {
					t.Fatalf("%s: Normal row %d, lane %d = %v, Box–Muller of literal uniforms %v", name, k, j, z[k*L+j], z0)
				}
				if k+1 < zRows && math.Float64bits(z[(k+1)*L+j]) != math.Float64bits(z1) {
					t.Fatalf("%s: Normal row %d, lane %d = %v, Box–Muller of literal uniforms %v", name, k+1, j, z[(k+1)*L+j], z1)
				}
			}
			// The states agree afterwards too.
			if got, want := asm.XoshiroNext(&s.state, j), r[j].next(); got != want {
				t.Fatalf("%s: lane %d after the fills: output %#016x, literal %#016x", name, j, got, want)
			}
		}
	})
}
