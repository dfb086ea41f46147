package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ptbatch/ptbatch/benchmarks"
	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/models"
	"github.com/ptbatch/ptbatch/registry"
)

// modelSettings lists the model's effective settings for the JSON config;
// m is the model built from f.
func modelSettings(f *runFlags, m models.Model) map[string]any {
	switch f.model {
	case "gaussian":
		return map[string]any{"dim": f.dim, "mu0": f.mu0, "mu1": f.mu1, "sigma0": f.sigma0, "sigma1": f.sigma1}
	case "funnel":
		return funnelSettings(f, m)
	case "galaxy":
		return map[string]any{"data": "galaxy velocities (Roeder 1990), thousands of km/s", "components": 6}
	case "mixture":
		if slices.ContainsFunc(registryFlagNames(registry.MixtureData), f.flags.set) {
			return registrySettings(f)
		}
		return map[string]any{"data": "1000 points from 0.3 N(100, 10²) + 0.7 N(200, 10²), simulated from the seed", "components": 2}
	case "betabinomial":
		out := map[string]any{"prior_a": f.priorA, "prior_b": f.priorB}
		if bb, ok := m.(*models.BetaBinomial); ok {
			// The data's totals, given or simulated: all the posterior sees.
			out["successes"], out["total_trials"] = bb.Successes, bb.Successes+bb.Failures
		}
		if !f.flags.set("successes") {
			out["draws"], out["trials"], out["success_prob"] = f.draws, f.trials, f.successProb
		}
		return out
	}
	if registryName(f.model) != "" {
		return registrySettings(f)
	}
	return nil
}

// buildBetaBinomial builds the Beta-binomial model: prior Beta(--prior-a,
// --prior-b) and data either given as totals (--successes S of
// --total-trials R) or simulated from --seed as --draws observations of
// Binomial(--trials, --success-prob).
func (f *runFlags) buildBetaBinomial() (models.Model, error) {
	c := f.flags
	for _, p := range []struct {
		name string
		v    float64
	}{{"prior-a", f.priorA}, {"prior-b", f.priorB}} {
		if !(p.v >= models.MinBetaShape && p.v <= models.MaxBetaShape) {
			return nil, c.bad(p.name, "must be in [1e-6, 1e15]: below, the annealed shapes (η0+η1)(a−1) + η1·S + 1 lose the prior; above, the data's integer precision")
		}
	}
	const maxCount = 1 << 52
	if c.set("successes") || c.set("total-trials") {
		switch {
		case !c.set("successes"):
			return nil, c.bad("total-trials", "needs --successes too")
		case !c.set("total-trials"):
			return nil, c.bad("successes", "needs --total-trials too")
		case f.successes < 0:
			return nil, c.bad("successes", "must not be negative")
		case f.successes > maxCount:
			return nil, c.bad("successes", "at most 2^52 = %d, so that the totals stay exact in float64", int64(maxCount))
		case f.total < f.successes:
			return nil, c.bad("total-trials", "must be at least --successes (%s)", c.show("successes"))
		case f.total-f.successes > maxCount:
			return nil, c.bad("total-trials", "the failures R − S must be at most 2^52 = %d, so that the totals stay exact in float64", int64(maxCount))
		}
	} else {
		switch {
		case f.draws < 1:
			return nil, c.bad("draws", "must be at least 1")
		case f.trials < 1:
			return nil, c.bad("trials", "must be at least 1")
		case int64(f.draws) > models.MaxSimulatedTrials/int64(f.trials):
			name := "draws"
			if c.set("trials") && (!c.set("draws") || f.trials/100 > f.draws/2000) {
				name = "trials"
			}
			return nil, c.bad(name, "--draws × --trials = %s × %s simulates more than %d Bernoulli trials (about 3 s per 1e9)",
				c.show("draws"), c.show("trials"), models.MaxSimulatedTrials)
		case !(f.successProb >= 0 && f.successProb <= 1):
			return nil, c.bad("success-prob", "must be in [0, 1]")
		}
	}
	m, err := registry.New(registry.BetaBinomial, registry.Values{"prior-a": f.priorA, "prior-b": f.priorB,
		"draws": float64(f.draws), "trials": float64(f.trials), "success-prob": f.successProb,
		"successes": float64(f.successes), "total-trials": float64(f.total)}, f.seed)
	if err != nil {
		return nil, usagef("betabinomial: %v", err)
	}
	return m, nil
}

// gaussFlags names the flags that set a Gaussian pair's parameters; sweep
// and bench set both standard deviations with --sigma, and bench has no
// mean flags (empty names).
type gaussFlags struct{ dim, mu0, mu1, sigma0, sigma1 string }

var runGaussFlags = gaussFlags{"dim", "mu0", "mu1", "sigma0", "sigma1"}

// checkGaussian checks a Gaussian pair's parameters against the ranges of
// models.NewGaussian, naming the flag (and the value as typed) that puts
// them out of range; dimText is the dimension as typed.
func checkGaussian(c *cmdFlags, n gaussFlags, dimText string, dim int, mu0, mu1, s0, s1 float64) error {
	if dim < 1 {
		return usagef("invalid --%s %s: need at least 1", n.dim, dimText)
	}
	for _, p := range []struct {
		name string
		v    float64
	}{{n.mu0, mu0}, {n.mu1, mu1}} {
		if p.name != "" && !(math.Abs(p.v) <= models.MaxGaussianMean) {
			return c.bad(p.name, "must be in [-1e100, 1e100], so that μ/σ² stays within float64")
		}
	}
	for _, p := range []struct {
		name string
		v    float64
	}{{n.sigma0, s0}, {n.sigma1, s1}} {
		if !(p.v >= models.MinGaussianSigma && p.v <= models.MaxGaussianSigma) {
			return c.bad(p.name, "must be in [1e-100, 1e100]: 1/σ² and μ/σ² must stay within float64 (1/σ² overflows below 1e-154 and underflows above 1e154)")
		}
	}
	if e := models.GaussianEnergyScale(dim, mu0, mu1, s0, s1); e > 300 {
		why := fmt.Sprintf("the energies d·((|μ1−μ0| + 10⁴·σ_max)/σ_min)²/2 would reach about 1e%.0f, beyond the 1e300 float64 can carry", e)
		small, large := n.sigma0, n.sigma1
		if s1 < s0 {
			small, large = large, small
		}
		bigMu := n.mu0
		if math.Abs(mu1) > math.Abs(mu0) {
			bigMu = n.mu1
		}
		for _, name := range []string{small, large, bigMu, n.mu0, n.mu1} {
			if name != "" && c.set(name) {
				return c.bad(name, "%s", why)
			}
		}
		return usagef("invalid --%s %s: %s", n.dim, dimText, why)
	}
	return nil
}

// registryOnly are the registered models whose flags come from their
// registry parameters alone (addRegistryFlags), with --explorer for the
// parameter "explorer", and the --model that builds each: the logistic
// regression, the mixture on data, and every model registered beyond the
// ones ptbatch builds from flags of its own (ownFlags).
var registryOnly = func() []struct{ model, name string } {
	out := []struct{ model, name string }{{registry.Logistic, registry.Logistic}, {"mixture", registry.MixtureData}}
	for _, n := range registry.Names() {
		if !slices.Contains(ownFlags, n) && n != registry.Logistic && n != registry.MixtureData {
			out = append(out, struct{ model, name string }{n, n})
		}
	}
	return out
}()

// ownFlags are the models whose flags and checks are ptbatch's own: the
// Gaussian pair, the Beta-binomial, the paper's mixtures and the funnel.
var ownFlags = []string{registry.Gaussian, registry.BetaBinomial, registry.Galaxy, registry.Mixture, registry.Funnel}

// runModels returns the names --model takes: every registered model but
// the mixture on data, which --model mixture builds.
func runModels() []string {
	return slices.DeleteFunc(registry.Names(), func(n string) bool { return n == registry.MixtureData })
}

// otherModelsHelp returns the end of --model's help naming the
// registered models beyond the paper's and the funnel, or "".
func otherModelsHelp() string {
	var more []string
	for _, n := range runModels() {
		if !slices.Contains(ownFlags, n) {
			more = append(more, n)
		}
	}
	if len(more) == 0 {
		return ""
	}
	return "; also " + strings.Join(more, ", ") + " (their flags below)"
}

// orList returns "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// modelOwners returns "--model a, --model b or --model c" for the models
// a flag applies to.
func modelOwners(models []string) string {
	out := make([]string, len(models))
	for i, m := range models {
		out[i] = "--model " + m
	}
	return orList(out)
}

// registryName returns the registry model that --model builds from its
// flags, or "".
func registryName(model string) string {
	for _, r := range registryOnly {
		if r.model == model {
			return r.name
		}
	}
	return ""
}

// addRegistryFlags defines a flag for every parameter of the registryOnly
// models, by its kind (String, Bool, Int, Float), under a heading per
// model; a flag several models share (--data, --dim, --explorer) is
// defined once, by the first, and the heading of each other model whose
// default differs says its own (such as "--dim (default 10)").
func addRegistryFlags(c *cmdFlags) {
	for _, r := range registryOnly {
		m, _ := registry.Lookup(r.name)
		var own []string
		for _, p := range m.Params {
			if fl := c.fs.Lookup(p.Name); fl != nil && paramDefault(m, p) != fl.DefValue {
				own = append(own, fmt.Sprintf("--%s (default %s)", p.Name, paramDefault(m, p)))
			}
		}
		c.section(registryHeading(r.model, m.Help, own))
		for _, p := range m.Params {
			if c.fs.Lookup(p.Name) != nil {
				continue
			}
			help := sharedHelp(p)
			switch p.Kind {
			case registry.String:
				c.String(new(string), p.Name, m.TextDefaults[p.Name], help)
			case registry.Bool:
				c.Bool(new(bool), p.Name, p.Default != 0, help)
			case registry.Int:
				c.Int(new(int), p.Name, int(p.Default), help)
			default:
				c.Float64(new(float64), p.Name, p.Default, help)
			}
		}
	}
}

// sharedHelp returns p's help, or, for a flag several registryOnly models
// share with different meanings (--data), each model's help after its
// --model.
func sharedHelp(p registry.Param) string {
	var parts []string
	seen := map[string]bool{}
	for _, r := range registryOnly {
		m, _ := registry.Lookup(r.name)
		if q, ok := m.Param(p.Name); ok && !seen[q.Help] {
			seen[q.Help] = true
			parts = append(parts, "--model "+r.model+": "+q.Help)
		}
	}
	if len(parts) < 2 {
		return p.Help
	}
	return strings.Join(parts, "; ")
}

// registryHeading is the heading of --model model's flags: its help, and
// the defaults it gives shared flags.
func registryHeading(model, help string, own []string) string {
	if len(own) == 0 {
		return "--model " + model + ": " + help
	}
	return "--model " + model + ": " + help + "; " + strings.Join(own, ", ")
}

// paramDefault returns p's default of model m as its flag shows it.
func paramDefault(m registry.Model, p registry.Param) string {
	if names, ok := m.Choices[p.Name]; ok {
		return names[int(p.Default)]
	}
	switch p.Kind {
	case registry.String:
		return m.TextDefaults[p.Name]
	case registry.Bool:
		return strconv.FormatBool(p.Default != 0)
	}
	return strconv.FormatFloat(p.Default, 'g', -1, 64)
}

// paramValue returns the value of the flag of parameter p of model m:
// the flag's when given, the model's default otherwise (a shared flag's
// default may be another model's).
func paramValue(c *cmdFlags, m registry.Model, p registry.Param) any {
	if c.set(p.Name) {
		return c.fs.Lookup(p.Name).Value.(flag.Getter).Get()
	}
	switch p.Kind {
	case registry.String:
		return m.TextDefaults[p.Name]
	case registry.Bool:
		return p.Default != 0
	case registry.Int:
		return int(p.Default)
	}
	return p.Default
}

// registryFlagNames returns the flags of the registry model name: its
// parameters but the explorer.
func registryFlagNames(name string) []string {
	m, _ := registry.Lookup(name)
	var out []string
	for _, p := range m.Params {
		if p.Name != "explorer" {
			out = append(out, p.Name)
		}
	}
	return out
}

// buildMixture builds --model mixture: the paper's mixture unless a flag
// of the mixture's settings or --data is given, the mixture on the data
// and settings of the flags otherwise.
func (f *runFlags) buildMixture() (models.Model, error) {
	if !slices.ContainsFunc(registryFlagNames(registry.MixtureData), f.flags.set) {
		return registry.New(f.model, nil, f.seed)
	}
	return f.buildRegistryModel()
}

// buildRegistryModel builds a registryOnly model from its flags and
// --explorer (the registry's default explorer unless given). A bad data
// file is one line naming the file, the line and the column.
func (f *runFlags) buildRegistryModel() (models.Model, error) {
	c, name := f.flags, registryName(f.model)
	m, _ := registry.Lookup(name)
	v, t := registry.Values{}, registry.Texts{}
	for _, p := range m.Params {
		if p.Name == "explorer" {
			continue
		}
		switch x := paramValue(c, m, p).(type) {
		case string:
			t[p.Name] = x
		case bool:
			v[p.Name] = map[bool]float64{false: 0, true: 1}[x]
		case int:
			v[p.Name] = float64(x)
		case float64:
			v[p.Name] = x
		}
	}
	if _, ok := m.Param("explorer"); ok && c.set("explorer") {
		i := slices.Index(registry.ExplorerNames, f.ex.explorer)
		if i < 0 {
			return nil, c.bad("explorer", "want %s", explorerNames)
		}
		v["explorer"] = float64(i)
	}
	if name == registry.Logistic && t["data"] == "" {
		return nil, usagef("--model %s needs --data FILE.csv", f.model)
	}
	model, err := registry.NewWithTexts(name, v, t, f.seed)
	var pe *registry.ParamError
	switch {
	case errors.As(err, &pe) && pe.Param != "":
		return nil, c.bad(pe.Param, "%s", pe.Why)
	case err != nil:
		return nil, usagef("%v", err)
	}
	return model, nil
}

// registrySettings lists a model's settings built from the registry for
// the JSON config: every parameter's value, and the explorer.
func registrySettings(f *runFlags) map[string]any {
	name := registryName(f.model)
	m, _ := registry.Lookup(name)
	out := map[string]any{}
	for _, p := range m.Params {
		if p.Name != "explorer" {
			out[strings.ReplaceAll(p.Name, "-", "_")] = paramValue(f.flags, m, p)
		}
	}
	if p, ok := m.Param("explorer"); ok {
		out["explorer"] = registry.ExplorerNames[int(p.Default)]
		if f.flags.set("explorer") {
			out["explorer"] = f.ex.explorer
		}
	}
	return out
}

// runLogisticBench is `ptbatch bench --model logistic`: the batched
// logistic model, the same through FromFuncs and the plain scalar engine
// on one worker (benchmarks.RunLogistic), with --chains, --replicates,
// --iterations, --repeats and --seed from w when given.
func runLogisticBench(ctx context.Context, c *cmdFlags, w benchmarks.Workload, impl string, jsonOut bool, stdout io.Writer) error {
	lw := benchmarks.DefaultLogisticWorkload()
	for _, name := range []string{"dim", "sigma", "workers", "max-memory"} {
		if c.set(name) {
			return c.bad(name, "does not apply to --model logistic (n = %d, d = %d, one worker)", lw.Rows, lw.Covariates)
		}
	}
	for _, p := range []struct {
		name string
		dst  *int
		v    int
	}{{"chains", &lw.Chains, w.Chains}, {"replicates", &lw.Replicates, w.Replicates}, {"iterations", &lw.Iterations, w.Iterations}, {"repeats", &lw.Repeats, w.Repeats}} {
		if c.set(p.name) {
			if p.v < 1 || p.name == "chains" && p.v < 2 {
				return c.bad(p.name, "too small")
			}
			*p.dst = p.v
		}
	}
	if c.set("seed") {
		lw.Seed = w.Seed
	}
	if impl != "" {
		restore, err := kernel.SetImpl(impl)
		if err != nil {
			return c.bad("impl", "want one of %s", strings.Join(kernel.Impls(), ", "))
		}
		defer restore()
	}
	rep, err := benchmarks.RunLogistic(ctx, lw)
	if err != nil {
		if ctx.Err() != nil {
			return interruptedf("interrupted; nothing to report")
		}
		return err
	}
	return benchmarks.WriteLogistic(stdout, rep, jsonOut)
}
