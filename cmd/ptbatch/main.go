// Command ptbatch runs non-reversible parallel tempering on optimized
// annealing paths for many independent replicates at once.
//
// `ptbatch help` lists the commands (run, sweep, reproduce, bench, study
// and merge; none runs the default study), `ptbatch help CMD` a command's
// flags.
//
// Bad input prints one line on stderr and exits with status 2; an
// interrupted run reports what it finished and exits with status 130
// (SIGINT), 143 (SIGTERM) or 129 (SIGHUP, the hang-up of a closed
// terminal or ssh session); a run that finished exits 0 even when a signal
// came while it wrote its files.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/internal/cliflag"
	"github.com/ptbatch/ptbatch/runloop"
)

func main() {
	ctx, stop := runloop.SignalContext() // SIGINT, SIGTERM, SIGHUP; a second ends the process
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	sig := stop()
	os.Exit(exitStatus(err, sig, os.Stderr))
}

// exitStatus prints err and returns the exit status: that of exitCode, or
// 128 + the signal number (130 for SIGINT, 143 for SIGTERM, 129 for
// SIGHUP) when a signal stopped the program and the input was good. A
// command that completed (err nil) exits 0 whatever signal came once its
// work was done: its files say complete, and so does its status.
func exitStatus(err error, sig syscall.Signal, stderr io.Writer) int {
	code := exitCode(err, stderr)
	if sig != 0 && code != 2 && code != 0 {
		return 128 + int(sig)
	}
	return code
}

// usageError is bad input from the user: exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// interruptedError reports that the context was cancelled (Ctrl-C or
// SIGTERM) and that what was finished has been printed and written.
type interruptedError struct{ msg string }

func (e *interruptedError) Error() string { return e.msg }

func interruptedf(format string, args ...any) error {
	return &interruptedError{fmt.Sprintf(format, args...)}
}

// exitCode prints err (one line) and returns the exit status: 0 for no
// error or help, 2 for bad input, 130 for an interrupted run (the status
// of SIGINT; main uses the signal's own), 1 for anything else.
func exitCode(err error, stderr io.Writer) int {
	err = usage(err) // a cliflag refusal not passed through cmdFlags
	var ue *usageError
	var ie *interruptedError
	switch {
	case err == nil, errors.Is(err, cliflag.ErrHelp):
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "ptbatch: %s\n", ue.msg)
		return 2
	case errors.As(err, &ie):
		fmt.Fprintf(stderr, "ptbatch: %s\n", ie.msg)
		return 128 + int(syscall.SIGINT)
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(stderr, "ptbatch: interrupted")
		return 128 + int(syscall.SIGINT)
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
  ptbatch study FILE.toml --out DIR
                        every model × method × seed of a study file, lists as grid
                        axes: cells.csv, summary.csv/json, results.md, figures
  ptbatch merge --out DIR SHARD_DIR...
                        combine the shards of a run, sweep, reproduce or study (--shard i/n,
                        Slurm job arrays, Kubernetes Indexed Jobs) into what one
                        process writes
  ptbatch help [CMD]    this text, or CMD's flags (also ptbatch CMD --help)

Bad input prints one line on stderr and exits with status 2. Ctrl-C (SIGINT),
SIGTERM or SIGHUP stops a run within milliseconds; what is finished is printed and
written, marked "interrupted", and the status is 130 (SIGINT), 143 (SIGTERM) or
129 (SIGHUP). A run that finished exits 0.
`

// subcommands maps each subcommand to its function.
var subcommands = map[string]func(context.Context, []string, io.Writer, io.Writer) error{
	"run": runOne, "bench": runBench, "sweep": runSweep, "reproduce": runReproduce, "merge": runMerge, "study": runStudyFile,
}

// run is the whole program: it parses args, writes results to stdout and
// diagnostics to stderr, and returns an error whose kind sets the exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return runStudy(ctx, stdout, stderr)
	}
	if cmd, ok := subcommands[args[0]]; ok {
		return cmd(ctx, args[1:], stdout, stderr)
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		if len(args) > 2 {
			return usagef("unexpected argument %q: ptbatch help takes one command", args[2])
		}
		if len(args) == 2 && args[1] != "help" {
			cmd, ok := subcommands[args[1]]
			if !ok {
				return usagef("unknown command %q for help (want run, sweep, reproduce, bench, study or merge)", args[1])
			}
			return cmd(ctx, []string{"--help"}, stdout, stderr)
		}
		fmt.Fprint(stdout, topUsage)
		return cliflag.ErrHelp
	}
	return usagef("unknown command %q (want run, sweep, reproduce, bench, study, merge or help; no arguments runs the default study)", args[0])
}

// configFlags maps batch.Config's fields to the flags that set them.
var configFlags = map[string]string{
	"Model": "model", "Chains": "chains", "Replicates": "replicates", "Iterations": "iterations",
	"Scans": "scans", "Knots": "knots", "LearningRate": "lr", "Gradient": "gradient",
	"Workers": "workers", "Algorithm": "algorithm", "KeepScans": "keep-scans", "Seed": "seed", "Tuning": "tuning",
}

// configUsage turns a configuration error into a usage error that names
// the flag and its value as typed: "invalid --chains 1: need at least 2
// chains".
func configUsage(c *cmdFlags, err error) error {
	var ce *batch.ConfigError
	if errors.As(err, &ce) {
		if flag, ok := configFlags[ce.Field]; ok && c.fs.Lookup(flag) != nil {
			return c.bad(flag, "%s", ce.Why)
		}
	}
	return usagef("%v", err)
}
