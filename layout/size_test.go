package layout

import (
	"errors"
	"math"
	"math/big"
	"testing"
)

// sizeEdges are the factors around which an int product changes from
// fitting to overflowing: 0, 1, small, the powers of two next to 2^31,
// 2^32 and 2^62, ⌊√MaxInt⌋ = 3037000499 (3037000499² = 9223372030926249001
// ≤ MaxInt < 3037000500²; by integer square root), MaxInt/k for small k,
// MaxInt, and negatives.
var sizeEdges = []int{
	0, 1, 2, 3, 7, 8, 64,
	1<<31 - 1, 1 << 31, 1 << 32, 1<<32 + 1,
	3037000499, 3037000500,
	1 << 61, 1 << 62, math.MaxInt / 2, math.MaxInt/2 + 1, math.MaxInt / 3, math.MaxInt / 64, math.MaxInt/64 + 1,
	math.MaxInt - 1, math.MaxInt,
	-1, -8, math.MinInt,
}

// TestMulIntMatchesBigInt checks MulInt on every pair of edge factors
// against the exact product in math/big: ok exactly when both factors are
// not negative and the exact product is at most MaxInt, and then the
// product itself.
func TestMulIntMatchesBigInt(t *testing.T) {
	maxInt := big.NewInt(math.MaxInt)
	for _, a := range sizeEdges {
		for _, b := range sizeEdges {
			exact := new(big.Int).Mul(big.NewInt(int64(a)), big.NewInt(int64(b)))
			wantOK := a >= 0 && b >= 0 && exact.Cmp(maxInt) <= 0
			got, ok := MulInt(a, b)
			if ok != wantOK {
				t.Fatalf("MulInt(%d, %d) ok = %v, want %v (exact product %v)", a, b, ok, wantOK, exact)
			}
			if ok && int64(got) != exact.Int64() {
				t.Fatalf("MulInt(%d, %d) = %d, want %v", a, b, got, exact)
			}
			if !ok && got != 0 {
				t.Fatalf("MulInt(%d, %d) = %d with ok = false, want 0", a, b, got)
			}
		}
	}
}

// TestMulMatchesBigInt checks Mul on every triple of edge factors against
// math/big: ErrNegative when a factor is negative, 0 when one is 0,
// ErrOverflow when the exact product exceeds MaxInt, else the product.
func TestMulMatchesBigInt(t *testing.T) {
	if p, err := Mul(); p != 1 || err != nil {
		t.Errorf("Mul() = %d, %v; want the empty product 1", p, err)
	}
	maxInt := big.NewInt(math.MaxInt)
	for _, a := range sizeEdges {
		for _, b := range sizeEdges {
			for _, c := range sizeEdges {
				got, err := Mul(a, b, c)
				exact := big.NewInt(int64(a))
				exact.Mul(exact, big.NewInt(int64(b))).Mul(exact, big.NewInt(int64(c)))
				switch {
				case a < 0 || b < 0 || c < 0:
					if !errors.Is(err, ErrNegative) || got != 0 {
						t.Fatalf("Mul(%d, %d, %d) = %d, %v; want 0, ErrNegative", a, b, c, got, err)
					}
				case exact.Cmp(maxInt) > 0:
					if !errors.Is(err, ErrOverflow) || got != 0 {
						t.Fatalf("Mul(%d, %d, %d) = %d, %v; want 0, ErrOverflow (exact %v)", a, b, c, got, err, exact)
					}
				default:
					if err != nil || int64(got) != exact.Int64() {
						t.Fatalf("Mul(%d, %d, %d) = %d, %v; want %v", a, b, c, got, err, exact)
					}
				}
			}
		}
	}
}

// TestFloat64sRefusesImpossibleLengths checks the constant panic for
// lengths whose bytes (with the 64-byte alignment padding) overflow an int.
func TestFloat64sRefusesImpossibleLengths(t *testing.T) {
	for _, n := range []int{-1, math.MinInt, math.MaxInt, math.MaxInt/8 - 7, 1 << 62} {
		func() {
			defer func() {
				if r := recover(); r != "layout: Float64s length out of range" {
					t.Errorf("Float64s(%d): panic %v, want the constant length message", n, r)
				}
			}()
			Float64s(n)
		}()
	}
}
