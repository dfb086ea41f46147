package kernel

import (
	"github.com/ptbatch/ptbatch/asm"
	"github.com/ptbatch/ptbatch/layout"
)

// Stream is a block of layout.Lanes independent xoshiro256++ generators
// stored struct-of-arrays; lane j is replicate firstReplicate+j.
type Stream struct {
	state [4 * layout.Lanes]uint64
	tail  [2 * layout.Lanes]float64 // the pair of rows of an odd last row
}

// NewStream seeds lane j with the stream of replicate firstReplicate+j under
// seed: the state depends only on (seed, replicate).
func NewStream(seed uint64, firstReplicate int) *Stream {
	s := &Stream{}
	for j := 0; j < layout.Lanes; j++ {
		st := SeedState(seed, uint64(firstReplicate+j))
		for w := 0; w < 4; w++ {
			s.state[w*layout.Lanes+j] = st[w]
		}
	}
	return s
}

// NewStreamLanes seeds lane j with the stream of replicate replicates[j]
// under seed, so that a block may hold replicates that are not
// consecutive: lane j draws exactly what lane r−first of NewStream(seed,
// first) draws for r = replicates[j].
func NewStreamLanes(seed uint64, replicates *[layout.Lanes]int) *Stream {
	s := &Stream{}
	for j, r := range replicates {
		st := SeedState(seed, uint64(r))
		for w := 0; w < 4; w++ {
			s.state[w*layout.Lanes+j] = st[w]
		}
	}
	return s
}

// SeedState returns the xoshiro256++ state of replicate b under seed: four
// successive outputs of SplitMix64 started from a mix of seed and b.
func SeedState(seed, b uint64) [4]uint64 {
	x := splitmix(&seed) ^ (b * 0xD1B54A32D192ED03)
	var st [4]uint64
	for w := range st {
		st[w] = splitmix(&x)
	}
	if st == [4]uint64{} { // xoshiro's one forbidden state; unreachable in practice
		st[0] = 1
	}
	return st
}

// splitmix advances x by SplitMix64 (Steele, Lea and Flood, 2014) and
// returns the output.
func splitmix(x *uint64) uint64 {
	*x += 0x9E3779B97F4A7C15
	z := *x
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

func checkRows(dst []float64) {
	if len(dst)%layout.Lanes != 0 {
		panic(errRows)
	}
}

// Uniform fills dst, len a multiple of layout.Lanes, with uniform draws on
// (0, 1]: row k, lane j is lane j's next draw, ((u>>11) + 0.5)·2⁻⁵³ of its
// next output u (asm.UnitOpen; when u>>11 = 2⁵³-1 the sum rounds up to 2⁵³,
// so the draw is 1 with probability 2⁻⁵³). Another length panics with
// "kernel: length is not a multiple of layout.Lanes" and draws nothing.
func (s *Stream) Uniform(dst []float64) {
	checkRows(dst)
	raceWrite(dst)
	raceWriteState(&s.state)
	impl.XoshiroUniform(dst, &s.state)
}

// Normal fills dst, len a multiple of layout.Lanes, with standard normal
// draws by the Box–Muller transform (asm.BoxMuller: polynomial log and
// sincos, at most 1 ulp each). Rows are made in pairs from two rows of
// uniforms u1 (drawn first) and u2: row 2i = r cos 2πu2 and row 2i+1 =
// r sin 2πu2 with r = sqrt(-2 log u1); an odd last row takes a whole pair
// of uniforms and keeps the cosine half. The uniforms are made in
// registers (asm.XoshiroNormalGeneric), never stored. Another length
// panics with "kernel: length is not a multiple of layout.Lanes" and draws
// nothing.
func (s *Stream) Normal(dst []float64) {
	checkRows(dst)
	n := len(dst)
	even := n - n%(2*layout.Lanes)
	raceWriteState(&s.state)
	if even > 0 {
		raceWrite(dst[:even])
		impl.XoshiroNormal(dst[:even], &s.state)
	}
	if even < n {
		raceWrite(s.tail[:])
		impl.XoshiroNormal(s.tail[:], &s.state)
		copy(dst[even:], s.tail[:layout.Lanes])
	}
}

// LaneUniform returns the next uniform draw on (0, 1] of lane j alone.
func (s *Stream) LaneUniform(j int) float64 {
	return asm.UnitOpen(asm.XoshiroNext(&s.state, j))
}

// LaneNormal returns a standard normal draw of lane j alone: a Box–Muller
// pair from two of its uniforms, cosine half.
func (s *Stream) LaneNormal(j int) float64 {
	u1 := s.LaneUniform(j)
	u2 := s.LaneUniform(j)
	z0, _ := asm.BoxMuller(u1, u2)
	return z0
}

// Lane is one lane of a Stream seen alone; it draws exactly the numbers the
// batched fills give that lane.
type Lane struct {
	s *Stream
	j int
}

// Lane returns lane j of s.
func (s *Stream) Lane(j int) Lane { return Lane{s, j} }

// Uniform returns the lane's next uniform draw on (0, 1].
func (l Lane) Uniform() float64 { return l.s.LaneUniform(l.j) }

// Normals returns n standard normals drawn as Stream.Normal draws them for
// this lane: Box–Muller pairs, the odd last one the cosine half of a pair.
func Normals(rng interface{ Uniform() float64 }, n int) []float64 {
	z := make([]float64, n)
	for i := 0; i < n; i += 2 {
		u1 := rng.Uniform()
		u2 := rng.Uniform()
		z0, z1 := asm.BoxMuller(u1, u2)
		z[i] = z0
		if i+1 < n {
			z[i+1] = z1
		}
	}
	return z
}
