package batch

import (
	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/layout"
	"github.com/ptbatch/ptbatch/models"
)

// exchange is the communication state of a block: the chain-indexed
// coefficients and energies, the index process (which replica sits at
// which chain) and the swap bookkeeping of alg:NRPT's communication step.
//
// Energies and coefficients are stored by chain, row n lane j at
// layout.Index(n, 1, 0, j); a swap exchanges two chains' cached energies
// and replica indices, never the states. For a model that is not
// models.Exact, states stay in their slot (slot s holds replica s) and the
// slot rows mirror the chain rows through chainOf.
type exchange struct {
	numChains int
	exact     bool

	// By chain.
	eta0, eta1 []float64 // η(t_n) of the lane's current path and schedule
	w0, w1     []float64 // energies of the state at chain n
	replica    []int32   // which replica (= slot) sits at chain n
	// epoch changes whenever eta0 and eta1 do (setEtaStart, setEtaLanes,
	// a restore), so that a model may keep what it computed from them
	// (models.Rows.Epoch).
	epoch uint64

	// By slot, used only when !exact.
	chainOf  []int32 // chain of slot s
	eta0s    []float64
	eta1s    []float64
	w0s, w1s []float64
	// For an exact model (rows never move): the row whose state is now at
	// the target chain, per lane.
	targetFrom [lanes]int32

	// Swaps.
	alpha  []float64 // numChains-1 rows: α_n (-1 for a pair a reversible lane does not try)
	rej    []float64 // numChains-1 rows: Σ_m (1-α_n) over the scan
	u      []float64 // swap uniforms, numChains/2 rows
	coin   []float64 // one row, reversible only
	parity [lanes]int
	// algs, in a packed block whose lanes run both algorithms
	// (RunPacked), is each lane's; nil otherwise.
	algs *[lanes]Algorithm

	// With two legs (Config.VariationalLeg): second is the first chain of
	// leg 2 (0 with one leg), so the junction is pair second−1, between
	// the target chains second−1 and second; legs is the model's block if
	// its reference differs between the legs; keep is scratch for the
	// junction's rejection sums.
	second int
	legs   models.LegChanger
	keep   [lanes]float64
}

// setLegs sets the first chain of the second leg (0: one leg) and, when
// there is one, the block the junction's swaps tell about legs
// (models.LegChanger).
func (x *exchange) setLegs(second int, states models.Block) {
	x.second = second
	if second == 0 {
		return
	}
	x.legs, _ = states.(models.LegChanger)
}

// target returns the target chain: the last, or with two legs the first
// leg's last.
func (x *exchange) target() int {
	if x.second > 0 {
		return x.second - 1
	}
	return x.numChains - 1
}

// exchangeFloats returns the room newExchange takes from its slab for c
// chains.
func exchangeFloats(c int, exact bool) int {
	byChain := 4 // eta0, eta1, w0, w1
	if !exact {
		byChain += 4 // eta0s, eta1s, w0s, w1s
	}
	return byChain*slabLen(c*lanes) + 2*slabLen((c-1)*lanes) + slabLen(c/2*lanes) + slabLen(lanes)
}

// newExchange returns the communication state of c chains, its floats
// taken from sl (exchangeFloats of them) and the replica indices set to
// the identity.
func newExchange(c int, exact bool, sl *slab) exchange {
	var idx [2][]int32
	carve(idx[:], c*lanes, c*lanes)
	x := exchange{
		numChains: c,
		exact:     exact,
		eta0:      sl.take(c * lanes),
		eta1:      sl.take(c * lanes),
		w0:        sl.take(c * lanes),
		w1:        sl.take(c * lanes),
		replica:   idx[0],
		chainOf:   idx[1],
		alpha:     sl.take((c - 1) * lanes),
		rej:       sl.take((c - 1) * lanes),
		u:         sl.take(c / 2 * lanes),
		coin:      sl.take(lanes),
	}
	if !exact {
		x.eta0s = sl.take(c * lanes)
		x.eta1s = sl.take(c * lanes)
		x.w0s = sl.take(c * lanes)
		x.w1s = sl.take(c * lanes)
	}
	for n := 0; n < c; n++ {
		for j := 0; j < lanes; j++ {
			x.replica[layout.Index(n, 1, 0, j)] = int32(n)
			x.chainOf[layout.Index(n, 1, 0, j)] = int32(n)
		}
	}
	for j := range x.targetFrom {
		x.targetFrom[j] = int32(c - 1)
	}
	return x
}

// rows returns the model's inputs: by chain for an exact model, by slot
// otherwise.
func (x *exchange) rows() models.Rows {
	if x.exact {
		return models.Rows{Eta0: x.eta0, Eta1: x.eta1, Chain: x.chainOf, Epoch: x.epoch}
	}
	return models.Rows{Eta0: x.eta0s, Eta1: x.eta1s, Chain: x.chainOf}
}

// energies returns the model's outputs: by chain for an exact model, by
// slot otherwise.
func (x *exchange) energies() models.Energies {
	if x.exact {
		return models.Energies{W0: x.w0, W1: x.w1}
	}
	return models.Energies{W0: x.w0s, W1: x.w1s}
}

// explore runs local exploration on every row of the block.
func (x *exchange) explore(states models.Block, rng *kernel.Stream) {
	if x.exact {
		states.Explore(rng, x.rows(), x.energies())
		x.resetTarget()
		return
	}
	x.gather()
	states.Explore(rng, x.rows(), x.energies())
	x.scatter()
}

// gather copies every slot's coefficients from the chain it sits at.
func (x *exchange) gather() {
	for i, n := range x.chainOf {
		k := layout.Index(int(n), 1, 0, i%lanes)
		x.eta0s[i], x.eta1s[i] = x.eta0[k], x.eta1[k]
	}
}

// scatter copies every slot's new energies to the chain it sits at.
func (x *exchange) scatter() {
	for i, n := range x.chainOf {
		k := layout.Index(int(n), 1, 0, i%lanes)
		x.w0[k], x.w1[k] = x.w0s[i], x.w1s[i]
	}
}

// resetTarget records that, after an exact model's exploration, the
// target chain's state is in the last row.
func (x *exchange) resetTarget() {
	for j := range x.targetFrom {
		x.targetFrom[j] = int32(x.numChains - 1)
	}
}

// communicate runs the communication step of iteration m (1-based): the
// acceptance α_n of every pair from the pre-swap energies (§2
// "Communication"; r_n += 1-α_n), then the swaps of the active pairs — the
// even pairs on even m and the odd ones on odd m for NRPT, a fair coin per
// lane for reversible PT — each accepted when U ≤ α_n.
func (x *exchange) communicate(alg Algorithm, rng *kernel.Stream, m int) {
	c := x.numChains
	if x.algs != nil {
		x.communicateLanes(rng, m)
		return
	}
	if x.second > 0 {
		copy(x.keep[:], x.rej[(x.second-1)*lanes:x.second*lanes])
	}
	kernel.SwapAlpha(x.alpha, x.rej, x.eta0, x.eta1, x.w0, x.w1)
	if x.second > 0 {
		x.acceptJunction()
	}
	if alg == Reversible {
		rng.Uniform(x.coin)
		for j := range x.parity {
			if x.coin[j] < 0.5 {
				x.parity[j] = 0
			} else {
				x.parity[j] = 1
			}
		}
	} else {
		for j := range x.parity {
			x.parity[j] = m & 1
		}
	}
	rng.Uniform(x.u)
	if alg == Reversible {
		// Each lane swaps the pairs of its own parity: the other pairs'
		// acceptance becomes -1, below every uniform, and both parities
		// go through the kernel (the rejections are already counted).
		for n := 0; n < c-1; n++ {
			for j := 0; j < lanes; j++ {
				if n&1 != x.parity[j] {
					x.alpha[layout.Index(n, 1, 0, j)] = -1
				}
			}
		}
		kernel.SwapApply(x.w0, x.w1, x.replica, x.alpha, x.u, 0)
		kernel.SwapApply(x.w0, x.w1, x.replica, x.alpha, x.u, 1)
	} else {
		kernel.SwapApply(x.w0, x.w1, x.replica, x.alpha, x.u, m&1)
	}
	x.followSwaps()
	if x.legs != nil {
		x.changeLegs()
	}
}

// acceptJunction makes the swap between the two target chains, both at
// η = (0, 1), always accepted: α = 1 and no rejection, even where the
// kernel's 0·∞ (a W0 of −∞ at a target chain) gave NaN.
func (x *exchange) acceptJunction() {
	i := (x.second - 1) * lanes
	copy(x.rej[i:i+lanes], x.keep[:])
	for j := 0; j < lanes; j++ {
		x.alpha[i+j] = 1
	}
}

// changeLegs tells the model, in every lane whose junction pair swapped,
// that the two states at the target chains changed legs, and stores their
// W0 under their new legs' references (models.LegChanger).
func (x *exchange) changeLegs() {
	p := x.second - 1
	for j := 0; j < lanes; j++ {
		if p&1 != x.parity[j] {
			continue
		}
		for _, n := range [2]int{p, p + 1} {
			k := layout.Index(n, 1, 0, j)
			slot := int(x.replica[k])
			w0 := x.legs.ChangeLeg(slot, j, n)
			x.w0[k], x.w0s[layout.Index(slot, 1, 0, j)] = w0, w0
		}
	}
}

// followSwaps updates, after the swaps of cached energies and replicas,
// what follows the replicas: for a model that is not exact, the chain of
// every slot; for an exact one, whose rows never move, the row whose state
// is now at the target chain (the row below it when the top pair swapped).
func (x *exchange) followSwaps() {
	if !x.exact {
		for i, r := range x.replica {
			x.chainOf[layout.Index(int(r), 1, 0, i%lanes)] = int32(i / lanes)
		}
		return
	}
	n := x.numChains - 2
	if n < 0 {
		return
	}
	for j := 0; j < lanes; j++ {
		if n&1 == x.parity[j] && x.u[layout.Index(n/2, 1, 0, j)] <= x.alpha[layout.Index(n, 1, 0, j)] {
			x.targetFrom[j] = int32(n)
		}
	}
}

// targetRow returns the model row that holds the state now at the target
// chain of lane j.
func (x *exchange) targetRow(j int) int {
	if x.exact {
		return int(x.targetFrom[j])
	}
	return int(x.replica[layout.Index(x.target(), 1, 0, j)])
}

// setEtaStart writes η(t_n) of a new block's lanes to the chain rows.
// Every lane starts on the same schedule and path (newTuner), so lane 0's
// coefficients are computed once and copied to the others: the values
// setEtaLanes writes for every lane, for an eighth of the spline
// evaluations.
func (x *exchange) setEtaStart(t *tuner) {
	x.epoch++
	for n := range t.sched[0] {
		e0, e1 := t.eta(0, n)
		row := layout.Index(n, 1, 0, 0)
		for j := 0; j < lanes; j++ {
			x.eta0[row+j], x.eta1[row+j] = e0, e1
		}
	}
}

// setEtaLanes is setEta for the lanes j with changed[j], whose path or
// schedule may have changed; the others keep their rows, and the epoch
// stays when no lane changed (the end of a scan of frozen tuners).
func (x *exchange) setEtaLanes(t *tuner, changed *[lanes]bool) {
	bumped := false
	for j := 0; j < lanes; j++ {
		if !changed[j] {
			continue
		}
		if !bumped {
			x.epoch++
			bumped = true
		}
		// Leg 1 on the lane's path, in one call (bit for bit as t.eta),
		// and leg 2, if any, on the linear path.
		t.path[j].EtaStrided(x.eta0[j:], x.eta1[j:], lanes, t.leg1(j))
		x.setEtaLeg2(t, j)
	}
}

// setEtaLeg2 sets lane j's coefficients of the chains of leg 2, if any, on
// the linear path.
func (x *exchange) setEtaLeg2(t *tuner, j int) {
	for n := t.c1; n < len(t.sched[j]); n++ {
		i := layout.Index(n, 1, 0, j)
		x.eta0[i], x.eta1[i] = t.eta(j, n)
	}
}

// setEtaBlock is setEtaLanes for a block of one run every lane of which
// the tuning moved (tuner.blockPath): leg 1's coefficients of all lanes at
// once (tuner.blockEta), leg 2's lane by lane on the linear path. A
// padding lane, whose schedule and path never move, gets the values it
// has.
func (x *exchange) setEtaBlock(t *tuner) {
	x.epoch++
	t.blockEta(x.eta0[:t.c1*lanes], x.eta1[:t.c1*lanes])
	for j := 0; j < lanes; j++ {
		x.setEtaLeg2(t, j)
	}
}

// communicateLanes is communicate for a packed block whose lanes run both
// algorithms (x.algs; one leg): every lane gets the numbers and swaps of
// its own algorithm. A reversible lane draws its coin alone
// (kernel.Stream.LaneUniform, the number the row fill gives it), so an
// NRPT lane draws no coin, as in a run of its own; then every lane swaps
// the pairs of its parity, the others' acceptance set to −1, below every
// uniform, as the reversible form of communicate does.
func (x *exchange) communicateLanes(rng *kernel.Stream, m int) {
	kernel.SwapAlpha(x.alpha, x.rej, x.eta0, x.eta1, x.w0, x.w1)
	for j, a := range x.algs {
		x.parity[j] = m & 1
		if a == Reversible {
			x.coin[j] = rng.LaneUniform(j)
			x.parity[j] = 0
			if x.coin[j] >= 0.5 {
				x.parity[j] = 1
			}
		}
	}
	rng.Uniform(x.u)
	for n := 0; n < x.numChains-1; n++ {
		for j := 0; j < lanes; j++ {
			if n&1 != x.parity[j] {
				x.alpha[layout.Index(n, 1, 0, j)] = -1
			}
		}
	}
	kernel.SwapApply(x.w0, x.w1, x.replica, x.alpha, x.u, 0)
	kernel.SwapApply(x.w0, x.w1, x.replica, x.alpha, x.u, 1)
	x.followSwaps()
}
