package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/models"
	"github.com/ptbatch/ptbatch/registry"
)

// explorerFlags are the settings of the models explored by a local move
// (--model funnel): --explorer, and the funnel's --scale (its --dim is
// the Gaussian's flag, read with another default).
type explorerFlags struct {
	explorer string
	scale    float64
}

// funnelDim is the funnel's dimension when --dim is not given.
const funnelDim = 10

// explorers maps --explorer's names to the explorers, with their
// defaults (registry.NewExplorer's).
var explorers = func() map[string]models.Explorer {
	out := map[string]models.Explorer{}
	for _, name := range registry.ExplorerNames {
		out[name], _ = registry.NewExplorer(name)
	}
	return out
}()

const explorerNames = "rwm, slice, mala, automala, hmc or autohmc"

// addExplorerFlags declares --scale and --explorer.
func addExplorerFlags(c *cmdFlags, e *explorerFlags) {
	c.section(fmt.Sprintf("--model funnel: Neal's funnel, v ~ N(0, S²) and x_i | v ~ N(0, e^v) for i < D; reference N(0, I); --dim D (default %d)", funnelDim))
	c.Float64(&e.scale, "scale", 3, fmt.Sprintf("the standard deviation S of v, in [%g, %g]", models.MinFunnelScale, models.MaxFunnelScale))
	c.String(&e.explorer, "explorer", "automala", "--model funnel: the local exploration, "+explorerNames+" (random walk, slice sampler, MALA, autoMALA, HMC with 10 leapfrog steps and its step adapted between scans, or chosen at every move by autoHMC)")
}

// checkExplorerApplies refuses --explorer for a model whose moves are
// exact draws or Gibbs sweeps, which no explorer replaces: every model
// but those with an "explorer" parameter in the registry.
func (f *runFlags) checkExplorerApplies() error {
	name := registryName(f.model)
	if f.model == registry.Funnel {
		name = registry.Funnel
	}
	if m, ok := registry.Lookup(name); !ok || !hasParam(m, "explorer") {
		return f.flags.bad("explorer", "applies only to --model funnel; --model %s has exact or Gibbs moves of its own", f.model)
	}
	return nil
}

// hasParam reports whether m has the parameter name.
func hasParam(m registry.Model, name string) bool {
	_, ok := m.Param(name)
	return ok
}

// buildFunnel builds the funnel of --dim, --scale and --explorer.
func (f *runFlags) buildFunnel() (models.Model, error) {
	c := f.flags
	ex, ok := explorers[f.ex.explorer]
	if !ok {
		return nil, c.bad("explorer", "want %s", explorerNames)
	}
	dim := f.dim
	if !c.set("dim") {
		dim = funnelDim
	}
	switch {
	case dim < 2:
		return nil, c.bad("dim", "the funnel needs at least 2 (v and one x)")
	case !(f.ex.scale >= models.MinFunnelScale && f.ex.scale <= models.MaxFunnelScale):
		return nil, c.bad("scale", "must be in [%g, %g]: beyond, e^{-v} overflows float64", models.MinFunnelScale, models.MaxFunnelScale)
	}
	m, err := models.NewFunnel(dim, f.ex.scale, ex)
	if err != nil {
		return nil, usagef("funnel: %v", err)
	}
	return m, nil
}

// funnelSettings lists the funnel's settings for the JSON config.
func funnelSettings(f *runFlags, m models.Model) map[string]any {
	return map[string]any{"dim": models.NumObservables(m), "scale": f.ex.scale, "explorer": f.ex.explorer}
}

// warnInvalidProposals prints, on stderr, one line for a run whose
// explorer met chains at which every proposal of a scan had a NaN or −Inf
// density (models.ProposalReport): rejections, but a sign of a broken
// target.
func warnInvalidProposals(stderr io.Writer, cfg batch.Config) {
	c, ok := models.ProposalReport(cfg.Model, cfg.Replicates)
	if !ok || len(c.Warnings) == 0 {
		return
	}
	w := c.Warnings[0]
	var b strings.Builder
	fmt.Fprintf(&b, "warning: %d of %d proposals had a NaN or -Inf log density; at %d (replicate, chain, scan) all did, the first at replicate %d, chain %d, scan %d",
		c.Invalid, c.Proposals, len(c.Warnings)+c.Dropped, w.Replicate, w.Chain, w.Scan)
	fmt.Fprintln(stderr, b.String())
}

// addProposals adds a batch.Proposals to cfg for a model whose explorers
// count their proposals (models.ProposalReport's models: FromFuncs and the
// funnel) and returns it; nil, and nothing added, for the other models,
// whose output and checkpoints stay as they were.
func addProposals(cfg *batch.Config) *batch.Proposals {
	if _, ok := models.ProposalReport(cfg.Model, 0); !ok {
		return nil
	}
	p := new(batch.Proposals)
	cfg.Statistics = append(cfg.Statistics, p)
	return p
}

// addProposalsJSON adds "proposals" and "invalid_proposals", per
// replicate and chain over the completed scans (the whole run's after a
// resume), when the run counted them.
func (s *runStats) addProposalsJSON(out map[string]any) {
	if s.props == nil {
		return
	}
	out["proposals"] = s.props.Proposed()
	out["invalid_proposals"] = s.props.Invalid()
}
