package asm

// IsingLineGeneric runs the checkerboard Metropolis moves of one lattice
// row of the batched Ising model (models.Ising) for the 8 lanes of the
// struct-of-arrays xoshiro256++ state s (see XoshiroNext), and is the Go
// twin of the assembly kernels.
//
// row, up and down are the lattice row and its upper and lower neighbour
// rows (same length n, periodic in x); word x holds site x of every lane,
// byte j (0 or 1, the spin −1 or +1) for lane j. The sites x0, x0+2, …
// below n are visited in order. Site k of them (k = 0, 1, …) takes for
// lane j a 31-bit uniform r from lane j's output u: a new output when k is
// even (u = XoshiroNext(s, j)), r = u>>33 for even k and r = (u mod 2³²)>>1
// for odd k (the low half of the same output). With c the count of the
// site's 4 neighbours whose spin differs from its own spin b, the spin
// flips when r ≤ q[(5b + c)·8 + j]: q holds per lane the acceptance
// thresholds, −1 for never and 2³¹−1 for always. Every byte of every word
// must be 0 or 1.
func IsingLineGeneric(row, up, down []uint64, x0 int, q *[80]int32, s *[4 * lanes]uint64) {
	n := len(row)
	up, down = up[:n], down[:n]
	var out [lanes]uint64
	for k, x := 0, x0; x < n; k, x = k+1, x+2 {
		if k%2 == 0 {
			for j := range out {
				out[j] = XoshiroNext(s, j)
			}
		}
		xl, xr := x-1, x+1
		if xl < 0 {
			xl = n - 1
		}
		if xr == n {
			xr = 0
		}
		w := row[x]
		// Per byte: 5·b + the count of differing neighbours, 0 to 9.
		idx := w<<2 + w + (w ^ row[xl]) + (w ^ row[xr]) + (w ^ up[x]) + (w ^ down[x])
		var flip uint64
		for j := 0; j < lanes; j++ {
			r := out[j] >> 33
			if k%2 == 1 {
				r = out[j] & 0xffffffff >> 1
			}
			if int32(r) <= q[int(idx>>(8*j)&0xff)*lanes+j] {
				flip |= 1 << (8 * j)
			}
		}
		row[x] = w ^ flip
	}
}

// IsingXorGeneric adds a[i] XOR b[i] to dst[i mod 4] for every i, the Go
// twin of the assembly kernels: with words whose bytes are 0 or 1 (spins),
// byte j of dst[k] then counts, for lane j, the places where a and b
// differ. len(b) must be at least len(a), and len(a) a multiple of 4; no
// byte of dst may reach 256 (so at most 255·4 words into zeroed dst), as
// the kernels add bytewise without carries.
func IsingXorGeneric(dst *[4]uint64, a, b []uint64) {
	b = b[:len(a)]
	for i := range a {
		dst[i%4] += a[i] ^ b[i]
	}
}
