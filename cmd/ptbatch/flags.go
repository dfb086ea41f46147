package main

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/internal/modelflag"
	"github.com/ptbatch/ptbatch/models"
	"github.com/ptbatch/ptbatch/registry"
	"github.com/ptbatch/ptbatch/runout"
	"github.com/ptbatch/ptbatch/study"
)

// runFlags are the settings of `ptbatch run`.
type runFlags struct {
	model       string
	chains      int
	algorithm   string
	path        string
	knots       int
	lr          float64
	gradient    string
	reference   string
	variational string // --variational: the variational reference's family (issue 22)
	iterations  int
	scans       int
	replicates  int
	seed        uint64
	workers     int
	pin         bool
	tuneSched   bool
	jsonOut     bool
	out         string
	quiet       bool
	keepScans   int
	thin        int
	maxMemory   int64
	shard       shardFlags // --shard, --shards (shard.go)

	// --checkpoint, --checkpoint-every, --resume (checkpoint.go)
	ck checkpointFlags

	// --tuning, and --chains auto with what its pilots chose (auto.go)
	tuning       string
	chainsAuto   bool
	chainsChoice *batch.ChainsChoice

	// --record index (indexout.go)
	record        string
	indexWindow   int
	indexThin     int
	indexReplicas int

	// the models' flags are the registry's (modelflag.Add)

	flags    *cmdFlags
	warnings []string // printed on stderr once every check has passed
	need     int64    // the estimated memory of the run (of its shard)
	chosen   string   // --chains auto's line, printed once nothing is refused
}

// newRunFlagSet declares every flag of `ptbatch run` with its help text.
func newRunFlagSet(f *runFlags) *cmdFlags {
	c := newCmdFlags("run")
	c.String(&f.model, "model", "gaussian", "target model: gaussian, betabinomial, galaxy (6-component mixture on the galaxy velocities), mixture (2 components, 1000 simulated points; --data for your own observations) or funnel (Neal's funnel)"+otherModelsHelp())
	addChainsFlag(c, &f.chains, &f.chainsAuto)
	c.String(&f.algorithm, "algorithm", "nrpt", "communication: nrpt (deterministic even/odd swaps) or reversible (fair coin per iteration)")
	c.String(&f.tuning, "tuning", "auto", "how the schedule and path are tuned: auto (rounds that grow as the SKL settles, Rprop steps of the knots, then path and schedule fixed for the rest of the run; no --lr or --scans) or paper (the paper's Algorithm 2: after each of --scans equal scans, the schedule update and one Adagrad step of --lr) (default auto for nrpt, paper for reversible; --scans, --lr and --gradient full are the paper's settings and select paper unless --tuning is given)")
	c.String(&f.path, "path", "", "annealing path: spline (K-knot spline tuned by the SKL surrogate) or linear (default spline with --tuning auto, linear with --tuning paper)")
	c.Int(&f.knots, "knots", 4, "--path spline: number K of spline segments, at most --chains − 1 (K=1 is the linear path)")
	c.Float64(&f.lr, "lr", 0.2, "--tuning paper, --path spline with K ≥ 2: Adagrad learning rate of the spline knots")
	c.String(&f.reference, "reference", "fixed", "reference distribution: fixed (the model's own), variational (a Gaussian per replicate, diagonal or dense by --variational, refitted to the target chain's states over the tuning scans, then frozen; for models whose state is unconstrained real; log Z stays log(Z1/Z0) of the model's own reference) or stabilized (two legs joined at the target, as in Surjanovic et al. 2022: --chains − ⌊--chains/2⌋ chains from the model's own reference on --path, ⌊--chains/2⌋ to the variational Gaussian on the linear path; log Z, samples and moments from the first; the table and --json give each leg's figures)")
	c.String(&f.variational, "variational", "", "--reference variational: the Gaussian family, diag (N(m, diag(s²))) or dense (N(m, Σ), Σ the sample covariance of the target chain's states, sampled through its Cholesky factor) (default diag)")
	c.String(&f.gradient, "gradient", "block", "--path spline with K ≥ 2: SKL gradient covariance, block (within-chain, lower variance) or full (the paper's matrix form; --tuning paper only)")
	c.Int(&f.iterations, "iterations", 45000, "total iterations (one local exploration + one communication step of every chain)")
	c.Int(&f.scans, "scans", 150, "--tuning paper: number of equal scans; the schedule (and path) are tuned after each; must divide --iterations (--tuning auto uses scans of about a thousandth of --iterations)")
	c.Int(&f.replicates, "replicates", 10, "number of independent replicate runs")
	c.Uint64(&f.seed, "seed", 1, "random seed; replicate b uses the stream of (seed, b)")
	c.Int(&f.workers, "workers", 0, "worker goroutines sharding the replicates, at most one per block of 8 replicates (default 0: all CPUs)")
	c.Bool(&f.pin, "pin", false, "pin workers to CPUs, NUMA nodes interleaved (Linux)")
	c.Bool(&f.tuneSched, "tune-schedule", true, "tune the schedule after every scan (eq. equicrit) (default true for nrpt, false for reversible)")
	c.Bool(&f.jsonOut, "json", false, "print one JSON object instead of the table")
	c.String(&f.out, "out", "", "directory for CSV files: per-scan statistics, final knots and schedules, and samples.csv (the kept target-chain states, written as each scan ends)")
	c.Int(&f.keepScans, "keep-scans", 0, "--json or --out: number of final scans whose target-chain states are kept as samples (samples.csv, target_means); --tuning auto tunes only before them (default 0: the last half)")
	c.Int(&f.thin, "thin", 1, "--out: keep the target-chain state of every --thin-th iteration in samples.csv")
	c.String(&f.record, "record", "", "--out: also record the index process: index.csv (replicate,iteration,replica,chain) and index.png/svg, within --index-window and --index-thin (index; default: no record)")
	c.Int(&f.indexWindow, "index-window", 1000, "--record index: record the last N iterations of the run (0: every iteration), which bounds index.csv")
	c.Int(&f.indexThin, "index-thin", 1, "--record index: record every K-th iteration of the window")
	c.Int(&f.indexReplicas, "index-replicas", 4, "--record index: number of replicas followed, spread evenly from the one that starts at the reference to the one that starts at the target, at most --chains (0: all of them, the whole index process)")
	addShardFlags(c, &f.shard)
	addCheckpointFlags(c, &f.ck)
	c.Bool(&f.quiet, "quiet", false, "no progress lines on stderr")
	c.Size(&f.maxMemory, "max-memory", "refuse runs whose estimated memory exceeds this size, such as 512MiB or 4GiB (default: the available memory)")

	modelflag.Add(c.Set, append(modelflag.SectionModels(true), modelflag.SectionModels(false)...))
	return c
}

// modelFlags lists the flags of each model --model names
// (modelflag.ByModel); flagOwners the models of each flag.
var (
	modelFlags = modelflag.ByModel()
	flagOwners = modelflag.Owners(modelFlags)
)

const runIntro = `Usage: ptbatch run [flags]

Runs one configuration for --replicates independent replicates and prints a table (or --json).
Flags that do not apply to the chosen model, path or output are refused.`

// parseRunFlags parses args into f, checks every value that does not
// need the model, and resolves the defaults that depend on other flags
// (resolve).
func parseRunFlags(args []string, stdout io.Writer) (*runFlags, error) {
	f := &runFlags{}
	c := newRunFlagSet(f)
	f.flags = c
	if err := c.parse(args, stdout, runIntro); err != nil {
		return nil, err
	}
	if err := c.checkFinite(); err != nil {
		return nil, err
	}
	if _, ok := modelFlags[f.model]; !ok {
		return nil, c.bad("model", "want %s", modelflag.OrList(modelflag.RunModels()))
	}
	if _, err := batch.ParseAlgorithm(f.algorithm); err != nil {
		return nil, c.bad("algorithm", "want nrpt or reversible")
	}
	if _, err := batch.ParseTuning(f.tuning); err != nil {
		return nil, c.bad("tuning", "want auto or paper")
	}
	f.resolve()
	if f.path != "linear" && f.path != "spline" {
		return nil, c.bad("path", "want linear or spline")
	}
	if err := f.checkApplies(); err != nil {
		return nil, err
	}
	return f, nil
}

// resolve gives the flags not given the defaults that depend on others,
// once, before anything reads them (the manifest records them so): the
// paper's settings select the paper's tuning and the path is the
// tuning's, by a study file's rules (study.DefaultTuning, DefaultPath),
// the schedule is tuned for nrpt, the automatic tuner chooses its scans,
// and --chains auto starts with the first pilot's chains (auto.go).
func (f *runFlags) resolve() {
	c := f.flags
	if !c.IsSet("tuning") {
		f.tuning = study.DefaultTuning(f.algorithm, c.IsSet("scans"), c.IsSet("lr"), f.gradient)
	}
	if !c.IsSet("path") {
		f.path = study.DefaultPath(f.tuning)
	}
	if !c.IsSet("tune-schedule") {
		f.tuneSched = f.algorithm != "reversible"
	}
	if f.tuning == "auto" {
		f.scans = max(batch.AutoScans(f.iterations), 1) // --scans does not apply
	}
	if f.chainsAuto {
		f.chains = batch.PilotChains // runOne chooses the run's (auto.go)
	}
}

// checkApplies refuses, in command-line order, the flags given that do not
// apply to the model, path or output chosen, saying what applies.
func (f *runFlags) checkApplies() error {
	c := f.flags
	for _, name := range c.given {
		if owners, ok := flagOwners[name]; ok && !slices.Contains(modelFlags[f.model], name) {
			takes := "takes no model flags (its data and prior are fixed)"
			if names := modelFlags[f.model]; len(names) > 0 {
				takes = "takes " + modelflag.FlagList(names)
			}
			return c.bad(name, "applies only to %s; --model %s %s", modelflag.ModelOwners(owners), f.model, takes)
		}
		if (name == "lr" || name == "scans") && f.tuning == "auto" {
			return c.bad(name, "applies only to --tuning paper; the automatic tuner (--tuning auto) takes no learning rate and chooses its scans and rounds itself")
		}
		if err := f.checkApply(name); err != nil {
			return err
		}
	}
	return nil
}

// checkApply refuses the flag name, given, where the path, the data or
// the output chosen does not use it.
func (f *runFlags) checkApply(name string) error {
	c := f.flags
	switch name {
	case "explorer":
		return f.checkExplorerApplies()
	case "draws", "trials", "success-prob":
		if c.IsSet("successes") || c.IsSet("total-trials") {
			return c.bad(name, "simulates the data, which --successes and --total-trials give directly; give one or the other")
		}
	case "knots":
		if f.path != "spline" {
			return c.bad(name, "applies only to --path spline (the linear path has no knots)")
		}
	case "lr", "gradient":
		if f.path != "spline" {
			return c.bad(name, "applies only to a tuned spline path (--path spline, --knots 2 or more)")
		}
		if f.knots < 2 {
			return c.bad(name, "applies only to a tuned spline path; --knots %s is the linear path, which is not tuned", c.Show("knots"))
		}
	case "thin":
		if f.out == "" {
			return c.bad(name, "applies only to samples.csv, written with --out DIR")
		}
	case "record":
		if f.out == "" && f.record != "" {
			return c.bad(name, "writes index.csv and index.png, which need --out DIR")
		}
	case "index-window", "index-thin", "index-replicas":
		if f.record != "index" {
			return c.bad(name, "applies only to --record index")
		}
	case "keep-scans":
		if f.out == "" && !f.jsonOut {
			return c.bad(name, "applies only to target_means (--json) and samples.csv (--out DIR); the table reports the last scan")
		}
	}
	return nil
}

// config builds the run's engine configuration from the flags, once:
// it checks every value (check), builds the model, and takes the flags'
// study.Method over batch.DefaultConfig (study.Run.ConfigUnchecked), with
// the workers and pinning. prepareRun checks the memory once the run is
// narrowed to its shard, and validates the configuration after it (its
// model's observables are listed then), before the paths and --out
// (runcmd.go).
func (f *runFlags) config() (batch.Config, error) {
	if err := f.check(); err != nil {
		return batch.Config{}, err
	}
	m, err := f.buildModel()
	if err != nil {
		return batch.Config{}, err
	}
	run := study.Run{Method: f.method(), Seed: f.seed, Iterations: f.iterations, Replicates: f.replicates}
	cfg, err := run.ConfigUnchecked(m) // its one error left is --reference's (issue 22)
	cfg.Workers, cfg.Pin = f.workers, f.pin
	if err != nil {
		return cfg, usagef("--reference %s: %v", f.reference, errors.Unwrap(err))
	}
	return cfg, nil
}

// method returns the run's settings as a study.Method (the flags are
// resolved and checked): the linear path is one knot, and a spline of
// one knot is linear too; --reference fixed is the model's own.
func (f *runFlags) method() study.Method {
	knots := 1
	if f.path == "spline" {
		knots = f.knots
	}
	return study.Method{Label: "run", Algorithm: f.algorithm, Tuning: f.tuning, Chains: f.chains, Scans: f.scans,
		Knots: knots, LearningRate: f.lr, TuneSchedule: &f.tuneSched, Gradient: f.gradient, KeepScans: f.keepScans, Reference: f.reference, Variational: f.variational}
}

// check refuses, one line each, the values of the flags the run cannot
// take, in a fixed order: --chains auto where it does not apply, the
// sizes (runout.Spec.CheckSizes), the paths (before --checkpoint's
// directory is tried), the checkpoint flags, --record and the spline
// path's settings (runout.Spec.CheckPath, whose warnings are kept).
func (f *runFlags) check() error {
	if f.chainsAuto {
		if err := f.checkChainsAuto(); err != nil {
			return err
		}
	}
	tuning, _ := batch.ParseTuning(f.tuning) // checked by parseRunFlags
	s := runout.Spec{Tuning: tuning, Chains: f.chains, Replicates: f.replicates, Iterations: f.iterations, Scans: f.scans,
		Workers: f.workers, Thin: f.thin, KeepScans: f.keepScans, ChainsAuto: f.chainsAuto, Reference: f.reference, Variational: f.variational,
		Spline: f.path == "spline", Knots: f.knots, LearningRate: f.lr, Gradient: f.gradient}
	if err := s.CheckSizes(); err != nil {
		return refusal(f.flags, err)
	}
	if err := f.checkPaths(); err != nil { // paths.go
		return err
	}
	if err := f.ck.check(f.flags); err != nil {
		return err
	}
	if err := f.checkRecord(); err != nil {
		return err
	}
	warnings, err := s.CheckPath()
	f.warnings = append(f.warnings, warningLines(f.flags, "lr", warnings)...)
	return refusal(f.flags, err)
}

// refusal turns the error of a runout check into the command line's one
// line, naming the flags and their values as typed; other errors are
// returned as they are.
func refusal(c *cmdFlags, err error) error {
	var se *runout.SettingError
	var ke *runout.KnotsError
	switch {
	case errors.As(err, &ke):
		return knotsLimit(c, ke.Knots, ke.Chains, c.Show("chains"))
	case errors.As(err, &se):
		return c.bad(se.Setting, "%s", se.Reason(func(s string) string { return "--" + s }, c.Show))
	}
	return err
}

// warningLines returns the lines of the warnings about flag name, its
// value as typed.
func warningLines(c *cmdFlags, name string, warnings []runout.Warning) []string {
	var out []string
	for _, w := range warnings {
		out = append(out, fmt.Sprintf("warning: --%s %s %s", name, c.Show(name), w.Why))
	}
	return out
}

// knotsLimit is the error for more spline segments than chains − 1,
// naming --knots when it was given and --chains otherwise.
func knotsLimit(c *cmdFlags, knots, chains int, chainsText string) error {
	if c.IsSet("knots") {
		return usagef("invalid --knots %d: at most chains − 1 = %d segments with %s chains: %s", knots, chains-1, chainsText, runout.KnotsWhy)
	}
	return usagef("invalid --chains %s: --knots %d (the default) needs at least %d chains: %s", chainsText, knots, knots+1, runout.KnotsWhy)
}

// checkMemory estimates the memory of the run of cfg (the shard's
// replicates when sharded, issue 19) with its statistics and outputs
// (runout.RunMemory), and refuses it when it exceeds the limit; what
// names the run in the message.
func (f *runFlags) checkMemory(cfg batch.Config, what string) (need int64, err error) {
	need, err = runout.RunMemory(cfg, f.statsOptions(&cfg), f.jsonOut)
	return need, checkMemoryOf(f.flags, what, f.maxMemory, need, err, []sizeFlag{
		{"chains", float64(cfg.Chains), 50}, {"replicates", float64(f.replicates), 10},
		{"dim", flagNumber(f.flags, "dim"), 1}, {"knots", float64(f.knots), 4},
		{"iterations", float64(f.iterations), 45000}, {"scans", float64(f.scans), 150},
	})
}

// buildModel constructs the model named by --model from its flags: the
// registry checks and builds it (registryName, modelValues).
func (f *runFlags) buildModel() (models.Model, error) {
	name := modelflag.RegistryName(f.flags.IsSet, f.model)
	v, t, err := modelValues(f.flags, name)
	if err != nil {
		return nil, err
	}
	if name == registry.Logistic && t["data"] == "" {
		return nil, usagef("--model %s needs --data FILE.csv", f.model)
	}
	m, err := registry.NewWithTexts(name, v, t, f.seed)
	return m, paramRefusal(f.flags, err, same, nil)
}
