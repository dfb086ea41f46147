// Command ptbatch runs non-reversible parallel tempering on optimized
// annealing paths for many independent replicates at once.
//
// Usage:
//
//	ptbatch                 the built-in default study (the paper's Gaussian)
//	ptbatch run [flags]     one configuration; --help lists the flags
//	ptbatch sweep [flags]   a grid of the high-dimensional Gaussian
//	ptbatch reproduce EXP   the paper's experiments, CSVs and figures
//	ptbatch bench [flags]   engine vs scalar engine vs roofline
//
// Bad input prints one line on stderr and exits with status 2.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/ptbatch/ptbatch/batch"
)

func main() {
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	cancel()
	os.Exit(exitCode(err, os.Stderr))
}

// usageError is bad input from the user: exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// errHelp reports that help was printed on request.
var errHelp = errors.New("help requested")

func exitCode(err error, stderr io.Writer) int {
	var ue *usageError
	switch {
	case err == nil, errors.Is(err, errHelp):
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "ptbatch: %s\n", ue.msg)
		return 2
	default:
		fmt.Fprintf(stderr, "ptbatch: %v\n", err)
		return 1
	}
}

const topUsage = `ptbatch: non-reversible parallel tempering on optimized annealing paths,
many independent replicates at once.

Usage:
  ptbatch               run the default study: the paper's Gaussian experiment
                        (N(-1, 0.01²) → N(1, 0.01²), 50 chains, 45,000 iterations
                        in 150 scans, 10 replicates) for each method, as a table
  ptbatch run [flags]   run one configuration (ptbatch run --help lists the flags)
  ptbatch sweep [flags] a grid over dimension, chains, knots and seeds (Figure 5)
  ptbatch reproduce gaussian|betabinomial|galaxy|mixture|highdim|all --out DIR
                        the paper's experiments with its settings: CSVs and figures
  ptbatch bench [flags] time the engine against a scalar engine and a roofline
  ptbatch help          this text
`

// run is the whole program: it parses args, writes results to stdout and
// diagnostics to stderr, and returns an error whose kind sets the exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return runStudy(ctx, stdout, stderr)
	}
	switch args[0] {
	case "run":
		return runOne(ctx, args[1:], stdout, stderr)
	case "bench":
		return runBench(ctx, args[1:], stdout, stderr)
	case "sweep":
		return runSweep(ctx, args[1:], stdout, stderr)
	case "reproduce":
		return runReproduce(ctx, args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, topUsage)
		return errHelp
	}
	return usagef("unknown command %q (want run, sweep, reproduce, bench or help; no arguments runs the default study)", args[0])
}

// configFlags maps batch.Config's fields to the flags that set them.
var configFlags = map[string]string{
	"Model": "model", "Chains": "chains", "Replicates": "replicates", "Iterations": "iterations",
	"Scans": "scans", "Knots": "knots", "LearningRate": "lr", "Gradient": "gradient",
	"Workers": "workers", "Algorithm": "algorithm", "KeepScans": "keep-scans", "Seed": "seed",
}

// configUsage turns a configuration error into a usage error that names
// the flag: "invalid --chains 1: need at least 2 chains".
func configUsage(err error) error {
	var ce *batch.ConfigError
	if errors.As(err, &ce) {
		if flag, ok := configFlags[ce.Field]; ok {
			return usagef("invalid --%s %v: %s", flag, ce.Value, ce.Why)
		}
	}
	return usagef("%v", err)
}
