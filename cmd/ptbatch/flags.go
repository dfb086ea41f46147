package main

import (
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strings"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/layout"
	"github.com/ptbatch/ptbatch/models"
	"github.com/ptbatch/ptbatch/registry"
	"github.com/ptbatch/ptbatch/study"
)

// runFlags are the settings of `ptbatch run`.
type runFlags struct {
	model      string
	chains     int
	algorithm  string
	path       string
	knots      int
	lr         float64
	gradient   string
	reference  string
	iterations int
	scans      int
	replicates int
	seed       uint64
	workers    int
	pin        bool
	tuneSched  bool
	jsonOut    bool
	out        string
	quiet      bool
	keepScans  int
	thin       int
	maxMemory  int64
	shard      shardFlags // --shard, --shards (shard.go)

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

	// gaussian
	dim                      int
	mu0, mu1, sigma0, sigma1 float64
	// betabinomial
	priorA, priorB   float64
	draws, trials    int
	successProb      float64
	successes, total int64
	// funnel: --scale, --explorer (explorer.go)
	ex explorerFlags

	flags    *cmdFlags
	warnings []string // printed on stderr once every check has passed
	need     int64    // the estimated memory of the run (of its shard)
	chosen   string   // --chains auto's line, printed once nothing is refused

	variational string // --variational: the variational reference's family (issue 22)
}

// maxChains is the largest number of chains: the index process stores
// replica numbers as int32.
const maxChains = math.MaxInt32

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
	c.String(&f.reference, "reference", "fixed", "reference distribution: fixed (the model's own) or variational (a Gaussian per replicate, diagonal or dense by --variational, refitted to the target chain's states over the tuning scans, then frozen; for models whose state is unconstrained real; log Z stays log(Z1/Z0) of the model's own reference)")
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

	c.section("--model gaussian: reference N(μ0·1, σ0² I), target N(μ1·1, σ1² I)")
	c.Int(&f.dim, "dim", 1, "dimension d")
	c.Float64(&f.mu0, "mu0", -1, "reference mean (every coordinate), in [-1e100, 1e100]")
	c.Float64(&f.mu1, "mu1", 1, "target mean (every coordinate), in [-1e100, 1e100]")
	c.Float64(&f.sigma0, "sigma0", 0.01, "reference standard deviation, in [1e-100, 1e100]")
	c.Float64(&f.sigma1, "sigma1", 0.01, "target standard deviation, in [1e-100, 1e100]")

	c.section("--model betabinomial: prior Beta(a, b), binomial data simulated from --seed or given as totals")
	c.Float64(&f.priorA, "prior-a", 180, "prior shape a, in [1e-6, 1e15]")
	c.Float64(&f.priorB, "prior-b", 840, "prior shape b, in [1e-6, 1e15]")
	c.Int(&f.draws, "draws", 2000, "number of Binomial observations simulated from the seed")
	c.Int(&f.trials, "trials", 100, "trials per observation (--draws × --trials at most 1e9)")
	c.Float64(&f.successProb, "success-prob", 0.7, "success probability of the simulated data")
	c.Int64(&f.successes, "successes", -1, "give the data directly as total successes S (with --total-trials) instead of simulating; S=140000 of 200000 reproduces the paper's Beta(140180, 60840) (default: simulate)")
	c.Int64(&f.total, "total-trials", -1, "total trials R for --successes (default: simulate)")
	addExplorerFlags(c, &f.ex)
	addRegistryFlags(c)
	return c
}

const runIntro = `Usage: ptbatch run [flags]

Runs one configuration for --replicates independent replicates and prints a table (or --json).
Flags that do not apply to the chosen model, path or output are refused.`

// modelFlags lists the flags of each model --model names (runModels):
// its parameters in the registry but the explorer (registryFlagNames),
// --model mixture's those of the mixture on data.
var modelFlags = func() map[string][]string {
	m := map[string][]string{}
	for _, n := range runModels() {
		m[n] = registryFlagNames(n)
	}
	m[registry.Mixture] = registryFlagNames(registry.MixtureData)
	return m
}()

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
		return nil, c.bad("model", "want %s", orList(runModels()))
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
// paper's settings select the paper's tuning, the path is the tuning's,
// the schedule is tuned for nrpt, the automatic tuner chooses its scans,
// and --chains auto starts with the first pilot's chains (auto.go).
func (f *runFlags) resolve() {
	c := f.flags
	if !c.set("tuning") && (f.algorithm == "reversible" || c.set("scans") || c.set("lr") || f.gradient == "full") {
		f.tuning = "paper"
	}
	if !c.set("path") {
		f.path = "linear"
		if f.tuning == "auto" {
			f.path = "spline"
		}
	}
	if !c.set("tune-schedule") {
		f.tuneSched = f.algorithm != "reversible"
	}
	if f.tuning == "auto" {
		f.scans = max(batch.AutoScans(f.iterations), 1) // --scans does not apply
	}
	if f.chainsAuto {
		f.chains = pilotChains // runOne chooses the run's (auto.go)
	}
}

// tunesPath reports whether the run tunes a spline path.
func (f *runFlags) tunesPath() bool { return f.path == "spline" && f.knots >= 2 }

// flagOwners maps each model flag to the models whose flag it is, in
// alphabetical order.
var flagOwners = func() map[string][]string {
	owners := map[string][]string{}
	for m, names := range modelFlags {
		for _, n := range names {
			owners[n] = append(owners[n], m)
		}
	}
	for _, o := range owners {
		slices.Sort(o)
	}
	return owners
}()

// checkApplies refuses, in command-line order, the flags given that do not
// apply to the model, path or output chosen, saying what applies.
func (f *runFlags) checkApplies() error {
	c := f.flags
	for _, name := range c.given {
		if owners, ok := flagOwners[name]; ok && !slices.Contains(modelFlags[f.model], name) {
			takes := "takes no model flags (its data and prior are fixed)"
			if names := modelFlags[f.model]; len(names) > 0 {
				takes = "takes " + flagList(names)
			}
			return c.bad(name, "applies only to %s; --model %s %s", modelOwners(owners), f.model, takes)
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
		if c.set("successes") || c.set("total-trials") {
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
			return c.bad(name, "applies only to a tuned spline path; --knots %s is the linear path, which is not tuned", c.show("knots"))
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

// flagList returns "--a, --b and --c".
func flagList(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = "--" + n
	}
	if len(out) == 1 {
		return out[0]
	}
	return strings.Join(out[:len(out)-1], ", ") + " and " + out[len(out)-1]
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
	cfg, err := run.ConfigUnchecked(m)
	if err != nil {
		return cfg, err
	}
	cfg.Workers, cfg.Pin = f.workers, f.pin
	if cfg.Model, err = models.WithVariational(f.reference, f.variational, m, cfg.Scans-cfg.KeepScansInEffect()); err != nil {
		return cfg, usagef("--reference %s: %v", f.reference, err) // --reference: issue 22
	}
	return cfg, nil
}

// method returns the run's settings as a study.Method (the flags are
// resolved and checked): the linear path is one knot, and a spline of
// one knot is linear too.
func (f *runFlags) method() study.Method {
	knots := 1
	if f.path == "spline" {
		knots = f.knots
	}
	return study.Method{Label: "run", Algorithm: f.algorithm, Tuning: f.tuning, Chains: f.chains, Scans: f.scans,
		Knots: knots, LearningRate: f.lr, TuneSchedule: &f.tuneSched, Gradient: f.gradient, KeepScans: f.keepScans}
}

// check refuses, one line each, the values of the flags the run cannot
// take, in a fixed order: --chains auto where it does not apply, the
// sizes, the paths (before --checkpoint's directory is tried), the
// checkpoint flags, --record and the spline path's settings.
func (f *runFlags) check() error {
	if f.chainsAuto {
		if err := f.checkChainsAuto(); err != nil {
			return err
		}
	}
	if err := f.checkSizes(); err != nil {
		return err
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
	return f.checkSpline()
}

// checkSizes refuses sizes the run cannot take.
func (f *runFlags) checkSizes() error {
	c := f.flags
	switch {
	case f.tuning == "auto" && f.iterations < 2:
		return c.bad("iterations", "need at least 2 iterations (the automatic tuner tunes in the first half)")
	case f.chains < 2:
		return c.bad("chains", "need at least 2 chains")
	case f.chains > maxChains:
		return c.bad("chains", "at most %d chains (replica numbers are 32-bit)", maxChains)
	case f.replicates < 1:
		return c.bad("replicates", "need at least 1 replicate")
	case f.scans < 1:
		return c.bad("scans", "need at least 1 scan")
	case f.iterations < f.scans:
		return c.bad("iterations", "need at least one iteration per scan (--scans %s)", c.show("scans"))
	case f.iterations%f.scans != 0:
		return c.bad("iterations", "must be a multiple of --scans (%s) so that scans are equal", c.show("scans"))
	case f.workers < 0:
		return c.bad("workers", "need 0 (all CPUs) or more")
	case f.thin < 1:
		return c.bad("thin", "need at least 1")
	case f.keepScans < 0:
		return c.bad("keep-scans", "need 0 (the last half) or more")
	}
	return nil
}

// checkSpline refuses the settings of a spline path it cannot take, and
// warns about a learning rate that cannot move the knots.
func (f *runFlags) checkSpline() error {
	c := f.flags
	if f.path != "spline" {
		return nil
	}
	switch {
	case f.knots < 1:
		return c.bad("knots", "need at least 1")
	case f.knots > f.chains-1 && !f.chainsAuto:
		return knotsLimit(c, f.knots, f.chains, c.show("chains"))
	}
	if !f.tunesPath() {
		return nil
	}
	if f.tuning != "auto" {
		if err := checkLR(c, "lr", f.lr, f.scans, &f.warnings); err != nil {
			return err
		}
	}
	if f.gradient != "block" && f.gradient != "full" {
		return c.bad("gradient", "want block or full")
	}
	if f.tuning == "auto" && f.gradient == "full" {
		return c.bad("gradient", "applies only to --tuning paper; the automatic tuner uses the block form")
	}
	return nil
}

// knotsLimit is the error for more spline segments than chains − 1,
// naming --knots when it was given and --chains otherwise.
func knotsLimit(c *cmdFlags, knots, chains int, chainsText string) error {
	const why = "with more segments than chains − 1, some hold no chain of the starting uniform schedule, and the SKL surrogate, which sees the path only at the chains, cannot place them"
	if c.set("knots") {
		return usagef("invalid --knots %d: at most chains − 1 = %d segments with %s chains: %s", knots, chains-1, chainsText, why)
	}
	return usagef("invalid --chains %s: --knots %d (the default) needs at least %d chains: %s", chainsText, knots, knots+1, why)
}

// checkMemory estimates the memory of the run of cfg (the shard's
// replicates when sharded, issue 19), with the statistics the output adds
// and the JSON and CSVs it builds, and refuses it when it exceeds the
// limit; what names the run in the message.
func (f *runFlags) checkMemory(cfg batch.Config, what string) (need int64, err error) {
	need, err = f.estimateMemory(cfg)
	return need, checkMemoryOf(f.flags, what, f.maxMemory, need, err, []sizeFlag{
		{"chains", float64(cfg.Chains), 50}, {"replicates", float64(f.replicates), 10},
		{"dim", float64(f.dim), 1}, {"knots", float64(f.knots), 4},
		{"iterations", float64(f.iterations), 45000}, {"scans", float64(f.scans), 150},
	})
}

// estimateMemory is batch.EstimateMemory of cfg with the statistics the
// run adds, each of which estimates its own memory
// (batch.MemoryEstimator), and the output built from them (statsMemory).
func (f *runFlags) estimateMemory(cfg batch.Config) (int64, error) {
	cfg.Statistics = append(slices.Clone(cfg.Statistics), f.runStatistics(cfg)...)
	need, err := batch.EstimateMemory(cfg)
	if err != nil {
		return 0, err
	}
	out, err := f.statsMemory(cfg)
	if err != nil {
		return 0, err
	}
	return addBytes(need, out)
}

// runStatistics lists, for the estimate, the statistics runOne adds to
// cfg (newRunStats, samples.csv and the target moments), without the
// files they write.
func (f *runFlags) runStatistics(cfg batch.Config) []batch.Statistic {
	one := !f.jsonOut && f.out == "" // the table's first observable only
	ess := new(batch.ESS)
	dg := &batch.Diagnostics{Thin: f.thin, Observables: maxDiagObservables, MaxDraws: diagMaxDraws}
	if one {
		ess.Observables, dg.Observables = 1, 1
	}
	cfg.Statistics = []batch.Statistic{&batch.LogZ{FromScan: logZFromScan(&cfg), Path: f.out != ""}, new(batch.Restarts), ess, dg}
	addProposals(&cfg)
	if !one {
		cfg.Statistics = append(cfg.Statistics, new(batch.TargetMoments))
	}
	if f.out != "" {
		cfg.Statistics = append(cfg.Statistics, &batch.Samples{Thin: f.thin}, &batch.BarrierProfile{Points: lambdaPoints})
	}
	if f.record == "index" {
		spec := f.indexSpec(&cfg)
		window := spec.window
		if spec.from == 1 {
			window = 0 // the whole run
		}
		cfg.Statistics = append(cfg.Statistics, &batch.IndexProcess{Replicas: spec.replicas, Thin: spec.thin, From: spec.from, Window: window})
	}
	return cfg.Statistics
}

// checkLR refuses a learning rate that is not positive and finite, and
// warns about one whose Adagrad steps cannot move the knots. The n-th step
// changes a knot's log by lr·g_n/√(Σ g²) with |g| < 1, about lr/√n: below
// 2⁻⁵² (for every n) it is lost in the rounding of exp(log φ - step), and
// when even the last scan's lr/√scans exceeds 745 every step takes the
// knot to 0 (exp underflows) or beyond 1, where the monotone repair puts it
// back.
func checkLR(c *cmdFlags, name string, lr float64, scans int, warnings *[]string) error {
	if !(lr > 0) || math.IsInf(lr, 0) {
		return c.bad(name, "must be positive and finite")
	}
	switch {
	case lr < 0x1p-52:
		*warnings = append(*warnings, fmt.Sprintf("warning: --%s %s cannot move the knots: an Adagrad step changes log φ by at most the learning rate, which is below float64's resolution of the knots (2^-52)", name, c.show(name)))
	case lr/math.Sqrt(float64(scans)) > 745:
		*warnings = append(*warnings, fmt.Sprintf("warning: --%s %s cannot move the knots: the n-th Adagrad step changes log φ by about lr/√n, more than 745 up to the last of %d scans, which takes a knot to 0 (exp underflows) or beyond 1, where the monotone repair resets it", name, c.show(name), scans))
	}
	return nil
}

// effectiveWorkers returns the workers a run of cfg uses: Workers, or
// all CPUs for 0, and at most one per block of replicates.
func effectiveWorkers(workers, replicates int) int {
	if workers == 0 {
		workers = runtime.NumCPU()
	}
	return min(workers, layout.Shape{Replicates: replicates}.Blocks())
}

// buildModel constructs the model named by --model from its flags.
func (f *runFlags) buildModel() (models.Model, error) {
	switch f.model {
	case "gaussian":
		if err := checkGaussian(f.flags, runGaussFlags, f.flags.show("dim"), f.dim, f.mu0, f.mu1, f.sigma0, f.sigma1); err != nil {
			return nil, err
		}
		m, err := registry.New(registry.Gaussian, registry.Values{"dim": float64(f.dim), "mu0": f.mu0, "mu1": f.mu1,
			"sigma0": f.sigma0, "sigma1": f.sigma1}, f.seed)
		if err != nil {
			return nil, usagef("gaussian: %v", err)
		}
		return m, nil
	case "betabinomial":
		return f.buildBetaBinomial()
	case "galaxy":
		return registry.New(f.model, nil, f.seed)
	case "mixture":
		return f.buildMixture()
	case "funnel":
		return f.buildFunnel()
	}
	if registryName(f.model) != "" {
		return f.buildRegistryModel()
	}
	return nil, f.flags.bad("model", "want %s", orList(runModels()))
}
