package layout

import (
	"errors"
	"math"
	"math/bits"
)

// Size arithmetic. Every length or byte count derived from user-supplied
// extents is a product of non-negative ints, and Go's int multiplication
// wraps silently: 8 lanes × 2 chains × 2⁶² coordinates is 2⁶⁶, which
// wraps to 0 and would let a length check pass on an empty buffer. The
// functions below compute such products exactly or say that they do not
// fit.

// ErrOverflow reports a size whose exact value does not fit in an int.
var ErrOverflow = errors.New("layout: size overflows int")

// ErrNegative reports a negative factor of a size.
var ErrNegative = errors.New("layout: negative size")

// MulInt returns the product a·b and true when a and b are not negative
// and the exact product fits in an int; otherwise it returns 0 and false.
//
//	hi, lo := bits.Mul(uint(a), uint(b))
//	ok := a >= 0 && b >= 0 && hi == 0 && lo <= math.MaxInt
func MulInt(a, b int) (int, bool) {
	if a < 0 || b < 0 {
		return 0, false
	}
	hi, lo := bits.Mul(uint(a), uint(b))
	if hi != 0 || lo > math.MaxInt {
		return 0, false
	}
	return int(lo), true
}

// Mul returns the exact product of factors (1 when there are none). It
// returns 0 and ErrNegative when a factor is negative, or 0 and
// ErrOverflow when the product does not fit in an int. A zero factor
// gives 0 whatever the others are, as long as none is negative.
func Mul(factors ...int) (int, error) {
	zero := false
	for _, f := range factors {
		if f < 0 {
			return 0, ErrNegative
		}
		zero = zero || f == 0
	}
	if zero {
		return 0, nil
	}
	p := 1
	for _, f := range factors {
		var ok bool
		if p, ok = MulInt(p, f); !ok {
			return 0, ErrOverflow
		}
	}
	return p, nil
}
