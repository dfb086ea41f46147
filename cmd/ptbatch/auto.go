package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/internal/cliflag"
)

// --chains auto: pilot runs estimate the barrier Λ of the automatically
// tuned path and choose the number of chains N that maximises round trips
// per unit of work, τ(N)/N (batch.ChooseDefaultChains, tune.BestChains).

// addChainsFlag defines --chains.
func addChainsFlag(c *cmdFlags, n *int, auto *bool) {
	*n = 50
	c.Var(cliflag.IntOrAuto{N: n, Auto: auto}, "chains", "number of chains, `N|auto`: N from 2 to 2147483647 (schedule points t_0=0 … t_{N−1}=1), or auto: pilot runs of the automatic tuner estimate the tuned path's barrier Λ and choose the N that maximises round trips per unit of work, τ(N)/N with τ(N) = 1/(2 + 2Λ/(1 − Λ/(N−1))) (about 2Λ+1); the pilots use a tenth of --iterations (at least 2000), at most 8 replicates, and their cost is reported (default 50)")
}

// checkChainsAuto refuses --chains auto where it does not apply.
func (f *runFlags) checkChainsAuto() error {
	c := f.flags
	switch {
	case f.tuning != "auto":
		return c.bad("chains", "applies only with --tuning auto: the pilots estimate the barrier of the automatically tuned path")
	case f.algorithm != "nrpt":
		return c.bad("chains", "applies only to --algorithm nrpt, whose round-trip rate 1/(2 + 2Λ/(1 − Λ/(N−1))) the choice maximises")
	}
	if sh, err := resolveShard(c, &f.shard); err == nil && sh != nil {
		return c.bad("chains", "cannot be chosen by each shard of a merged run: run ptbatch run --chains auto once (without shards) and give the chains it prints to every shard")
	}
	return nil
}

// chooseChains runs the pilots of --chains auto and sets cfg.Chains,
// before prepareRun checks the run's memory and validates it. It prints
// the choice on stderr unless --quiet.
func (f *runFlags) chooseChains(ctx context.Context, cfg *batch.Config, stderr io.Writer) error {
	if !f.chainsAuto {
		return nil
	}
	t0 := time.Now()
	choice, err := batch.ChooseDefaultChains(ctx, *cfg)
	if err != nil {
		if ctx.Err() != nil {
			return interruptedf("interrupted during the pilots of --chains auto")
		}
		return err
	}
	f.chainsChoice = &choice
	cfg.Chains = choice.Chains
	if !f.quiet {
		fmt.Fprintf(stderr, "ptbatch: --chains auto: %d chains for the pilots' barrier Λ ≈ %.3f (%d pilot(s), %d chain-iterations, %.1f s)\n",
			choice.Chains, choice.Barrier, len(choice.Pilots), choice.ChainIterations(), time.Since(t0).Seconds())
	}
	return nil
}

// logZScans names the samples log Z uses, for the table.
func logZScans(cfg batch.Config) string {
	if cfg.Tuning == batch.AutoTuning {
		return "last 10% of iterations"
	}
	return "last scan"
}
