package asm

import "math"

// lanes mirrors layout.Lanes; asm may not import layout (dependencies point
// one way: layout is about shapes, asm about arithmetic).
const lanes = 8

// XoshiroUniformGeneric fills dst (len a multiple of 8) with uniform draws in
// (0, 1] (see UnitOpen), row by row: row k, lane j takes the next output
// of lane j's xoshiro256++ generator, whose state is s[0*8+j], s[1*8+j],
// s[2*8+j], s[3*8+j]. The output u becomes ((u>>11) + 0.5) * 2^-53.
func XoshiroUniformGeneric(dst []float64, s *[4 * lanes]uint64) {
	for k := 0; k+lanes <= len(dst); k += lanes {
		for j := 0; j < lanes; j++ {
			dst[k+j] = UnitOpen(XoshiroNext(s, j))
		}
	}
}

// XoshiroNext advances lane j of the struct-of-arrays xoshiro256++ state s
// and returns its output (Blackman and Vigna, "Scrambled linear pseudorandom
// number generators", 2021).
func XoshiroNext(s *[4 * lanes]uint64, j int) uint64 {
	s0, s1, s2, s3 := s[j], s[lanes+j], s[2*lanes+j], s[3*lanes+j]
	out := rotl(s0+s3, 23) + s0
	t := s1 << 17
	s2 ^= s0
	s3 ^= s1
	s1 ^= s2
	s0 ^= s3
	s2 ^= t
	s3 = rotl(s3, 45)
	s[j], s[lanes+j], s[2*lanes+j], s[3*lanes+j] = s0, s1, s2, s3
	return out
}

func rotl(x uint64, k uint) uint64 { return x<<k | x>>(64-k) }

// UnitOpen maps a 64-bit output to (0, 1]: ((u>>11) + 0.5) * 2^-53. The
// result is never 0, but it is exactly 1 for the largest outputs: when
// u>>11 = 2^53 - 1, the sum 2^53 - 0.5 is not representable and rounds (to
// even) up to 2^53, so a uniform output gives 1 with probability 2^-53.
func UnitOpen(u uint64) float64 {
	return (float64(u>>11) + 0.5) * 0x1p-53
}

// XoshiroNormalGeneric fills dst (len a multiple of 16) with standard
// normals drawn from the lanes of s by the Box–Muller transform, rows in
// pairs: for rows k and k+1 (k even) and lane j,
//
//	u1 := UnitOpen(XoshiroNext(s, j)); u2 := UnitOpen(XoshiroNext(s, j))
//	dst[k*8+j], dst[(k+1)*8+j] = BoxMuller(u1, u2)
//
// the same numbers as XoshiroUniformGeneric followed by BoxMullerGeneric,
// without the buffer of uniforms.
func XoshiroNormalGeneric(dst []float64, s *[4 * lanes]uint64) {
	for k := 0; k+2*lanes <= len(dst); k += 2 * lanes {
		for j := 0; j < lanes; j++ {
			u1 := UnitOpen(XoshiroNext(s, j))
			u2 := UnitOpen(XoshiroNext(s, j))
			dst[k+j], dst[k+lanes+j] = BoxMuller(u1, u2)
		}
	}
}

// BoxMullerGeneric turns rows of uniforms into rows of standard normals:
// for each pair of rows (u1, u2) in src it writes r*cos(2π u2) to the same
// row of dst as u1 and r*sin(2π u2) to the row of u2, with
// r = sqrt(-2 log u1). len(src) == len(dst), a multiple of 16.
func BoxMullerGeneric(dst, src []float64) {
	for k := 0; k+2*lanes <= len(src); k += 2 * lanes {
		for j := 0; j < lanes; j++ {
			dst[k+j], dst[k+lanes+j] = BoxMuller(src[k+j], src[k+lanes+j])
		}
	}
}

// BoxMuller returns the standard normal pair (r cos 2πu2, r sin 2πu2) with
// r = sqrt(-2 Log(u1)), for u1, u2 in (0, 1], using the polynomial Log and
// SinCos2Pi of this package (so that the assembly kernels reproduce it bit
// for bit):
//
//	r := math.Sqrt(-2 * Log(u1))
//	s, c := SinCos2Pi(u2)
//	return r * c, r * s
func BoxMuller(u1, u2 float64) (z0, z1 float64) {
	r := math.Sqrt(-2 * Log(u1))
	s, c := SinCos2Pi(u2)
	return r * c, r * s
}
