package batch

import (
	"sync"

	"github.com/ptbatch/ptbatch/internal/wire"
	"github.com/ptbatch/ptbatch/models"
)

// Proposals is a Statistic: per replicate and chain, the proposals that
// the model's explorer made over the completed scans and how many of them
// had a NaN or −Inf annealed log density (rejected, but many are a sign
// of a target that is NaN where it should not be). It reads blocks that
// are models.ProposalCounter (models built by models.FromFuncs, the
// funnel's among them); with any other model it counts nothing and
// Counted is false. Its counts are part of a checkpoint, so a resumed
// run reports the whole run's. A Proposals observes one run.
type Proposals struct {
	mu        sync.Mutex
	observers []*proposalObserver
	props     [][]int // by replicate and chain
	invalid   [][]int
	counted   bool
}

// AddProposals appends a Proposals to cfg.Statistics when the explorers
// of cfg.Model count their proposals (models.ProposalReport's models:
// FromFuncs and the funnel) and returns it; nil, and cfg unchanged, for
// the other models, whose output and checkpoints stay as they were.
func AddProposals(cfg *Config) *Proposals {
	if _, ok := models.ProposalReport(cfg.Model, 0); !ok {
		return nil
	}
	p := new(Proposals)
	cfg.Statistics = append(cfg.Statistics, p)
	return p
}

// NewObserver returns the counter of one block.
func (s *Proposals) NewObserver(info BlockInfo) Observer {
	o := &proposalObserver{info: info}
	for j := range o.props {
		o.props[j], o.invalid[j] = make([]int, info.Chains), make([]int, info.Chains)
	}
	s.mu.Lock()
	s.observers = append(s.observers, o)
	s.mu.Unlock()
	return o
}

// CollectScan takes every block's counts at the end of a scan, in
// replicate order.
func (s *Proposals) CollectScan(int) error {
	info := func(o *proposalObserver) BlockInfo { return o.info }
	sortByReplicate(s.observers, info)
	r := numReplicates(s.observers, info)
	s.props, s.invalid = make([][]int, r), make([][]int, r)
	for _, o := range s.observers {
		s.counted = s.counted || o.counted
		for j := 0; j < o.info.Replicates; j++ {
			s.props[o.info.FirstReplicate+j] = append([]int(nil), o.props[j]...)
			s.invalid[o.info.FirstReplicate+j] = append([]int(nil), o.invalid[j]...)
		}
	}
	return nil
}

// Counted reports whether the model counts its proposals (its blocks are
// models.ProposalCounter).
func (s *Proposals) Counted() bool { return s.counted }

// Proposed returns, per run-relative replicate and chain, the proposals
// of the completed scans (none at the reference chain, whose moves are
// exact draws).
func (s *Proposals) Proposed() [][]int { return cloneRows(s.props) }

// Invalid returns, per replicate and chain, the proposals of the
// completed scans whose annealed log density was NaN or −Inf.
func (s *Proposals) Invalid() [][]int { return cloneRows(s.invalid) }

func cloneRows(v [][]int) [][]int {
	out := make([][]int, len(v))
	for i, r := range v {
		out[i] = append([]int(nil), r...)
	}
	return out
}

// proposalObserver adds up one block's counts at every scan end, before
// the model's EndScan resets them.
type proposalObserver struct {
	info           BlockInfo
	props, invalid [lanes][]int // by lane and chain
	counted        bool
}

// Iterate does nothing: the model counts.
func (o *proposalObserver) Iterate(*View) {}

// EndScan adds the scan's counts of every lane and chain.
func (o *proposalObserver) EndScan(v *View) {
	pc, ok := v.b.states.(models.ProposalCounter)
	if !ok {
		return
	}
	o.counted = true
	for j := range o.props {
		for n := range o.props[j] {
			p, bad := pc.ScanProposals(v.lane(j), n)
			o.props[j][n] += p
			o.invalid[j][n] += bad
		}
	}
}

// describe returns the settings of a Proposals: none.
func (s *Proposals) describe() string { return "" }

// MarshalBinary returns the counts collected from the last scan.
func (s *Proposals) MarshalBinary() ([]byte, error) {
	var w wire.Writer
	w.String("proposals/1")
	w.Bool(s.counted)
	w.Int(len(s.props))
	for b := range s.props {
		w.Ints(s.props[b])
		w.Ints(s.invalid[b])
	}
	return w.Bytes(), nil
}

// UnmarshalBinary restores what MarshalBinary saved.
func (s *Proposals) UnmarshalBinary(data []byte) error {
	r := wire.NewReader(data)
	r.Expect("proposals/1")
	counted, n := r.Bool(), r.Int()
	if r.Err() == nil && (n < 0 || n > len(data)) {
		r.Failf("%d replicates", n)
	}
	var props, invalid [][]int
	for b := 0; b < n && r.Err() == nil; b++ {
		props, invalid = append(props, r.Ints()), append(invalid, r.Ints())
	}
	if err := closeState(r, "proposals"); err != nil {
		return err
	}
	s.counted, s.props, s.invalid = counted, props, invalid
	return nil
}

// MarshalBinary returns the block's counts.
func (o *proposalObserver) MarshalBinary() ([]byte, error) {
	var w wire.Writer
	w.String("proposal-observer/1")
	w.Bool(o.counted)
	for j := range o.props {
		w.Ints(o.props[j])
		w.Ints(o.invalid[j])
	}
	return w.Bytes(), nil
}

// UnmarshalBinary restores what MarshalBinary saved.
func (o *proposalObserver) UnmarshalBinary(data []byte) error {
	r := wire.NewReader(data)
	r.Expect("proposal-observer/1")
	o.counted = r.Bool()
	for j := range o.props {
		r.IntsInto(o.props[j], "proposals")
		r.IntsInto(o.invalid[j], "invalid proposals")
	}
	return closeState(r, "proposals")
}

var (
	_ ScanCollector  = (*Proposals)(nil)
	_ StatisticState = (*Proposals)(nil)
	_ ObserverState  = (*proposalObserver)(nil)
)
