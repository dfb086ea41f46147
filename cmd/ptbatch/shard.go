package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/rundir"
)

// Shards. Replicate b of a run draws from the stream of (seed, b) alone
// (batch.Config.FirstReplicate), so the work of a command splits into
// units — replicates for run, cells × replicates for sweep, runs ×
// replicates for reproduce — that any process can compute, with the same
// bits as inside one process. Shard i of n computes the contiguous units
// [⌊(i−1)U/n⌋, ⌊iU/n⌋) of the U in the command and writes them into its
// own --out, with a manifest.json that ptbatch merge checks.

// shardFlags are the flags that choose a shard.
type shardFlags struct {
	spec   string // --shard i/n as typed
	shards int    // --shards n, with JOB_COMPLETION_INDEX
}

// addShardFlags defines --shard and --shards.
func addShardFlags(c *cmdFlags, s *shardFlags) {
	c.String(&s.spec, "shard", "", "compute shard `i/n` (1 ≤ i ≤ n) of the work into --out, for ptbatch merge; default: from SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT (or _MIN/_MAX) in a Slurm job array, or JOB_COMPLETION_INDEX with --shards; --shard 1/1 computes everything")
	c.Int(&s.shards, "shards", 0, "the number of shards of a Kubernetes Indexed Job: shard JOB_COMPLETION_INDEX+1 of `n` (default: none)")
}

// shard is the part of the work one process computes.
type shard struct {
	index, count int    // 1-based index, of count
	source       string // how it was chosen, for the note on stderr
}

// lookupEnv reads the environment; tests replace it.
var lookupEnv = os.LookupEnv

// resolveShard returns the shard chosen by --shard, by --shards with
// JOB_COMPLETION_INDEX, or by a Slurm job array's variables, in that
// order; nil when none applies or the choice is 1/1. Bad values are usage
// errors naming the flag or the variable.
func resolveShard(c *cmdFlags, s *shardFlags) (*shard, error) {
	var sh *shard
	switch {
	case c.set("shard") && c.set("shards"):
		return nil, c.bad("shards", "counts the shards of a Kubernetes Indexed Job, which --shard %s chooses already; give one or the other", c.show("shard"))
	case c.set("shard"):
		i, n, ok := parseShardSpec(s.spec)
		if !ok {
			return nil, c.bad("shard", "want i/n with whole numbers 1 ≤ i ≤ n, such as 2/5")
		}
		sh = &shard{i, n, "--shard " + s.spec}
	case c.set("shards"):
		if s.shards < 1 {
			return nil, c.bad("shards", "need at least 1")
		}
		v, ok := lookupEnv("JOB_COMPLETION_INDEX")
		if !ok {
			return nil, c.bad("shards", "takes the shard from JOB_COMPLETION_INDEX, which is not set (Kubernetes sets it in the pods of an Indexed Job; elsewhere give --shard i/n)")
		}
		k, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || k < 0 || k >= s.shards {
			return nil, usagef("invalid JOB_COMPLETION_INDEX %q: want a whole number from 0 to %d (--shards %d)", v, s.shards-1, s.shards)
		}
		sh = &shard{k + 1, s.shards, fmt.Sprintf("JOB_COMPLETION_INDEX=%s with --shards %d", v, s.shards)}
	default:
		if v, ok := lookupEnv("JOB_COMPLETION_INDEX"); ok {
			// A Kubernetes Indexed Job: without the count, every pod would
			// compute the whole run.
			return nil, usagef("JOB_COMPLETION_INDEX=%q is set (a pod of a Kubernetes Indexed Job) but --shards is not: give --shards N, the Job's completions, or --shard i/n", v)
		}
		var err error
		if sh, err = slurmShard(); err != nil {
			return nil, err
		}
	}
	if sh == nil || sh.count == 1 {
		return nil, nil
	}
	return sh, nil
}

// parseShardSpec parses "i/n".
func parseShardSpec(spec string) (i, n int, ok bool) {
	a, b, found := strings.Cut(strings.TrimSpace(spec), "/")
	if !found {
		return 0, 0, false
	}
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	if err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return 0, 0, false
	}
	return i, n, true
}

// slurmShard returns the shard of a Slurm job array task: the task's
// position (SLURM_ARRAY_TASK_ID − SLURM_ARRAY_TASK_MIN)/SLURM_ARRAY_TASK_STEP
// among SLURM_ARRAY_TASK_COUNT tasks (or (MAX − MIN)/STEP + 1 without a
// count); nil outside an array. An array given as a list rather than a
// range (--array=1,4,9) has no such positions and is refused.
func slurmShard() (*shard, error) {
	if _, ok := lookupEnv("SLURM_ARRAY_TASK_ID"); !ok {
		return nil, nil
	}
	var v [5]int
	var notes [5]string
	for k, e := range []struct {
		name string
		def  int
	}{{"SLURM_ARRAY_TASK_ID", 0}, {"SLURM_ARRAY_TASK_MIN", 0}, {"SLURM_ARRAY_TASK_STEP", 1}, {"SLURM_ARRAY_TASK_MAX", -1}, {"SLURM_ARRAY_TASK_COUNT", 0}} {
		var err error
		if v[k], notes[k], err = slurmInt(e.name, e.def); err != nil {
			return nil, err
		}
	}
	id, lo, step := v[0], v[1], v[2]
	count, countNote, err := slurmCount(v, notes)
	if err != nil {
		return nil, err
	}
	used := []string{notes[0], countNote}
	if notes[1] != "" {
		used = append(used, notes[1])
	}
	pos := id - lo
	if count < 1 || pos < 0 || pos%step != 0 || pos/step >= count {
		return nil, usagef("invalid SLURM_ARRAY_TASK_ID %d: not one of the %d tasks from SLURM_ARRAY_TASK_MIN %d in steps of %d; shard a job array given as a range (--array=0-%d), or give --shard i/n",
			id, count, lo, step, max(count-1, 0))
	}
	return &shard{pos/step + 1, count, strings.Join(used, ", ")}, nil
}

// slurmInt reads the Slurm variable name as a whole number (def when it
// is unset or empty), with the note "NAME=value" when it is set.
func slurmInt(name string, def int) (int, string, error) {
	v, ok := lookupEnv(name)
	if !ok || strings.TrimSpace(v) == "" {
		return def, "", nil
	}
	x, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return 0, "", usagef("invalid %s %q: want a whole number (this task's shard comes from the Slurm job array's variables; --shard i/n overrides them)", name, v)
	}
	return x, name + "=" + v, nil
}

// slurmCount returns the number of tasks of a Slurm array from the values
// v and notes of SLURM_ARRAY_TASK_ID, _MIN, _STEP, _MAX and _COUNT (as
// slurmShard reads them), and the note of the variable it came from.
func slurmCount(v [5]int, notes [5]string) (int, string, error) {
	lo, step, hi, count := v[1], v[2], v[3], v[4]
	countNote, hiNote := notes[4], notes[3]
	switch {
	case step < 1:
		return 0, "", usagef("invalid SLURM_ARRAY_TASK_STEP %d: want 1 or more", step)
	case countNote != "" && hiNote != "" && (hi < lo || count != (hi-lo)/step+1):
		return 0, "", usagef("invalid SLURM_ARRAY_TASK_COUNT %d: the array is not a range (SLURM_ARRAY_TASK_MIN %d to _MAX %d in steps of %d has %d tasks), so a task's position is unknown; shard a job array given as a range (--array=0-%d), or give --shard i/n",
			count, lo, hi, step, (hi-lo)/step+1, max(count-1, 0))
	case countNote != "":
		return count, countNote, nil
	case hiNote != "":
		if hi < lo {
			return 0, "", usagef("invalid SLURM_ARRAY_TASK_MAX %d: below SLURM_ARRAY_TASK_MIN %d", hi, lo)
		}
		return (hi-lo)/step + 1, hiNote, nil
	}
	id, _ := lookupEnv("SLURM_ARRAY_TASK_ID")
	return 0, "", usagef("invalid SLURM_ARRAY_TASK_ID %q: neither SLURM_ARRAY_TASK_COUNT nor SLURM_ARRAY_TASK_MAX is set, so the number of shards is unknown (give --shard i/n)", id)
}

// share returns the units [lo, hi) of shard s among units in all; all of
// them when s is nil.
func (s *shard) share(units int) (lo, hi int) {
	if s == nil {
		return 0, units
	}
	return rundir.Share(s.index, s.count, units)
}

// check refuses a shard that would get no unit.
func (s *shard) check(units int, what string) error {
	if s != nil && s.count > units {
		return usagef("invalid shard %d/%d (%s): %d shards of %d %s leave some shards without work; use at most %d shards",
			s.index, s.count, s.source, s.count, units, what, units)
	}
	return nil
}

// note prints which shard this process computes and how it was chosen.
func (s *shard) note(w io.Writer, lo, hi, units int, what string) {
	if s != nil {
		fmt.Fprintf(w, "ptbatch: shard %d/%d (from %s): %s %d to %d of %d\n", s.index, s.count, s.source, what, lo, hi-1, units)
	}
}

// manifestFormat is the version of manifest.json's layout.
const manifestFormat = rundir.ManifestFormat

// manifest describes what an output directory holds (rundir.Manifest):
// ptbatch merge reads it to refuse shards that do not belong together,
// are not complete, or whose files changed after they were written.
type manifest = rundir.Manifest

// readManifest reads dir's manifest.
var readManifest = rundir.ReadManifest

// newManifest returns the manifest of command with its flag set c, for
// shard sh (nil: the whole) of units.
func newManifest(command string, c *cmdFlags, extra []string, sh *shard, unit string, units int) *manifest {
	m := &manifest{Format: manifestFormat, Command: command, Version: buildVersion(),
		Settings: settingsOf(c), Args: append(argsOf(c), extra...), Shard: 1, Shards: 1, Unit: unit, Units: units}
	for i, e := range extra {
		m.Settings[fmt.Sprintf("arg%d", i)] = e
	}
	if sh != nil {
		m.Shard, m.Shards, m.ShardSource = sh.index, sh.count, sh.source
	}
	m.First, m.End = sh.share(units)
	m.Done = m.First
	m.Fingerprint = fingerprint(command, m.Settings)
	return m
}

// newManifestOf is newManifest with the fingerprint from the command's
// configuration as data (rundir.Manifest.SetConfig): a value that
// describes everything that changes what the command writes, such as a
// canonical description of its batch.Config and output settings, or its
// plan. The flags it records (Settings, Args) are then for the record
// only: merge checks shards by the configuration and by checksums.
func newManifestOf(command string, config any, c *cmdFlags, extra []string, sh *shard, unit string, units int) (*manifest, error) {
	m := newManifest(command, c, extra, sh, unit, units)
	if err := m.SetConfig(config); err != nil {
		return nil, err
	}
	return m, nil
}

// ignoredSettings are the flags that change neither results nor files:
// where they go, how fast, how much is printed, which shard, where a
// checkpoint goes.
var ignoredSettings = map[string]bool{
	"out": true, "workers": true, "pin": true, "quiet": true, "json": true, "max-memory": true,
	"shard": true, "shards": true, "resume": true, "checkpoint": true, "checkpoint-every": true,
}

// settingsOf returns every setting of c that matters, as parsed.
func settingsOf(c *cmdFlags) map[string]string {
	out := map[string]string{}
	for _, name := range c.order {
		if !ignoredSettings[name] {
			out[name] = c.fs.Lookup(name).Value.String()
		}
	}
	return out
}

// argsOf returns the flags given, as typed, without those of
// ignoredSettings except --workers and --max-memory (reported in a run's
// JSON).
func argsOf(c *cmdFlags) []string {
	var out []string
	for _, name := range c.given {
		if !ignoredSettings[name] || name == "workers" || name == "max-memory" {
			out = append(out, "--"+name+"="+c.typed[name])
		}
	}
	return out
}

// fingerprint hashes the command and its settings.
func fingerprint(command string, settings map[string]string) string {
	keys := make([]string, 0, len(settings))
	for k := range settings {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	h := sha256.New()
	fmt.Fprintf(h, "%s\n", command)
	for _, k := range keys {
		fmt.Fprintf(h, "%s=%q\n", k, settings[k])
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// buildVersion is the build a manifest records (rundir.BuildVersion).
func buildVersion() string { return rundir.BuildVersion("ptbatch") }

// job is a command's hold on its --out directory: the lock, and the
// manifest kept up to date as units finish.
type job struct {
	dir   *outDir
	m     *manifest
	start time.Time
	prior float64 // seconds spent by earlier runs (a resumed sweep)
}

// staleOutputs are the files a run writes only with some flags
// (--record index), which a manifest of format 1 did not record: a fresh
// command in a reused --out removes them with the files the previous
// manifest records.
var staleOutputs = []string{"index.csv", "index.png", "index.svg"}

// startJob takes the lock of out and writes the manifest m (from
// newManifest: nothing done yet, or, for a resumed sweep, the state it
// goes on from); prior is the seconds spent before. A fresh job (not a
// resume) first removes what a previous command left in out, so that it
// holds only this command's files.
func startJob(c *cmdFlags, out string, m *manifest, prior float64, fresh bool, stderr io.Writer) (*job, error) {
	j, err := holdJob(c, out, m, prior, fresh, stderr)
	if err != nil {
		return nil, err
	}
	if err := j.writeManifest(); err != nil {
		j.dir.release()
		return nil, err
	}
	return j, nil
}

// holdJob is startJob without the manifest, for a command that writes it
// only once nothing more can be refused (run, whose --resume is checked
// against the restored engine).
func holdJob(c *cmdFlags, out string, m *manifest, prior float64, fresh bool, stderr io.Writer) (*job, error) {
	d, err := holdOut(c, "out", out, stderr)
	if err != nil {
		return nil, err
	}
	if link, err := rundir.FindSymlink(out); err != nil || link != "" {
		d.release()
		if err != nil {
			return nil, c.bad("out", "cannot read the directory: %v", unwrapPath(err))
		}
		return nil, c.bad("out", "%s is a symbolic link: ptbatch writes no output through a link; remove it", filepath.Join(out, link))
	}
	if fresh {
		prev, _ := readManifest(out) // none, or unreadable: nothing recorded to remove
		if err := d.dir.RemoveStale(prev, staleOutputs...); err != nil {
			d.release()
			return nil, fmt.Errorf("removing the previous output of %s: %w", out, err)
		}
	}
	return &job{dir: d, m: m, start: time.Now(), prior: prior}, nil
}

// writeManifest writes the manifest, with every file written so far.
func (j *job) writeManifest() error { return j.dir.dir.WriteManifest(j.m) }

// elapsed returns the seconds spent on the directory's work so far.
func (j *job) elapsed() float64 { return j.prior + time.Since(j.start).Seconds() }

// progress records that the units up to done are written.
func (j *job) progress(done int) error {
	j.m.Done, j.m.ElapsedSeconds = done, j.elapsed()
	return j.writeManifest()
}

// finish records the end: complete when every unit of the share is done
// and the command was not interrupted.
func (j *job) finish(done int, interrupted bool) error {
	j.m.Interrupted = interrupted
	j.m.Complete = !interrupted && done == j.m.End
	return j.progress(done)
}

// close releases the directory; nil-safe.
func (j *job) close() {
	if j != nil {
		j.dir.release()
	}
}

// finishRun writes summary.json (the JSON --json prints) and result.gob
// beside the run's CSVs, and marks the manifest complete unless the run
// was interrupted.
func (j *job) finishRun(res *batch.Result, moments momentsSource, stats *runStats, writeJSON func(io.Writer) error) error {
	if j == nil {
		return nil
	}
	var js bytes.Buffer
	if err := writeJSON(&js); err != nil {
		return err
	}
	if err := writeBytesAtomic(j.dir.file("summary.json"), js.Bytes()); err != nil {
		return err
	}
	rec := stats.record(res, moments) // runstats.go
	if err := rundir.WriteRecord(j.dir.file(resultName), rec); err != nil {
		return err
	}
	done := j.m.First
	if !res.Interrupted {
		done = j.m.End
	}
	return j.finish(done, res.Interrupted)
}

// reproduceUnits is the unit of reproduce's shards: run k (an
// experiment's method, or a highdim cell, in the order reproduce runs
// them) has units first_k … first_k + replicates_k − 1.
const reproduceUnits = "run × replicate"

// reproRun is one run of reproduce: an experiment's method or a highdim
// (d, K) cell.
type reproRun struct {
	label      string
	replicates int
	first      int // units [first, first+replicates) of it
}

// reproJob carries reproduce's runs through its shards and merges: it
// computes each run's share of replicates, keeps every finished run's
// result (runs/NNN.gob, written as it ends), and in a merge gives the
// report the runs joined from the shards instead of computing them.
type reproJob struct {
	*job
	sh      *shard
	runs    []reproRun
	next    int
	merge   *mergeSource
	seconds map[string]float64 // seconds per run label (summary.json)
}

// planReproduce lists reproduce's runs in the order it runs them.
func planReproduce(o reproduceOptions, todo []experiment, highdim bool) []reproRun {
	var runs []reproRun
	add := func(label string, reps int) {
		first := 0
		if n := len(runs); n > 0 {
			first = runs[n-1].first + runs[n-1].replicates
		}
		runs = append(runs, reproRun{label: label, replicates: reps, first: first})
	}
	for _, e := range todo {
		reps := e.replicates
		if o.replicates > 0 {
			reps = o.replicates
		}
		for _, m := range reproduceMethods {
			add(e.name+" "+m.name, reps)
		}
	}
	if highdim {
		reps := 5
		if o.replicates > 0 {
			reps = o.replicates
		}
		for _, d := range highDimDims {
			for _, k := range []int{1, 4} {
				add(fmt.Sprintf("highdim d=%d K=%d", d, k), reps)
			}
		}
	}
	return runs
}

// startReproduce chooses the shard, takes --out and writes its manifest.
func startReproduce(ctx context.Context, c *cmdFlags, o reproduceOptions, which string, todo []experiment, highdim bool, stderr io.Writer) (*reproJob, error) {
	r := &reproJob{runs: planReproduce(o, todo, highdim), merge: mergeFrom(ctx), seconds: map[string]float64{}}
	last := r.runs[len(r.runs)-1]
	units := last.first + last.replicates
	if r.merge == nil {
		sh, err := resolveShard(c, &o.shard)
		if err != nil {
			return nil, err
		}
		if err := sh.check(units, reproduceUnits+" units"); err != nil {
			return nil, err
		}
		r.sh = sh
	}
	m := newManifest("reproduce", c, []string{which}, r.sh, reproduceUnits, units)
	var j *job
	if r.merge != nil {
		// ptbatch merge holds the directory and writes the manifest.
		j = &job{dir: &outDir{path: o.out}, m: m, start: time.Now()}
	} else {
		var err error
		if j, err = startJob(c, o.out, m, 0, true, stderr); err != nil {
			return nil, err
		}
		lo, hi := r.sh.share(units)
		r.sh.note(stderr, lo, hi, units, reproduceUnits+" units") // after the refusals: one line each
	}
	r.job = j
	if err := os.MkdirAll(j.dir.file("runs"), 0o755); err != nil {
		j.close()
		return nil, err
	}
	return r, nil
}

// shardOnly reports whether this process computes a shard: it writes the
// runs' results, and the report is left to ptbatch merge.
func (r *reproJob) shardOnly() bool { return r.sh != nil }

// run is batch.Run for reproduce's run label: it computes this shard's
// replicates of it (all of them without shards) and writes their result
// into runs/, or in a merge joins the shards' results. It returns nil
// when the report is not made here (a shard).
func (r *reproJob) run(ctx context.Context, label string, cfg batch.Config, st *reproduceStats, prog func(batch.Progress)) (*batch.Result, error) {
	p, err := r.begin(label, cfg, st)
	if err != nil || p.done {
		return p.res, err
	}
	res, err := batch.Run(ctx, p.cfg, prog)
	return r.end(p, res, err, st)
}

// runAll is run for several labels: one after the other, stopping at an
// error or an interrupted run, or with concurrent all at once, each on its
// share of the workers (workers/len(labels), at least one), the results
// recorded in the order given so that runs/ and the report are those of
// running them one after the other. Reproduce runs concurrently the runs
// too small to keep every worker busy (fewer blocks of layout.Lanes
// replicates than workers); the progress functions are then called
// concurrently. It returns the results up to the first that failed or
// was interrupted.
func (r *reproJob) runAll(ctx context.Context, labels []string, cfgs []batch.Config, progs []func(batch.Progress), concurrent bool, workers int) ([]*batch.Result, error) {
	if !concurrent {
		var out []*batch.Result
		for i := range labels {
			res, err := r.run(ctx, labels[i], cfgs[i], nil, progs[i])
			out = append(out, res)
			if err != nil || (res != nil && res.Interrupted) {
				return out, err
			}
		}
		return out, nil
	}
	plans := make([]reproPlan, len(labels))
	for i := range labels {
		p, err := r.begin(labels[i], cfgs[i], nil)
		if err != nil {
			return nil, err
		}
		plans[i] = p
	}
	share := max(1, workers/len(labels))
	results := make([]*batch.Result, len(labels))
	errs := make([]error, len(labels))
	var wg sync.WaitGroup
	for i := range plans {
		if plans[i].done {
			continue
		}
		plans[i].cfg.Workers = share
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = batch.Run(ctx, plans[i].cfg, progs[i])
		}()
	}
	wg.Wait()
	out := make([]*batch.Result, len(labels))
	for i, p := range plans {
		if p.done {
			out[i] = p.res
			continue
		}
		res, err := r.end(p, results[i], errs[i], nil)
		if err != nil || (res != nil && res.Interrupted) {
			return append(out[:i], res), err
		}
		out[i] = res
	}
	return out, nil
}

// reproPlan is one run of reproduce between begin and end: its slot in
// the plan, the replicates this process computes (cfg), or, when done,
// the result to return without computing (a merge's, or nil for another
// shard's run).
type reproPlan struct {
	k, hi int
	label string
	cfg   batch.Config
	done  bool
	res   *batch.Result
}

// begin takes the next slot of the plan for label and says what to
// compute; in a merge it joins the shards' results of the run.
func (r *reproJob) begin(label string, cfg batch.Config, st *reproduceStats) (reproPlan, error) {
	k := r.next
	r.next++
	if k >= len(r.runs) || r.runs[k].label != label || r.runs[k].replicates != cfg.Replicates {
		return reproPlan{}, fmt.Errorf("reproduce: run %d is %q with %d replicates, not in the plan of its shards (planReproduce)", k, label, cfg.Replicates)
	}
	run := r.runs[k]
	name := runFile(k)
	if r.merge != nil {
		var parts []*runRecord
		for _, s := range r.merge.shards {
			if s.m.End <= run.first || s.m.First >= run.first+run.replicates {
				continue
			}
			path, err := shardFile(s, name)
			if err != nil {
				return reproPlan{}, err
			}
			p, err := readRunRecord(path)
			if err != nil {
				return reproPlan{}, usagef("shard %s: run %q: %v", s.dir, label, err)
			}
			parts = append(parts, p)
		}
		rec, err := concatRecords(parts)
		if err == nil && (rec.Result.Config.FirstReplicate != 0 || rec.Result.Config.Replicates != run.replicates) {
			err = fmt.Errorf("the shards hold replicates %d to %d of %d", rec.Result.Config.FirstReplicate, rec.Result.Config.FirstReplicate+rec.Result.Config.Replicates-1, run.replicates)
		}
		if err != nil {
			return reproPlan{}, usagef("merging run %q: %v", label, err)
		}
		r.seconds[label] = rec.Result.Elapsed.Seconds()
		if err := rundir.WriteRecord(r.dir.file(name), rec); err != nil {
			return reproPlan{}, err
		}
		if st != nil {
			v := restoreStats(rec)
			st.logZ, st.restarts, st.profile = v.logZ, v.restarts, v.profile
		}
		res := rec.Result
		res.Config = cfg
		return reproPlan{done: true, res: &res}, nil
	}
	lo, hi := max(run.first, r.m.First), min(run.first+run.replicates, r.m.End)
	if lo >= hi {
		return reproPlan{done: true}, nil // not this shard's
	}
	cfg.FirstReplicate, cfg.Replicates = lo-run.first, hi-lo
	return reproPlan{k: k, hi: hi, label: label, cfg: cfg}, nil
}

// end records a computed run: its result in runs/, its seconds and the
// manifest's progress. It returns the result for the report (nil in a
// shard), or the run's error, or an interrupted result unrecorded.
func (r *reproJob) end(p reproPlan, res *batch.Result, err error, st *reproduceStats) (*batch.Result, error) {
	if err != nil || res.Interrupted {
		return res, err
	}
	rec := newRunRecord(res, nil)
	if st != nil {
		statValues{logZ: st.logZ, restarts: st.restarts, profile: st.profile}.record(rec)
	}
	if err := rundir.WriteRecord(r.dir.file(runFile(p.k)), rec); err != nil {
		return nil, err
	}
	r.seconds[p.label] = res.Elapsed.Seconds()
	if err := r.progress(p.hi); err != nil {
		return nil, err
	}
	if r.shardOnly() {
		return nil, nil
	}
	return res, nil
}

// runFile is the file of run k under --out.
func runFile(k int) string { return filepath.Join("runs", fmt.Sprintf("%03d.gob", k)) }

// finishReproduce writes summary.json and the final manifest.
func (r *reproJob) finish(o reproduceOptions, which string, interrupted bool) error {
	out := map[string]any{
		"config": map[string]any{"experiment": which, "replicates": o.replicates, "scale": o.scale, "seed": o.seed,
			"workers": o.workers, "out": o.out},
		"runs":            len(r.runs),
		"runs_completed":  len(r.seconds),
		"interrupted":     interrupted,
		"seconds":         r.seconds,
		"elapsed_seconds": r.elapsed(),
		"go_version":      runtime.Version(),
	}
	if r.merge != nil {
		out["elapsed_seconds"] = r.merge.elapsed
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	if err := writeBytesAtomic(r.dir.file("summary.json"), append(b, '\n')); err != nil {
		return err
	}
	if r.merge != nil {
		return nil // merge writes the manifest
	}
	return r.job.finish(r.m.Done, interrupted)
}
