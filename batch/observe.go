package batch

// Statistic is something measured on a run: round trips, moments of the
// target chain, a record of samples. The engine asks it for one Observer per
// block when the run is created; each observer then sees every iteration
// and every scan end of its block's layout.Lanes replicates, from the
// goroutine of the worker that owns the block (so observers of different
// blocks run concurrently, and one observer is never called concurrently).
//
// A new statistic is one new type: nothing in the engine changes.
type Statistic interface {
	// NewObserver returns the observer of one block. It is called from
	// the block's worker goroutine, concurrently with other blocks' calls.
	NewObserver(info BlockInfo) Observer
}

// ScanCollector is a Statistic that gathers its observers' results after
// every scan, when all blocks have finished it: CollectScan runs on the
// goroutine that called Engine.Step, with no observer running, so it may
// read every observer (in block order, for output that does not depend on
// the number of workers). An error stops the run.
type ScanCollector interface {
	Statistic
	CollectScan(scan int) error
}

// BlockInfo says which replicates a block holds.
type BlockInfo struct {
	// FirstReplicate is the run-relative index of lane 0's replicate: lane
	// j holds the run's replicate FirstReplicate+j (and the stream of
	// Config.FirstReplicate+FirstReplicate+j).
	FirstReplicate int
	// Replicates is the number of lanes that hold one of the run's
	// replicates (the last block may hold fewer than layout.Lanes; the
	// other lanes are padding, computed and never reported).
	Replicates int
	// Chains is the number of chains.
	Chains int
	// Observables is the number of the model's observables.
	Observables int
	// Scans is the number of scans of the run, and KeepScans how many of
	// the last ones count as samples (Config.KeepScans in effect).
	Scans, KeepScans int
	// SecondLeg is the first chain of the second leg of a two-leg run
	// (Config.VariationalLeg), 0 with one leg.
	SecondLeg int
}

// TargetChain returns the target chain whose states are the samples: the
// last chain, or with two legs the last of the first leg, SecondLeg−1.
func (i BlockInfo) TargetChain() int {
	if i.SecondLeg > 0 {
		return i.SecondLeg - 1
	}
	return i.Chains - 1
}

// FirstKeptScan returns the first scan whose target-chain states count as
// samples: the first of the last KeepScans.
func (i BlockInfo) FirstKeptScan() int { return i.Scans - i.KeepScans + 1 }

// Observer watches one block: Iterate after the communication step of
// every iteration, EndScan after every scan's last iteration (before the
// schedule and path are retuned).
type Observer interface {
	Iterate(v *View)
	EndScan(v *View)
}

// View is a read-only window on one block between two iterations. Chains
// are indexed 0 (reference) to Chains()-1 (target), or with two legs
// (Config.VariationalLeg) 0 to Chains()-1 along the line of both, the
// target at TargetChain(); lanes 0 to layout.Lanes-1.
type View struct {
	b *block
	// g, in a block that packs several runs' replicates (RunPacked), is
	// the run whose observers see this view: its lane j is the block's
	// lane g.lanes[j]. Nil: lane j is the block's.
	g *laneGroup
	// Iteration is the number of iterations done so far in the run, the
	// current one included (1-based, alg:NRPT's m).
	Iteration int
	// Scan is the current scan (1-based) and Step the iteration within it
	// (0-based); at a scan end Step is the number of iterations in a scan.
	Scan, Step int
}

// FirstReplicate is the run-relative replicate of lane 0.
func (v *View) FirstReplicate() int {
	if v.g != nil {
		return v.g.info.FirstReplicate
	}
	return v.b.info.FirstReplicate
}

// lane returns the block's lane of the view's lane j.
func (v *View) lane(j int) int {
	if v.g != nil {
		return v.g.lanes[j]
	}
	return j
}

// Chains returns the number of chains.
func (v *View) Chains() int { return v.b.numChains }

// TargetChain returns the chain whose states ObserveTarget reads: the last
// one, or with two legs the first leg's target chain (BlockInfo.
// TargetChain).
func (v *View) TargetChain() int { return v.b.info.TargetChain() }

// Replica returns the replica (the index of the state, which starts at
// chain Replica) now at chain n of lane j: the index process.
func (v *View) Replica(n, j int) int { return int(v.b.x.replica[n*lanes+v.lane(j)]) }

// Energies returns W0 and W1 of the state now at chain n of lane j.
func (v *View) Energies(n, j int) (w0, w1 float64) {
	i := n*lanes + v.lane(j)
	return v.b.x.w0[i], v.b.x.w1[i]
}

// Coefficients returns the annealing coefficients η(t_n) of chain n of
// lane j.
func (v *View) Coefficients(n, j int) (eta0, eta1 float64) {
	i := n*lanes + v.lane(j)
	return v.b.x.eta0[i], v.b.x.eta1[i]
}

// Schedule returns lane j's schedule t_0 … t_N in use during this scan;
// the caller must not modify it. With two legs (Config.VariationalLeg) it
// holds t of every chain of the line: leg 1's t_0 … t_{C1−1} rising from 0
// to 1, then leg 2's falling from 1 at chain C1 to 0 at the last chain.
func (v *View) Schedule(j int) []float64 { return v.b.tuner.sched[v.lane(j)] }

// Frozen reports whether lane j's path and schedule are fixed for the
// rest of the run: with AutoTuning, once its tuner has stopped (the scan
// under way, and every later one, runs on the final path and schedule);
// never with PaperTuning, which retunes after every scan. A statistic may
// pool the samples of consecutive scans that end with Frozen(j) true, as
// LogZ and BarrierProfile do.
func (v *View) Frozen(j int) bool { return v.b.tuner.frozen(v.lane(j)) }

// ObserveTarget writes the first len(dst) observables of the state now at
// the target chain of lane j to dst (at most one per model observable).
func (v *View) ObserveTarget(dst []float64, j int) {
	k := v.lane(j)
	v.b.states.Observe(dst, v.b.x.targetRow(k), k)
}

// RejectionSum returns Σ (1-α_n) over the current scan's iterations so far
// for the pair of chains (n, n+1) of lane j: alg:NRPT's r_n before its
// division by the number of iterations, accumulated by the engine from the
// pre-swap energies of every iteration. In Iterate it covers Step+1
// iterations, the current one included; in EndScan the scan's Step
// iterations.
func (v *View) RejectionSum(n, j int) float64 { return v.b.x.rej[n*lanes+v.lane(j)] }
