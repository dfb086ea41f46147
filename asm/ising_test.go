package asm

import (
	"math/rand/v2"
	"testing"
)

// isingCase returns three random lattice rows of n words (bytes 0 or 1)
// and random thresholds: per lane and index, −1 (never), 2³¹−1 (always) or
// a random value in between, so that every branch of the compare occurs.
func isingCase(rng *rand.Rand, n int) (row, up, down []uint64, q *[80]int32) {
	rows := make([][]uint64, 3)
	for i := range rows {
		rows[i] = make([]uint64, n)
		for x := range rows[i] {
			rows[i][x] = rng.Uint64() & 0x0101010101010101
		}
	}
	q = new([80]int32)
	for i := range q {
		switch rng.IntN(4) {
		case 0:
			q[i] = -1
		case 1:
			q[i] = 1<<31 - 1
		default:
			q[i] = rng.Int32()
		}
	}
	return rows[0], rows[1], rows[2], q
}

// checkIsingLine runs im.IsingLine and IsingLineGeneric on copies of one
// case and fails unless the rows and states agree bit for bit and the
// neighbour rows are untouched.
func checkIsingLine(t *testing.T, im Impl, row, up, down []uint64, x0 int, q *[80]int32, s *[4 * lanes]uint64) {
	t.Helper()
	gr, wr := append([]uint64(nil), row...), append([]uint64(nil), row...)
	up0, down0 := append([]uint64(nil), up...), append([]uint64(nil), down...)
	gs, ws := *s, *s
	im.IsingLine(gr, up, down, x0, q, &gs)
	IsingLineGeneric(wr, up0, down0, x0, q, &ws)
	for x := range wr {
		if gr[x] != wr[x] {
			t.Fatalf("n=%d x0=%d: word %d = %#x, generic %#x", len(row), x0, x, gr[x], wr[x])
		}
		if up[x] != up0[x] || down[x] != down0[x] {
			t.Fatalf("n=%d x0=%d: a neighbour row changed at %d", len(row), x0, x)
		}
	}
	if gs != ws {
		t.Fatalf("n=%d x0=%d: states differ after the line", len(row), x0)
	}
}

// TestIsingLineMatchesGeneric checks every tier's Ising line against its
// Go twin on rows of 2 to 9 and 64 words (odd and even site counts, so that
// a line may end on the high half of an output), both colours.
func TestIsingLineMatchesGeneric(t *testing.T) {
	forEachImpl(t, func(t *testing.T, im Impl) {
		rng := rand.New(rand.NewPCG(25, 64))
		for _, n := range []int{2, 3, 4, 5, 6, 7, 8, 9, 64} {
			for x0 := 0; x0 < 2; x0++ {
				for rep := 0; rep < 20; rep++ {
					row, up, down, q := isingCase(rng, n)
					checkIsingLine(t, im, row, up, down, x0, q, randState(rng))
				}
			}
		}
	})
}

// TestIsingLineDraws checks the twin's use of the draws on one lane with
// thresholds that make the outcome a function of the uniform alone: with
// q = 2³⁰−1 for every index, site k flips exactly when its 31-bit uniform,
// the high (k even) or low (k odd) half of lane 0's output k/2, is below
// 2³⁰, that is when bit 63 (k even) or bit 31 (k odd) of the output is 0.
func TestIsingLineDraws(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 1))
	s := randState(rng)
	ref := *s
	const n = 12
	row, up, down := make([]uint64, n), make([]uint64, n), make([]uint64, n)
	q := new([80]int32)
	for i := range q {
		q[i] = 1<<30 - 1
	}
	IsingLineGeneric(row, up, down, 1, q, s)
	var u uint64
	for k, x := 0, 1; x < n; k, x = k+1, x+2 {
		bit := uint64(31)
		if k%2 == 0 {
			u = XoshiroNext(&ref, 0)
			for j := 1; j < lanes; j++ {
				XoshiroNext(&ref, j)
			}
			bit = 63
		}
		if got, want := row[x]&1, 1^(u>>bit&1); got != want {
			t.Errorf("site %d: lane 0 spin %d, want %d (output %#x)", x, got, want, u)
		}
	}
	if *s != ref {
		t.Error("the line drew other than ⌈sites/2⌉ outputs of each lane")
	}
}

// TestIsingXorMatchesGeneric checks every tier's byte counts against the
// Go twin on spans of 0 to 1020 words (1020 = 4·255, the most a zeroed dst
// can take), an odd and an even count of 4-word steps among them, and
// checks the twin against a direct count for lane 7 (the top byte).
func TestIsingXorMatchesGeneric(t *testing.T) {
	forEachImpl(t, func(t *testing.T, im Impl) {
		rng := rand.New(rand.NewPCG(25, 4))
		for _, n := range []int{0, 4, 8, 12, 64, 1016, 1020} {
			a, _, b, _ := isingCase(rng, n)
			var got, want [4]uint64
			im.IsingXor(&got, a, b)
			IsingXorGeneric(&want, a, b)
			if got != want {
				t.Fatalf("n=%d: %x, generic %x", n, got, want)
			}
			count := uint64(0)
			for i := range a {
				count += (a[i] ^ b[i]) >> 56
			}
			if sum := want[0]>>56 + want[1]>>56 + want[2]>>56 + want[3]>>56; sum != count {
				t.Fatalf("n=%d: lane 7 counts %d differences, want %d", n, sum, count)
			}
		}
	})
}

// FuzzIsingLine checks the assembly tiers against the Go twin on fuzzed
// rows, thresholds and states.
func FuzzIsingLine(f *testing.F) {
	f.Add(uint64(1), uint8(7), uint8(0))
	f.Add(uint64(99), uint8(64), uint8(1))
	f.Fuzz(func(t *testing.T, seed uint64, n, x0 uint8) {
		rng := rand.New(rand.NewPCG(seed, 3))
		size := max(2, int(n)%130)
		row, up, down, q := isingCase(rng, size)
		s := randState(rng)
		for _, im := range Impls() {
			checkIsingLine(t, im, row, up, down, int(x0)%2, q, s)
		}
	})
}

// FuzzIsingXor checks the assembly tiers' byte counts against the Go twin
// on fuzzed spans (lengths cut to a multiple of 4, at most 1020).
func FuzzIsingXor(f *testing.F) {
	f.Add(uint64(1), uint16(1020))
	f.Add(uint64(7), uint16(12))
	f.Fuzz(func(t *testing.T, seed uint64, n uint16) {
		rng := rand.New(rand.NewPCG(seed, 5))
		a, _, b, _ := isingCase(rng, int(n)%1021&^3)
		var want [4]uint64
		IsingXorGeneric(&want, a, b)
		for _, im := range Impls() {
			var got [4]uint64
			im.IsingXor(&got, a, b)
			if got != want {
				t.Fatalf("%s n=%d: %x, generic %x", im.Name, len(a), got, want)
			}
		}
	})
}
