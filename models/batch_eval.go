package models

import "fmt"

// evaluate calls the user's batch function once for the slots of active
// that ask for need (energies, or energies and gradients), and gives each
// its results.
func (b *batchBlock) evaluate(active []int, need int) {
	var pick []*batchSlot
	for _, k := range active {
		if s := b.slots[k]; s.need == need {
			pick = append(pick, s)
		}
	}
	n, dim := len(pick), b.b.Dim
	if n == 0 {
		return
	}
	b.bx = grow(b.bx, dim*n)
	b.bw = grow(b.bw, 2*n)
	for i, s := range pick {
		for d, v := range s.c[s.cur].key {
			b.bx[d*n+i] = v
		}
	}
	w0, w1 := b.bw[:n], b.bw[n:2*n]
	if need == needGradients {
		b.bg = grow(b.bg, 2*dim*n)
		g0, g1 := b.bg[:dim*n], b.bg[dim*n:2*dim*n]
		b.call(pick[0], "Gradients", func() { b.b.Gradients(b.bx[:dim*n], n, w0, w1, g0, g1) })
		for i, s := range pick {
			c := &s.c[s.cur]
			for d := 0; d < dim; d++ {
				c.g0[d], c.g1[d] = g0[d*n+i], g1[d*n+i]
			}
		}
	} else {
		b.call(pick[0], "Energies", func() { b.b.Energies(b.bx[:dim*n], n, w0, w1) })
	}
	for i, s := range pick {
		c := &s.c[s.cur]
		c.w = [2]float64{w0[i], w1[i]}
		s.need, c.have = 0, need
	}
}

// call runs a user batch function; a panic becomes a *CallError naming
// the function and the first slot of the call.
func (b *batchBlock) call(s *batchSlot, fn string, f func()) {
	defer func() {
		if r := recover(); r != nil {
			panic(&CallError{Func: "Batch." + fn, Replicate: s.t.replicate, Chain: s.t.chain, Err: fmt.Errorf("%w: %v", ErrPanic, r)})
		}
	}()
	f()
}

// grow returns s with length n, reallocated when its capacity is short.
func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}
