package main

import (
	"fmt"
	"io"
	"slices"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/internal/modelflag"
	"github.com/ptbatch/ptbatch/models"
	"github.com/ptbatch/ptbatch/registry"
)

// checkExplorerApplies refuses --explorer for a model whose moves are
// exact draws or Gibbs sweeps, which no explorer replaces: every model
// but those with an "explorer" parameter in the registry.
func (f *runFlags) checkExplorerApplies() error {
	if m, _ := registry.Lookup(modelflag.RegistryName(f.flags.IsSet, f.model)); !slices.ContainsFunc(m.Params, func(p registry.Param) bool { return p.Name == "explorer" }) {
		return f.flags.bad("explorer", "applies only to --model funnel; --model %s has exact or Gibbs moves of its own", f.model)
	}
	return nil
}

// warnInvalidProposals prints, on stderr, the line of a run whose
// explorer met chains at which every proposal of a scan was invalid
// (models.ProposalCounts.Warning).
func warnInvalidProposals(stderr io.Writer, cfg batch.Config) {
	if c, _ := models.ProposalReport(cfg.Model, cfg.Replicates); c.Warning() != "" {
		fmt.Fprintln(stderr, c.Warning())
	}
}
