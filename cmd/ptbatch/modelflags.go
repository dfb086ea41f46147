package main

import (
	"context"
	"errors"
	"flag"
	"io"
	"strings"

	"github.com/ptbatch/ptbatch/benchmarks"
	"github.com/ptbatch/ptbatch/internal/modelflag"
	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/models"
	"github.com/ptbatch/ptbatch/registry"
)

// The flags of the models are the registry's parameters (registry.Param:
// name, kind, default, help), one section of help per model; the registry
// checks and builds the model from the flags given, and its
// *registry.ParamError becomes the flag's one-line refusal (paramRefusal).

// modelSettings lists the model's effective settings for the JSON config;
// m is the model built from f (registry.Settings).
func modelSettings(f *runFlags, m models.Model) map[string]any {
	name := modelflag.RegistryName(f.flags.IsSet, f.model)
	v, t, _ := modelValues(f.flags, name)
	return registry.Settings(name, v, t, m)
}

// gaussFlags names the flags that set a Gaussian pair's parameters; sweep
// and bench set both standard deviations with --sigma, and bench has no
// mean flags (empty names).
type gaussFlags struct{ dim, mu0, mu1, sigma0, sigma1 string }

// checkGaussian refuses a Gaussian pair the registry refuses (its Check),
// naming the flag (and the value as typed) at fault; dimText is the
// dimension as typed.
func checkGaussian(c *cmdFlags, n gaussFlags, dimText string, dim int, mu0, mu1, s0, s1 float64) error {
	m, _ := registry.Lookup(registry.Gaussian)
	err := m.Check(nil, registry.Values{"dim": float64(dim), "mu0": mu0, "mu1": mu1, "sigma0": s0, "sigma1": s1})
	var pe *registry.ParamError
	if !errors.As(err, &pe) || pe.Param == "dim" {
		return paramRefusal(c, err, func(string) string { return n.dim }, func(string) string { return dimText })
	}
	name := map[string]string{"mu0": n.mu0, "mu1": n.mu1, "sigma0": n.sigma0, "sigma1": n.sigma1}
	return paramRefusal(c, err, func(p string) string { return name[p] }, nil)
}

// paramRefusal returns err of the registry as a usage error: a
// parameter's as "invalid --FLAG VALUE: reason", the flag flag(param) and
// the value value(flag) (the text typed when value is nil), nil for nil.
func paramRefusal(c *cmdFlags, err error, flag, value func(string) string) error {
	if value == nil {
		value = c.Show
	}
	var pe *registry.ParamError
	switch {
	case errors.As(err, &pe) && pe.Param != "":
		why := pe.Reason(func(p string) string { return "--" + flag(p) }, func(p string) string { return value(flag(p)) })
		return usagef("invalid --%s %s: %s", flag(pe.Param), c.Quoted(flag(pe.Param), value(flag(pe.Param))), why)
	case err != nil:
		return usagef("%v", err)
	}
	return nil
}

// same returns its argument: the flag of a parameter of `ptbatch run`.
func same(p string) string { return p }

// otherModelsHelp returns the end of --model's help naming the
// registered models beyond those its text names (the paper's and the
// funnel), or "".
func otherModelsHelp() string {
	return modelflag.AlsoHelp(modelflag.RunModels(), registry.Funnel, " (their flags below)")
}

// flagNumber returns the value of the numeric flag name as a float64.
func flagNumber(c *cmdFlags, name string) float64 {
	switch v := c.fs.Lookup(name).Value.(flag.Getter).Get().(type) {
	case int64:
		return float64(v)
	case float64:
		return v
	}
	panic("ptbatch: flag " + name + " is not a number")
}

// modelValues returns the values of the flags given of the parameters of
// the registry model name (the others take the model's defaults), a
// choice by its name (registry.Model.ValuesOf).
func modelValues(c *cmdFlags, name string) (registry.Values, registry.Texts, error) {
	m, _ := registry.Lookup(name)
	v, t, err := m.ValuesOf(func(p string) (any, bool) { return c.fs.Lookup(p).Value.(flag.Getter).Get(), c.IsSet(p) })
	return v, t, paramRefusal(c, err, same, nil)
}

// runLogisticBench is `ptbatch bench --model logistic`: the batched
// logistic model, the same through FromFuncs and the plain scalar engine
// on one worker (benchmarks.RunLogistic), with --chains, --replicates,
// --iterations, --repeats and --seed from w when given
// (benchmarks.LogisticWorkloadOf).
func runLogisticBench(ctx context.Context, c *cmdFlags, w benchmarks.Workload, impl string, jsonOut bool, stdout io.Writer) error {
	lw, err := benchmarks.LogisticWorkloadOf(w, c.IsSet)
	if we := (*benchmarks.WorkloadError)(nil); errors.As(err, &we) {
		return c.bad(we.Field, "%s", we.Reason)
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
