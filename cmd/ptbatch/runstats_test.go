package main

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ptbatch/ptbatch/batch"
)

// parseFloat parses a CSV field, failing the test on a bad one.
func parseFloat(t *testing.T, s string) float64 {
	t.Helper()
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// floats returns a JSON array of numbers as float64s (NaN for null).
func floats(t *testing.T, v any) []float64 {
	t.Helper()
	arr, ok := v.([]any)
	if !ok {
		t.Fatalf("%v is not an array", v)
	}
	out := make([]float64, len(arr))
	for i, x := range arr {
		if x == nil {
			out[i] = math.NaN()
			continue
		}
		out[i] = x.(float64)
	}
	return out
}

// meanSE returns the mean of x and its standard error, sd/√n.
func meanSE(x []float64) (mean, se float64) {
	mean, sd := batch.MeanSD(x)
	return mean, sd / math.Sqrt(float64(len(x)))
}

// lgammaBeta is ln B(a, b) from math.Lgamma, written out here apart from
// the command's lnBeta.
func lgammaBeta(a, b float64) float64 {
	x, _ := math.Lgamma(a)
	y, _ := math.Lgamma(b)
	z, _ := math.Lgamma(a + b)
	return x + y - z
}

// TestRunLogZClosedForm checks log_z of `ptbatch run --json` against the
// closed forms of log(Z1/Z0), Z_i = ∫ exp(W_i), for W0, W1 as package
// models defines them:
//
//   - Gaussian: W_i = -Σ_d (x_d-μ_i)²/(2σ_i²), so Z_i = (2πσ_i²)^{d/2} and
//     log(Z1/Z0) = d·ln(σ1/σ0) = 3 ln 0.6 = -1.5325 for d = 3, σ0 = 0.5,
//     σ1 = 0.3 (the means do not enter), on the linear path and on a tuned
//     3-knot spline;
//   - Beta-binomial: W0 = (A-1) ln p + (B-1) ln(1-p), W1 = W0 + S ln p +
//     F ln(1-p), so Z0 = B(A, B), Z1 = B(A+S, B+F) and log(Z1/Z0) =
//     ln B(32, 23) - ln B(2, 3) = -35.2718 for the prior Beta(2, 3) and
//     S = 30 successes of 50 trials.
//
// Each estimate (16 replicates, the last of 4 scans of 1000 iterations)
// must be within 4 standard errors (across replicates) of the exact value
// with a standard error below 0.1; log_z_exact must be the closed form;
// log_z, log_z_se and log_z_reverse_minus_forward must be the mean, the
// standard error and the mean difference of logz.csv's columns, whose
// log_z is the average of forward and reverse; and the forward and
// reverse estimates must agree within 4 standard errors of their
// difference of means.
func TestRunLogZClosedForm(t *testing.T) {
	gauss := []string{"--dim", "3", "--sigma0", "0.5", "--sigma1", "0.3", "--chains", "20"}
	cases := []struct {
		name  string
		args  []string
		exact float64
	}{
		{"gaussian linear", gauss, 3 * math.Log(0.3/0.5)},
		{"gaussian spline", append(slices.Clone(gauss), "--path", "spline", "--knots", "3"), 3 * math.Log(0.3/0.5)},
		{"betabinomial", []string{"--model", "betabinomial", "--prior-a", "2", "--prior-b", "3", "--successes", "30",
			"--total-trials", "50", "--chains", "15"}, lgammaBeta(32, 23) - lgammaBeta(2, 3)},
	}
	for _, c := range cases {
		dir := t.TempDir()
		obj, _ := runJSON(t, append(c.args, "--iterations", "4000", "--scans", "4", "--replicates", "16", "--seed", "3", "--out", dir)...)
		est, se := obj["log_z"].(float64), obj["log_z_se"].(float64)
		t.Logf("%s: log Z %.5f ± %.5f, exact %.5f (%.2f se), reverse - forward %.5f", c.name, est, se, c.exact,
			(est-c.exact)/se, obj["log_z_reverse_minus_forward"])
		if math.Abs(est-c.exact) > 4*se || !(se < 0.1) {
			t.Errorf("%s: log Z %.5f ± %.5f, exact %.5f", c.name, est, se, c.exact)
		}
		if got := obj["log_z_exact"].(float64); math.Abs(got-c.exact) > 1e-12*math.Max(1, math.Abs(c.exact)) {
			t.Errorf("%s: log_z_exact %v, want %v", c.name, got, c.exact)
		}
		rows := readCSV(t, filepath.Join(dir, "logz.csv"))
		if want := []string{"replicate", "forward", "reverse", "log_z", "reverse_minus_forward"}; !slices.Equal(rows[0], want) {
			t.Fatalf("%s: logz.csv header %v", c.name, rows[0])
		}
		perRep := floats(t, obj["log_z_replicates"])
		if len(rows)-1 != 16 || len(perRep) != 16 {
			t.Fatalf("%s: %d rows in logz.csv and %d log_z_replicates, want 16", c.name, len(rows)-1, len(perRep))
		}
		var fwd, rev, avg, diff []float64
		for b, r := range rows[1:] {
			f, v, a, d := parseFloat(t, r[1]), parseFloat(t, r[2]), parseFloat(t, r[3]), parseFloat(t, r[4])
			if r[0] != strconv.Itoa(b) || a != perRep[b] || math.Abs(a-(f+v)/2) > 1e-12*math.Abs(a) || math.Abs(d-(v-f)) > 1e-12*math.Abs(a) {
				t.Fatalf("%s: logz.csv row %v against log_z_replicates[%d] = %v", c.name, r, b, perRep[b])
			}
			fwd, rev, avg, diff = append(fwd, f), append(rev, v), append(avg, a), append(diff, d)
		}
		m, s := meanSE(avg)
		md, _ := batch.MeanSD(diff)
		if math.Abs(m-est) > 1e-12*math.Abs(est) || math.Abs(s-se) > 1e-12*se || math.Abs(md-obj["log_z_reverse_minus_forward"].(float64)) > 1e-12*math.Abs(est) {
			t.Errorf("%s: logz.csv gives %v ± %v, difference %v; JSON %v ± %v", c.name, m, s, md, est, se)
		}
		mf, sf := meanSE(fwd)
		mr, sr := meanSE(rev)
		if math.Abs(mf-mr) > 4*math.Hypot(sf, sr) {
			t.Errorf("%s: forward %.5f ± %.5f and reverse %.5f ± %.5f disagree", c.name, mf, sf, mr, sr)
		}
	}
}

// TestRunLambdaCSV checks lambda.csv of `ptbatch run --out`: its header,
// 100 rows per replicate on the grid t_i = i/99, a cumulative barrier that
// starts at 0 and never decreases and a local barrier ≥ 0, and Λ(1) of
// each replicate equal to its last scan's barrier Σ r_n in scans.csv (the
// interpolant passes through the schedule's cumulative rejections, so they
// agree to rounding), hence their mean to the JSON's barrier within 5%.
func TestRunLambdaCSV(t *testing.T) {
	dir := t.TempDir()
	obj, _ := runJSON(t, "--dim", "2", "--sigma0", "0.2", "--sigma1", "0.2", "--chains", "12", "--iterations", "2000",
		"--scans", "4", "--replicates", "5", "--path", "spline", "--knots", "2", "--out", dir)
	rows := readCSV(t, filepath.Join(dir, "lambda.csv"))
	if want := []string{"replicate", "t", "local_barrier", "cumulative_barrier"}; !slices.Equal(rows[0], want) {
		t.Fatalf("header %v", rows[0])
	}
	if len(rows)-1 != 5*100 {
		t.Fatalf("%d rows, want 500", len(rows)-1)
	}
	lastBarrier := map[string]float64{}
	for _, r := range readCSV(t, filepath.Join(dir, "scans.csv"))[1:] {
		if r[1] == "4" {
			lastBarrier[r[0]] = parseFloat(t, r[3])
		}
	}
	sum := 0.0
	for b := 0; b < 5; b++ {
		prev := 0.0
		for i := 0; i < 100; i++ {
			r := rows[1+b*100+i]
			tt, loc, cum := parseFloat(t, r[1]), parseFloat(t, r[2]), parseFloat(t, r[3])
			if r[0] != strconv.Itoa(b) || math.Abs(tt-float64(i)/99) > 1e-15 || loc < 0 || cum < prev || (i == 0 && cum != 0) {
				t.Fatalf("row %v: want replicate %d, t = %d/99, local ≥ 0, cumulative from 0 and ≥ %v", r, b, i, prev)
			}
			prev = cum
		}
		want := lastBarrier[strconv.Itoa(b)]
		if math.Abs(prev-want) > 1e-9*want {
			t.Errorf("replicate %d: Λ(1) = %v, last scan's barrier %v", b, prev, want)
		}
		sum += prev
	}
	barrier := obj["barrier"].(float64)
	if math.Abs(sum/5-barrier) > 0.05*barrier {
		t.Errorf("mean Λ(1) %v, barrier %v", sum/5, barrier)
	}
	for _, name := range []string{"lambda.png", "lambda.svg"} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestRunRestarts checks restarts against round trips. Every round trip
// contains a restart (its first half), and each replica has at most one
// restart whose round trip is unfinished, so per replicate
//
//	round trips ≤ restarts ≤ round trips + chains,
//
// and the last scan's counts differ by at most the number of chains,
// so |restart_rate - round_trip_rate| ≤ chains / (iterations per scan).
// The run makes about 350 round trips per replicate (at least 20 are
// required), so the bounds are not met by zeros.
func TestRunRestarts(t *testing.T) {
	const chains, perScan = 8, 1000
	obj, _ := runJSON(t, "--dim", "1", "--sigma0", "0.5", "--sigma1", "0.5", "--chains", strconv.Itoa(chains),
		"--iterations", strconv.Itoa(3*perScan), "--scans", "3", "--replicates", "9")
	trips, restarts := floats(t, obj["round_trips"]), floats(t, obj["restarts"])
	if len(restarts) != 9 {
		t.Fatalf("%d restarts, want 9", len(restarts))
	}
	for b := range trips {
		if trips[b] < 20 || restarts[b] < trips[b] || restarts[b] > trips[b]+chains {
			t.Errorf("replicate %d: %v round trips, %v restarts: want 20 ≤ round trips ≤ restarts ≤ round trips + %d", b, trips[b], restarts[b], chains)
		}
	}
	rr, tr := obj["restart_rate"].(float64), obj["round_trip_rate"].(float64)
	if math.Abs(rr-tr) > float64(chains)/perScan {
		t.Errorf("restart rate %v, round-trip rate %v: differ by more than %d/%d", rr, tr, chains, perScan)
	}
}

// TestRunESSExactSampler checks the ESS fields on the Gaussian, whose
// local exploration is an exact independent draw, so that the target
// chain's states are independent and the ESS is about the number of draws
// n = 2000: with a = 62 batches of b = 32 draws (BatchMeans: b is the power
// of two in (√(n/2), √(2n)]), σ̂² has a relative sd of √(2/(a-1)) ≈ 0.18
// and n·s²/σ̂² a mean of about (a-1)/(a-3) ≈ 1.03 (Jensen), so the mean of
// ESS/n over 16 replicates × 2 coordinates has an sd of about 0.03 and must
// be within 0.25 of 1 (it is 1.10 with this seed). ess_draws is the
// kept scans' iterations, ess_per_second the sum over replicates over the
// elapsed time, and ess_round_trip_ceiling the round trips of the kept
// scans (scans.csv).
func TestRunESSExactSampler(t *testing.T) {
	dir := t.TempDir()
	obj, _ := runJSON(t, "--dim", "2", "--sigma0", "0.5", "--sigma1", "0.5", "--chains", "8", "--iterations", "4000",
		"--scans", "4", "--keep-scans", "2", "--replicates", "16", "--out", dir)
	if n := obj["ess_draws"].(float64); n != 2000 {
		t.Fatalf("ess_draws %v, want 2000", n)
	}
	ess := obj["ess"].([]any)
	if len(ess) != 16 {
		t.Fatalf("ess has %d replicates, want 16", len(ess))
	}
	sums := make([]float64, 2)
	ratio := 0.0
	for _, row := range ess {
		v := floats(t, row)
		if len(v) != 2 {
			t.Fatalf("ess row %v, want 2 observables", v)
		}
		for k, x := range v {
			sums[k] += x
			ratio += x / 2000 / 32
		}
	}
	if math.Abs(ratio-1) > 0.25 {
		t.Errorf("mean ESS/draws %v, want about 1 for independent draws", ratio)
	}
	elapsed := obj["elapsed_seconds"].(float64)
	for k, r := range floats(t, obj["ess_per_second"]) {
		if math.Abs(r-sums[k]/elapsed) > 1e-9*r {
			t.Errorf("ess_per_second[%d] %v, want %v", k, r, sums[k]/elapsed)
		}
	}
	cum := map[[2]string]float64{}
	for _, r := range readCSV(t, filepath.Join(dir, "scans.csv"))[1:] {
		cum[[2]string{r[0], r[1]}] = parseFloat(t, r[2])
	}
	for b, c := range floats(t, obj["ess_round_trip_ceiling"]) {
		rep := strconv.Itoa(b)
		if want := cum[[2]string{rep, "4"}] - cum[[2]string{rep, "2"}]; c != want {
			t.Errorf("replicate %d: ess_round_trip_ceiling %v, want the round trips of scans 3 and 4, %v", b, c, want)
		}
	}
}

// TestRunIndexRecord checks index.csv of --record index: with a window of
// the last 200 of 600 iterations thinned by 4 and 3 replicas of 9 chains
// followed, 3 replicates × 50 iterations × 3 replicas rows, the replicas
// spread evenly (0, 4, 8), iterations in the window and multiples of 4,
// in scan, replicate, iteration order, and at distinct chains in [0, 9) at
// each iteration; with --index-replicas 0 every replica is followed and
// each iteration's chains are a permutation.
func TestRunIndexRecord(t *testing.T) {
	for _, c := range []struct {
		replicas string
		want     []int
	}{{"3", []int{0, 4, 8}}, {"0", []int{0, 1, 2, 3, 4, 5, 6, 7, 8}}} {
		dir := t.TempDir()
		_, errs, code := runCLI("run", "--dim", "1", "--sigma0", "0.5", "--sigma1", "0.5", "--chains", "9", "--iterations", "600",
			"--scans", "3", "--replicates", "3", "--out", dir, "--record", "index", "--index-window", "200", "--index-thin", "4",
			"--index-replicas", c.replicas, "--quiet")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		rows := readCSV(t, filepath.Join(dir, "index.csv"))
		if want := []string{"replicate", "iteration", "replica", "chain"}; !slices.Equal(rows[0], want) {
			t.Fatalf("header %v", rows[0])
		}
		k := len(c.want)
		if len(rows)-1 != 3*50*k {
			t.Fatalf("--index-replicas %s: %d rows, want %d", c.replicas, len(rows)-1, 3*50*k)
		}
		prev := [3]int{0, -1, 0} // scan, replicate, iteration
		for i := 1; i < len(rows); i += k {
			b, _ := strconv.Atoi(rows[i][0])
			m, _ := strconv.Atoi(rows[i][1])
			scan := (m-1)/200 + 1
			if m <= 400 || m > 600 || m%4 != 0 || [3]int{scan, b, m} == prev || !lessOrEqual(prev, [3]int{scan, b, m}) {
				t.Fatalf("row %v after %v: want iterations 401–600, multiples of 4, in scan, replicate, iteration order", rows[i], prev)
			}
			prev = [3]int{scan, b, m}
			seen := map[int]bool{}
			for j, r := range rows[i : i+k] {
				n, _ := strconv.Atoi(r[3])
				if r[0] != rows[i][0] || r[1] != rows[i][1] || r[2] != strconv.Itoa(c.want[j]) || n < 0 || n >= 9 || seen[n] {
					t.Fatalf("rows %v: want replicas %v at distinct chains in [0, 9)", rows[i:i+k], c.want)
				}
				seen[n] = true
			}
		}
		for _, name := range []string{"index.png", "index.svg"} {
			if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Size() == 0 {
				t.Errorf("%s: %v", name, err)
			}
		}
	}
}

// lessOrEqual compares a and b lexicographically.
func lessOrEqual(a, b [3]int) bool { return slices.Compare(a[:], b[:]) <= 0 }

// TestRunStatisticsFilesInvariance checks that the new JSON fields and
// logz.csv, lambda.csv and index.csv are the same, byte for byte, with 1
// and 2 workers (10 replicates: two blocks), on the Gaussian and on the
// galaxy mixture (a model whose states move between chains).
func TestRunStatisticsFilesInvariance(t *testing.T) {
	fields := []string{"log_z", "log_z_se", "log_z_replicates", "log_z_reverse_minus_forward", "log_z_exact",
		"restarts", "restart_rate", "ess", "ess_draws", "ess_round_trip_ceiling"}
	for _, model := range [][]string{
		{"--dim", "2", "--sigma0", "0.3", "--sigma1", "0.2", "--chains", "8", "--iterations", "400", "--scans", "4"},
		{"--model", "galaxy", "--chains", "6", "--iterations", "40", "--scans", "2"},
	} {
		var first map[string]any
		var firstFiles map[string][]byte
		for _, workers := range []string{"1", "2"} {
			dir := t.TempDir()
			obj, _ := runJSON(t, append(model, "--replicates", "10", "--workers", workers, "--out", dir, "--record", "index")...)
			files := map[string][]byte{}
			for _, name := range []string{"logz.csv", "lambda.csv", "index.csv"} {
				b, err := os.ReadFile(filepath.Join(dir, name))
				if err != nil || len(b) == 0 {
					t.Fatalf("%s: %v", name, err)
				}
				files[name] = b
			}
			for _, f := range fields {
				if _, ok := obj[f]; !ok {
					t.Errorf("JSON lacks %q", f)
				}
			}
			if first == nil {
				first, firstFiles = obj, files
				continue
			}
			for _, f := range fields {
				if !jsonEqual(obj[f], first[f]) {
					t.Errorf("%v: %s differs between 1 and 2 workers", model[:2], f)
				}
			}
			for name, b := range files {
				if string(b) != string(firstFiles[name]) {
					t.Errorf("%v: %s differs between 1 and 2 workers", model[:2], name)
				}
			}
		}
	}
}

// jsonEqual compares two decoded JSON values.
func jsonEqual(a, b any) bool {
	switch a := a.(type) {
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !jsonEqual(a[i], b[i]) {
				return false
			}
		}
		return true
	default:
		return a == b
	}
}

// TestRunTableShowsStatistics checks that the human table reports log Z
// with its standard error and exact value, restarts, and the ESS.
func TestRunTableShowsStatistics(t *testing.T) {
	out, errs, code := runCLI("run", "--sigma0", "0.3", "--sigma1", "0.2", "--chains", "8", "--iterations", "400",
		"--scans", "4", "--replicates", "3", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"log Z = log(Z1/Z0), last scan", " ± ", "exact -0.4054651081", "restarts (all scans, all replicates)",
		"ESS of x0 (kept scans)", "of 200 draws"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

// TestRecordBadInput checks that bad --record and --index-* flags are
// refused with one line naming the flag, status 2.
func TestRecordBadInput(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--record", "index"}, "--out DIR"},
		{[]string{"--out", dir, "--record", "samples"}, `--record "samples"`},
		{[]string{"--out", dir, "--index-window", "10"}, "--record index"},
		{[]string{"--out", dir, "--index-thin", "2"}, "--record index"},
		{[]string{"--index-replicas", "2"}, "--record index"},
		{[]string{"--out", dir, "--record", "index", "--index-window", "-1"}, "--index-window -1"},
		{[]string{"--out", dir, "--record", "index", "--index-thin", "0"}, "--index-thin 0"},
		{[]string{"--out", dir, "--record", "index", "--index-replicas", "-3"}, "--index-replicas -3"},
		{[]string{"--out", dir, "--record", "index", "--chains", "5", "--index-replicas", "6"}, "--index-replicas 6"},
	}
	for _, c := range cases {
		out, errs, code := runCLI(append([]string{"run", "--quiet"}, c.args...)...)
		if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2, nothing, one line with %q", c.args, code, out, errs, c.want)
		}
	}
}

// TestReproduceReportsLogZAndLambda checks that `ptbatch reproduce` adds
// log Z and restarts to its table and summary.csv, lambda.csv (a row per
// method, replicate and grid point) and the λ-profile figures, on the
// Beta-binomial at 1% of the paper's iterations.
func TestReproduceReportsLogZAndLambda(t *testing.T) {
	dir := t.TempDir()
	out, errs, code := runCLI("reproduce", "betabinomial", "--out", dir, "--scale", "0.01", "--replicates", "2", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"| restarts (mean)", "| log Z, last scan (mean ± se)", "its exact value for this model is -122772.5"} {
		if !strings.Contains(out, want) {
			t.Errorf("results lack %q", want)
		}
	}
	sub := filepath.Join(dir, "betabinomial")
	summary := readCSV(t, filepath.Join(sub, "summary.csv"))
	for _, col := range []string{"log_z", "log_z_se", "restarts_mean"} {
		if !slices.Contains(summary[0], col) {
			t.Errorf("summary.csv lacks %s", col)
		}
	}
	rows := readCSV(t, filepath.Join(sub, "lambda.csv"))
	if len(rows)-1 != len(reproduceMethods)*2*100 {
		t.Errorf("lambda.csv has %d rows, want %d", len(rows)-1, len(reproduceMethods)*2*100)
	}
	for _, name := range []string{"lambda.png", "lambda.svg", "lambda_cumulative.png", "lambda_cumulative.svg"} {
		if fi, err := os.Stat(filepath.Join(sub, name)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestHelpListsRecordFlags checks that `ptbatch run --help` explains the
// flags of the index record.
func TestHelpListsRecordFlags(t *testing.T) {
	out, _, code := runCLI("run", "--help")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"--record string", "index.csv", "--index-window int", "--index-thin int", "--index-replicas int"} {
		if !strings.Contains(out, want) {
			t.Errorf("help lacks %q", want)
		}
	}
}
