package main

import (
	"fmt"
	"io"

	"github.com/ptbatch/ptbatch/runout"
)

// addDiagTable adds the diagnostics' lines to the human table: per
// observable R-hat, bulk- and tail-ESS, the mean ± MCSE and the
// quantiles, then the number of warnings.
func addDiagTable(tw io.Writer, r *runout.Diagnostics) {
	for k, s := range r.Sums {
		if r.Errs[k] != nil {
			fmt.Fprintf(tw, "diagnostics of %s\t%s\n", r.Names[k], runout.ErrText(r.Errs[k]))
			continue
		}
		fmt.Fprintf(tw, "diagnostics of %s (%d replicates as chains)\tR-hat %.4f, bulk-ESS %.4g, tail-ESS %.4g of %d draws; mean %.6g ± %.2g (MCSE); 5/50/95%% quantiles %.4g, %.4g, %.4g\n",
			r.Names[k], s.Chains, s.Rhat, s.ESSBulk, s.ESSTail, s.Chains*s.Draws, s.Mean, s.MCSE, s.Quantiles[0], s.Quantiles[1], s.Quantiles[2])
	}
	switch n := len(r.Warnings); n {
	case 0:
		fmt.Fprintf(tw, "warnings\tnone\n")
	default:
		fmt.Fprintf(tw, "warnings\t%d, on stderr\n", n)
	}
}
