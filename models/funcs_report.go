package models

import (
	"cmp"
	"fmt"
	"slices"
	"sync"
)

// ProposalCounts are the proposals of a FromFuncs model's explorers that
// its replicates made (every Target.Energies call), and how many of them
// had a NaN or −Inf annealed log density: rejections, as documented, but
// a sign of a target that is NaN where it should not be when many are.
type ProposalCounts struct {
	// Proposals and Invalid are the totals over the replicates asked for.
	Proposals, Invalid int64
	// Warnings lists, at most maxWarnings of them, the (replicate,
	// chain, scan) at which every proposal of the scan was invalid,
	// ordered by scan, replicate and chain; Dropped counts those left out.
	Warnings []ProposalWarning
	Dropped  int
}

// ProposalWarning is a chain of a replicate at which every proposal of
// one scan was invalid (its annealed log density NaN or −Inf).
type ProposalWarning struct {
	Replicate, Chain, Scan int
	Proposals              int
}

// maxWarnings bounds the warnings a model keeps.
const maxWarnings = 1000

// ProposalReport returns the proposal counts of the ended scans of every
// run of m (a FromFuncs model, or the funnel) since it was built, for replicates
// 0 … replicates−1 (blocks compute padding replicates past the run's last,
// which are left out). A run resumed from a checkpoint counts from its
// resumption. ok is false for a model that FromFuncs did not build.
func ProposalReport(m Model, replicates int) (c ProposalCounts, ok bool) {
	fm, ok := m.(interface{ proposals() *proposalReport })
	if !ok {
		return c, false
	}
	return fm.proposals().counts(replicates), true
}

// proposalReport gathers the counts of every block of a model; blocks
// add to it from their workers' goroutines.
type proposalReport struct {
	mu       sync.Mutex
	byRep    map[int][2]int64
	warnings []ProposalWarning
	dropped  int // warnings past maxStored
}

// maxStored bounds the warnings a model stores.
const maxStored = 100 * maxWarnings

// proposals returns the model's report.
func (m *funcsModel) proposals() *proposalReport { return m.report }

func newProposalReport() *proposalReport { return &proposalReport{byRep: map[int][2]int64{}} }

// add records replicate rep's counts per chain at the end of scan scan.
func (p *proposalReport) add(rep, scan int, recs []chainRecord) {
	p.mu.Lock()
	defer p.mu.Unlock()
	c := p.byRep[rep]
	for n, r := range recs {
		c[0] += int64(r.proposals)
		c[1] += int64(r.invalid)
		if r.proposals > 0 && r.invalid == r.proposals && len(p.warnings) >= maxStored {
			p.dropped++
		} else if r.proposals > 0 && r.invalid == r.proposals {
			p.warnings = append(p.warnings, ProposalWarning{Replicate: rep, Chain: n, Scan: scan, Proposals: r.proposals})
		}
	}
	p.byRep[rep] = c
}

// counts returns the counts of replicates below replicates.
func (p *proposalReport) counts(replicates int) ProposalCounts {
	p.mu.Lock()
	defer p.mu.Unlock()
	c := ProposalCounts{Dropped: p.dropped}
	for rep, v := range p.byRep {
		if rep < replicates {
			c.Proposals += v[0]
			c.Invalid += v[1]
		}
	}
	for _, w := range p.warnings {
		if w.Replicate < replicates {
			c.Warnings = append(c.Warnings, w)
		}
	}
	slices.SortFunc(c.Warnings, func(a, b ProposalWarning) int {
		return cmp.Or(cmp.Compare(a.Scan, b.Scan), cmp.Compare(a.Replicate, b.Replicate), cmp.Compare(a.Chain, b.Chain))
	})
	if len(c.Warnings) > maxWarnings {
		c.Dropped += len(c.Warnings) - maxWarnings
		c.Warnings = c.Warnings[:maxWarnings]
	}
	return c
}

// ProposalCounter is a Block whose explorers count their proposals: at
// chain chain of lane lane, the open scan's proposals (Target.Energies
// calls) and how many of them had a NaN or −Inf annealed log density,
// until the block's EndScan starts the next scan's counts. The blocks of
// FromFuncs models, the funnel's among them, are ProposalCounters;
// batch.Proposals reads them.
type ProposalCounter interface {
	ScanProposals(lane, chain int) (proposals, invalid int)
}

// ScanProposals returns the open scan's counts at chain chain of lane
// lane.
func (b *funcsBlock) ScanProposals(lane, chain int) (proposals, invalid int) {
	r := &b.recs[lane][chain]
	return r.proposals, r.invalid
}

var _ ProposalCounter = (*funcsBlock)(nil)

// Warning returns one line for a run at whose chains every proposal of a
// scan had a NaN or −Inf density: the invalid proposals of all, how many
// (replicate, chain, scan) were all invalid, and the first; "" when none
// was.
func (c ProposalCounts) Warning() string {
	if len(c.Warnings) == 0 {
		return ""
	}
	w := c.Warnings[0]
	return fmt.Sprintf("warning: %d of %d proposals had a NaN or -Inf log density; at %d (replicate, chain, scan) all did, the first at replicate %d, chain %d, scan %d",
		c.Invalid, c.Proposals, len(c.Warnings)+c.Dropped, w.Replicate, w.Chain, w.Scan)
}
