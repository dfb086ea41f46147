package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// allocatedBytes returns the bytes allocated on the heap so far (they only
// grow: a transient allocation counts too).
func allocatedBytes() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.TotalAlloc
}

// TestBadInputTable checks every cause of issue 13 with several inputs:
// exit 2, exactly one line on stderr naming the flag and the value,
// nothing on stdout, no panic, under a second, and at most 64 MiB
// allocated (the huge sizes must be refused by the memory estimate, before
// anything is allocated).
func TestBadInputTable(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	readOnly := filepath.Join(t.TempDir(), "ro")
	if err := os.Mkdir(readOnly, 0o555); err != nil {
		t.Fatal(err)
	}
	outDir := t.TempDir() // for commands refused before --out is checked
	type tc struct {
		args []string
		want []string // each must appear in the stderr line
	}
	causes := []struct {
		cause string
		cases []tc
	}{
		{"sizes beyond the memory or 64-bit sizes", []tc{
			{[]string{"run", "--dim", "4611686018427387904", "--chains", "2", "--replicates", "1", "--path", "linear"}, []string{"--dim 4611686018427387904", "64-bit"}},
			{[]string{"sweep", "--dims", "2305843009213693952", "--chains", "2"}, []string{"--dims 2305843009213693952"}},
			{[]string{"bench", "--dim", "2305843009213693952"}, []string{"--dim 2305843009213693952"}},
			{[]string{"run", "--replicates", "1000000000"}, []string{"--replicates 1000000000", "memory", "limit"}},
			{[]string{"run", "--chains", "100000000"}, []string{"--chains 100000000", "memory"}},
			{[]string{"run", "--dim", "1000000000"}, []string{"--dim 1000000000", "memory"}},
			{[]string{"run", "--replicates", "9223372036854775807"}, []string{"--replicates 9223372036854775807"}},
			{[]string{"run", "--chains", "9223372036854775807"}, []string{"--chains 9223372036854775807", "2147483647"}},
			{[]string{"run", "--path", "spline", "--knots", "1000000000"}, []string{"--knots 1000000000", "chains − 1"}},
			{[]string{"run", "--path", "spline", "--chains", "2000000000", "--knots", "1000000000"}, []string{"--knots 1000000000", "memory"}},
			{[]string{"run", "--scans", "100000000", "--iterations", "100000000"}, []string{"--scans 100000000", "memory"}},
			{[]string{"run", "--path", "spline", "--gradient", "full", "--iterations", "2000000000", "--scans", "1"}, []string{"--iterations 2000000000", "memory"}},
			{[]string{"run", "--model", "galaxy", "--replicates", "100000000"}, []string{"--replicates 100000000", "memory"}},
			{[]string{"run", "--model", "betabinomial", "--chains", "1000000000"}, []string{"--chains 1000000000", "memory"}},
			{[]string{"run", "--max-memory", "1KiB"}, []string{"--max-memory 1KiB", "1.0 KiB"}},
			{[]string{"run", "--max-memory", "12XB"}, []string{"--max-memory 12XB"}},
			{[]string{"run", "--max-memory", "0"}, []string{"--max-memory 0"}},
			{[]string{"sweep", "--replicates", "1000000000"}, []string{"--replicates 1000000000", "memory"}},
			{[]string{"sweep", "--dims", "1000000000", "--chains", "10"}, []string{"--dims 1000000000", "memory"}},
			{[]string{"sweep", "--seeds", strings.Repeat("1,", 200000) + "1"}, []string{"--seeds with 200001 values", "cells"}},
			{[]string{"bench", "--replicates", "1000000000"}, []string{"--replicates 1000000000", "memory"}},
			{[]string{"bench", "--chains", "100000000"}, []string{"--chains 100000000", "memory"}},
			{[]string{"bench", "--repeats", "9223372036854775807"}, []string{"--repeats 9223372036854775807"}},
			{[]string{"reproduce", "gaussian", "--out", outDir, "--replicates", "1000000000"}, []string{"--replicates 1000000000", "memory"}},
			{[]string{"reproduce", "all", "--out", outDir, "--max-memory", "1MiB"}, []string{"--max-memory 1MiB"}},
		}},
		{"flags that do not apply", []tc{
			{[]string{"run", "--prior-a", "3"}, []string{"--prior-a 3", "--model betabinomial", "--sigma0"}},
			{[]string{"run", "--model", "galaxy", "--dim", "4"}, []string{"--dim 4", "--model gaussian"}},
			{[]string{"run", "--model", "galaxy", "--sigma0", "0.1"}, []string{"--sigma0 0.1", "--model gaussian"}},
			{[]string{"run", "--model", "mixture", "--trials", "10"}, []string{"--trials 10", "--model betabinomial"}},
			{[]string{"run", "--tuning", "paper", "--knots", "5"}, []string{"--knots 5", "--path spline"}},
			{[]string{"run", "--lr", "0.1"}, []string{"--lr 0.1", "--path spline"}},
			{[]string{"run", "--gradient", "full"}, []string{`--gradient "full"`, "--path spline"}},
			{[]string{"run", "--path", "spline", "--knots", "1", "--lr", "0.3"}, []string{"--lr 0.3", "--knots 1"}},
			{[]string{"run", "--thin", "3"}, []string{"--thin 3", "--out"}},
			{[]string{"run", "--keep-scans", "2"}, []string{"--keep-scans 2", "--json"}},
			{[]string{"run", "--model", "betabinomial", "--successes", "10", "--total-trials", "20", "--draws", "5"}, []string{"--draws 5", "--successes"}},
			{[]string{"sweep", "--algorithm", "reversible", "--lr", "0.1"}, []string{"--lr 0.1", "nrpt"}},
			{[]string{"sweep", "--algorithm", "reversible", "--knots", "2"}, []string{`--knots "2"`, "nrpt"}},
			{[]string{"sweep", "--knots", "1", "--lr", "0.5"}, []string{"--lr 0.5", "K of 2"}},
			{[]string{"run", "--chains", "10", "--chains", "20"}, []string{"--chains 20", "twice", "10"}},
			{[]string{"run", "--json", "--json"}, []string{"--json", "twice"}},
			{[]string{"sweep", "--sigma", "0.1", "--sigma", "0.2"}, []string{"--sigma 0.2", "twice"}},
			{[]string{"bench", "--dim", "2", "--dim", "3"}, []string{"--dim 3", "twice"}},
			{[]string{"reproduce", "gaussian", "--out", outDir, "--seed", "1", "--seed", "2"}, []string{"--seed 2", "twice"}},
			{[]string{"run", "--no-such-flag"}, []string{"--no-such-flag"}},
			{[]string{"sweep", "--sigma0", "0.1"}, []string{"--sigma0", "sweep"}},
		}},
		{"parameters the arithmetic cannot carry", []tc{
			{[]string{"run", "--sigma0", "1e-300"}, []string{"--sigma0 1e-300", "[1e-100, 1e100]"}},
			{[]string{"run", "--sigma1", "1e300"}, []string{"--sigma1 1e300", "[1e-100, 1e100]"}},
			{[]string{"run", "--mu0", "-1e308"}, []string{"--mu0 -1e308", "[-1e100, 1e100]"}},
			{[]string{"run", "--mu1", "1e308"}, []string{"--mu1 1e308", "[-1e100, 1e100]"}},
			{[]string{"run", "--sigma0", "1e-400"}, []string{"--sigma0 1e-400", "[1e-100, 1e100]"}},
			{[]string{"run", "--sigma0", "1e400"}, []string{"--sigma0 1e400", "range"}},
			{[]string{"run", "--mu0", "NaN"}, []string{"--mu0 NaN", "finite"}},
			{[]string{"run", "--mu1", "Inf"}, []string{"--mu1 Inf", "finite"}},
			{[]string{"run", "--mu0", "-1e90", "--mu1", "1e90", "--sigma0", "1e-90"}, []string{"--sigma0 1e-90", "1e300"}},
			{[]string{"run", "--model", "betabinomial", "--prior-a", "1e-300"}, []string{"--prior-a 1e-300", "[1e-6, 1e15]"}},
			{[]string{"run", "--model", "betabinomial", "--prior-b", "1e308"}, []string{"--prior-b 1e308", "[1e-6, 1e15]"}},
			{[]string{"run", "--model", "betabinomial", "--successes", "9007199254740993", "--total-trials", "9007199254740993"}, []string{"--successes 9007199254740993", "2^52"}},
			{[]string{"run", "--model", "betabinomial", "--draws", "1000000000", "--trials", "1000"}, []string{"--draws 1000000000"}},
			{[]string{"sweep", "--sigma", "1e-300"}, []string{"--sigma 1e-300", "[1e-100, 1e100]"}},
			{[]string{"sweep", "--mu1", "1e308"}, []string{"--mu1 1e308"}},
			{[]string{"bench", "--sigma", "1e300"}, []string{"--sigma 1e300", "[1e-100, 1e100]"}},
			{[]string{"run", "--path", "spline", "--lr", "1e400"}, []string{"--lr 1e400", "range"}},
			{[]string{"run", "--path", "spline", "--lr", "-1"}, []string{"--lr -1", "positive"}},
		}},
		{"messages name the flag typed", []tc{
			{[]string{"sweep", "--sigma", "0"}, []string{"--sigma 0:"}},
			{[]string{"sweep", "--dims", "0"}, []string{"--dims"}},
			{[]string{"sweep", "--chains", "1"}, []string{`--chains "1"`}},
			{[]string{"bench", "--sigma", "-1"}, []string{"--sigma -1"}},
			{[]string{"run", "--out", file}, []string{"--out", file}},
			{[]string{"run", "--out", filepath.Join(file, "sub")}, []string{"--out", "sub"}},
			{[]string{"sweep", "--out", file, "--dims", "1", "--iterations", "10", "--scans", "1"}, []string{"--out", file}},
			{[]string{"reproduce", "gaussian", "--out", file}, []string{"--out", file}},
			{[]string{"reproduce", "gaussian"}, []string{"--out"}},
			{[]string{"run", "--workers", "-1"}, []string{"--workers -1"}},
			{[]string{"sweep", "--workers", "-1"}, []string{"--workers -1"}},
			{[]string{"reproduce", "gaussian", "--out", outDir, "--workers", "-1"}, []string{"--workers -1"}},
			{[]string{"bench", "--workers", "-1"}, []string{"--workers -1"}},
			{[]string{"help", "nope"}, []string{`"nope"`}},
			{[]string{"run", "--dim", "99999999999999999999"}, []string{"--dim 99999999999999999999", "range"}},
			{[]string{"run", "--chains", "abc"}, []string{"--chains abc"}},
			{[]string{"run", "--chains"}, []string{"--chains"}},
			{[]string{"bench", "--impl", "none"}, []string{`--impl "none"`}},
			{[]string{"bench", "--model", "nope"}, []string{`--model "nope"`, "galaxy"}},
			{[]string{"bench", "--model", "galaxy", "--dim", "3"}, []string{"--dim 3", "--model gaussian"}},
			{[]string{"bench", "--model", "mixture", "--sigma", "0.5"}, []string{"--sigma 0.5", "--model gaussian"}},
			{[]string{"reproduce", "--out", outDir, "nope"}, []string{`"nope"`}},
			{[]string{"reproduce", "--out", outDir, "gaussian", "--scale", "2"}, []string{"--scale 2"}},
		}},
	}
	if os.Geteuid() != 0 { // root writes anywhere
		causes[3].cases = append(causes[3].cases, tc{[]string{"run", "--out", readOnly}, []string{"--out", readOnly, "write"}})
	}
	for _, cause := range causes {
		for _, c := range cause.cases {
			name := strings.Join(c.args, " ")
			if len(name) > 80 {
				name = name[:80] + "…"
			}
			runtime.GC()
			before := allocatedBytes()
			start := time.Now()
			out, errs, code := runCLIRecover(t, c.args...)
			elapsed := time.Since(start)
			grew := allocatedBytes() - before
			if code != 2 {
				t.Errorf("%s: %s: exit %d, want 2 (stderr %q)", cause.cause, name, code, errs)
			}
			if out != "" {
				t.Errorf("%s: %s: wrote to stdout: %.200q", cause.cause, name, out)
			}
			if strings.Count(errs, "\n") != 1 || !strings.HasSuffix(errs, "\n") {
				t.Errorf("%s: %s: stderr is not one line: %q", cause.cause, name, errs)
			}
			for _, w := range c.want {
				if !strings.Contains(errs, w) {
					t.Errorf("%s: %s: stderr %q lacks %q", cause.cause, name, errs, w)
				}
			}
			if elapsed > time.Second {
				t.Errorf("%s: %s: took %v", cause.cause, name, elapsed)
			}
			if grew > 64<<20 {
				t.Errorf("%s: %s: allocated %d MiB", cause.cause, name, grew>>20)
			}
		}
	}
}

// runCLIRecover is runCLI that turns a panic into a test failure.
func runCLIRecover(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%v: panic: %v", args, r)
			code = -1
		}
	}()
	return runCLI(args...)
}

// TestHelpPerCommand checks `ptbatch help CMD` and `ptbatch CMD --help`:
// the command's own help, --flag with two dashes, each default once.
func TestHelpPerCommand(t *testing.T) {
	for _, cmd := range []string{"run", "sweep", "reproduce", "bench"} {
		for _, args := range [][]string{{"help", cmd}, {cmd, "--help"}, {cmd, "-h"}} {
			out, errs, code := runCLI(args...)
			if code != 0 || errs != "" {
				t.Fatalf("%v: exit %d, stderr %q", args, code, errs)
			}
			if !strings.HasPrefix(out, "Usage: ptbatch "+cmd) {
				t.Errorf("%v: help does not start with the command's usage: %.80q", args, out)
			}
			for _, line := range strings.Split(out, "\n") {
				if strings.HasPrefix(strings.TrimSpace(line), "-") && !strings.HasPrefix(strings.TrimSpace(line), "--") {
					t.Errorf("%v: single-dash flag in help: %q", args, line)
				}
				if strings.Count(line, "(default") > 1 {
					t.Errorf("%v: default shown twice: %q", args, line)
				}
			}
			if !strings.Contains(out, "--workers int") || !strings.Contains(out, "0: all CPUs") {
				t.Errorf("%v: help lacks --workers with 0 meaning all CPUs", args)
			}
		}
	}
	out, _, code := runCLI("help")
	if code != 0 || !strings.Contains(out, "ptbatch help [CMD]") {
		t.Errorf("help: exit %d, %q", code, out)
	}
}

// runJSON runs `ptbatch run --json` with args and returns the decoded
// object and stderr.
func runJSON(t *testing.T, args ...string) (map[string]any, string) {
	t.Helper()
	out, errs, code := runCLI(append([]string{"run", "--json", "--quiet"}, args...)...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errs)
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(out), &obj); err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return obj, errs
}

// TestConfigReportsSettingsInEffect checks that --workers 0 means all
// CPUs and that workers are reported as capped (one per block of 8
// replicates), and that the settings given are reported.
func TestConfigReportsSettingsInEffect(t *testing.T) {
	small := []string{"--sigma0", "0.3", "--sigma1", "0.3", "--chains", "4", "--iterations", "20", "--scans", "2"}
	for _, c := range []struct {
		workers, replicates string
		want                int
	}{{"0", "64", min(runtime.NumCPU(), 8)}, {"100000", "9", 2}, {"1", "9", 1}, {"0", "3", 1}} {
		obj, _ := runJSON(t, append(small, "--workers", c.workers, "--replicates", c.replicates)...)
		if got := obj["config"].(map[string]any)["workers"]; got != float64(c.want) {
			t.Errorf("--workers %s --replicates %s: config workers %v, want %d", c.workers, c.replicates, got, c.want)
		}
	}
	dir := filepath.Join(t.TempDir(), "new", "dir")
	obj, _ := runJSON(t, append(small, "--max-memory", "1GiB", "--out", dir, "--thin", "2")...)
	cfg := obj["config"].(map[string]any)
	if cfg["max_memory"] != float64(1<<30) || cfg["out"] != dir || cfg["thin"] != float64(2) {
		t.Errorf("config %v lacks max_memory 1GiB, out and thin", cfg)
	}
	for _, name := range []string{"sweep", "reproduce"} {
		// --workers 0 is accepted everywhere (bench's is checked by its
		// help and TestBadInputTable's --workers -1).
		args := map[string][]string{
			"sweep":     {"sweep", "--dims", "1", "--chains", "4", "--knots", "1", "--iterations", "10", "--scans", "1", "--replicates", "2", "--workers", "0", "--quiet"},
			"reproduce": {"reproduce", "gaussian", "--workers", "0", "--out", t.TempDir(), "--max-memory", "1KiB"},
		}[name]
		_, errs, code := runCLI(args...)
		if strings.Contains(errs, "--workers") {
			t.Errorf("%s --workers 0: exit %d: %s", name, code, errs)
		}
	}
}

// TestLearningRateWarning checks that a learning rate whose steps cannot
// move the knots runs with a warning on stderr, and a usual one without.
func TestLearningRateWarning(t *testing.T) {
	args := []string{"--sigma0", "0.3", "--sigma1", "0.3", "--chains", "6", "--iterations", "40", "--scans", "4",
		"--replicates", "2", "--path", "spline", "--knots", "2"}
	for _, c := range []struct {
		lr   string
		warn bool
	}{{"1e308", true}, {"10000", true}, {"1e-20", true}, {"1000", false}, {"0.2", false}} {
		obj, errs := runJSON(t, append(args, "--lr", c.lr)...)
		if got := strings.Contains(errs, "warning: --lr "+c.lr+" cannot move the knots"); got != c.warn {
			t.Errorf("--lr %s: stderr %q, want warning %v", c.lr, errs, c.warn)
		}
		if c.warn && c.lr != "1e-20" {
			// The knots stay on the linear path.
			knots := obj["knots"].([]any)
			if k := knots[1].([]any); k[0] != 0.5 || k[1] != 0.5 {
				t.Errorf("--lr %s: knot 1 moved to %v", c.lr, k)
			}
		}
	}
}

// TestInterruptInProcess cancels the context of a run of many short scans
// and checks that it reports the scans completed with "interrupted": true
// and status 130.
func TestInterruptInProcess(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	var out, errw strings.Builder
	err := run(ctx, []string{"run", "--sigma0", "0.3", "--sigma1", "0.3", "--chains", "4", "--replicates", "8",
		"--iterations", "2000000000", "--scans", "200000", "--json", "--quiet"}, &out, &errw)
	code := exitCode(err, &errw)
	if code != 130 {
		t.Fatalf("exit %d, want 130; stderr %q", code, errw.String())
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(out.String()), &obj); err != nil {
		t.Fatalf("%v: %q", err, out.String())
	}
	if obj["interrupted"] != true {
		t.Errorf("interrupted = %v", obj["interrupted"])
	}
	if !strings.Contains(errw.String(), "interrupted after") {
		t.Errorf("stderr %q", errw.String())
	}
}
