package rundir

import (
	"math"
	"math/big"
	"testing"
)

// TestShareIsExact checks Share against ⌊kU/n⌋ computed with math/big
// (an independent exact implementation), for unit counts whose products
// overflow 64 bits (U near MaxInt) and small ones, and that shards 1..n
// tile [0, U).
func TestShareIsExact(t *testing.T) {
	floor := func(k, u, n int) int {
		q := new(big.Int).Mul(big.NewInt(int64(k)), big.NewInt(int64(u)))
		return int(q.Quo(q, big.NewInt(int64(n))).Int64())
	}
	for _, c := range []struct{ u, n int }{{10, 3}, {7, 7}, {3, 5}, {math.MaxInt, 1000}, {math.MaxInt - 1, 3}} {
		prev := 0
		for i := 1; i <= c.n; i++ {
			lo, hi := Share(i, c.n, c.u)
			if lo != floor(i-1, c.u, c.n) || hi != floor(i, c.u, c.n) || lo != prev {
				t.Fatalf("Share(%d, %d, %d) = [%d, %d), want [%d, %d) after %d", i, c.n, c.u, lo, hi, floor(i-1, c.u, c.n), floor(i, c.u, c.n), prev)
			}
			prev = hi
		}
		if prev != c.u {
			t.Errorf("shards of %d units over %d end at %d", c.u, c.n, prev)
		}
	}
}
