package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/rundir"
)

// ptbatch merge combines the output directories of the shards of one
// command (--shard i/n) into exactly what one process computing all of
// it writes: the same bytes in every CSV, and a summary.json equal apart
// from its timing fields (elapsed_seconds, chain_steps_per_second,
// tuning_fraction, go_version, config.workers) and config.out. The shards
// are checked first, from their manifest.json: one command, one
// configuration, one build, each shard 1..n once, each complete, and
// every file each records with the length and SHA-256 it was written
// with (rundir.VerifyFiles), before anything is read or written. A
// refused merge removes what it wrote. The outputs are still rebuilt by
// parsing the arguments a manifest records, but only after checking that
// they give the settings it records (checkArgs).

const mergeIntro = `Usage: ptbatch merge --out DIR SHARD_DIR...

Combines the output directories of the shards of one run, sweep or reproduce
(written with --shard i/n, or in a Slurm job array or Kubernetes Indexed Job) into
DIR: the same files, byte for byte in every CSV, as one process computing it all.
Refuses shards of different configurations or builds, a missing or repeated shard,
a shard that did not finish (rerun it, or resume a sweep with --resume), and a shard
whose files changed after they were written (their checksums are in its manifest).`

// runMerge is `ptbatch merge`.
func runMerge(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var out string
	var quiet bool
	c := newCmdFlags("merge")
	c.String(&out, "out", "", "directory to write the merged output into (required; not one of the shards)")
	c.Bool(&quiet, "quiet", false, "no summary line on stdout")
	// Directories and flags in any order.
	var dirs []string
	err := c.fs.Parse(args)
	for err == nil && c.err == nil && c.fs.NArg() > 0 {
		dirs = append(dirs, c.fs.Arg(0))
		err = c.fs.Parse(c.fs.Args()[1:])
	}
	if err := c.finishParse(err, stdout, mergeIntro); err != nil {
		return err
	}
	switch {
	case out == "":
		return usagef("merge needs --out DIR")
	case len(dirs) == 0:
		return usagef("merge needs the shard directories: ptbatch merge --out DIR SHARD_DIR...")
	}
	if isStudyShard(dirs[0]) {
		return mergeStudy(out, dirs, stdout, stderr, quiet) // studymerge.go
	}
	shards, err := readShards(c, out, dirs)
	if err != nil {
		return err
	}
	_, statErr := os.Stat(out)
	if err := checkOut(c, "out", out); err != nil {
		return err
	}
	od, err := holdOut(c, "out", out, stderr)
	if err != nil {
		return err
	}
	m, err := mergeInto(ctx, od, shards, stderr)
	if err != nil {
		od.discard(statErr != nil)
		return err
	}
	od.release()
	if !quiet {
		fmt.Fprintf(stdout, "merged %d shards of ptbatch %s (%d units: %s) into %s\n", len(shards), m.Command, m.Units, m.Unit, out)
	}
	return nil
}

// mergeInto writes the merge of shards into od, which it first empties
// of a previous command's files, and returns the manifest it wrote. The
// shards are read-locked until it returns.
func mergeInto(ctx context.Context, od *outDir, shards []shardDir, stderr io.Writer) (*manifest, error) {
	if link, err := rundir.FindSymlink(od.path); err != nil || link != "" {
		return nil, usagef("invalid --out %s: %s is a symbolic link (%v): merge writes no output through a link; remove it", od.path, filepath.Join(od.path, link), err)
	}
	prev, _ := readManifest(od.path)
	if err := od.dir.RemoveStale(prev, staleOutputs...); err != nil {
		return nil, err
	}
	for _, s := range shards {
		// A shard being written now is refused; its shared lock is held
		// until the merge ends, so no writer starts meanwhile.
		release, err := rundir.ReadLock(s.dir)
		var le *rundir.LockedError
		if errors.As(err, &le) {
			return nil, usagef("shard %s is being written by another process (it holds %s); merge it when that process ends", s.dir, filepath.Join(s.dir, lockName))
		}
		if err != nil {
			return nil, usagef("shard %s: cannot read its lock: %v", s.dir, unwrapPath(err))
		}
		defer release()
	}
	first := shards[0].m
	m := &manifest{Format: manifestFormat, Command: first.Command, Version: first.Version, Fingerprint: first.Fingerprint,
		Settings: first.Settings, Args: first.Args, Shard: 1, Shards: 1, Unit: first.Unit, Units: first.Units,
		End: first.Units, Done: first.Units, Complete: true}
	for _, s := range shards {
		m.ElapsedSeconds += s.m.ElapsedSeconds
	}
	mctx := context.WithValue(ctx, mergeKey{}, &mergeSource{shards: shards, elapsed: m.ElapsedSeconds})
	var err error
	switch first.Command {
	case "run":
		err = mergeRun(shards, od.path, m)
	case "sweep":
		err = mergeSweep(mctx, shards, od.path, m)
	case "reproduce":
		err = mergeReproduce(mctx, shards, od.path, stderr)
	default:
		err = fmt.Errorf("%s: unknown command %q", filepath.Join(shards[0].dir, manifestName), first.Command)
	}
	if err != nil {
		return nil, err
	}
	return m, od.dir.WriteManifest(m)
}

// shardDir is one input of merge.
type shardDir struct {
	dir string
	m   *manifest
}

// readShards reads the manifests of dirs, in shard order, and refuses
// shards that do not make one whole.
func readShards(c *cmdFlags, out string, dirs []string) ([]shardDir, error) {
	var shards []shardDir
	for _, d := range dirs {
		s, err := readShardDir(c, out, d)
		if err != nil {
			return nil, err
		}
		shards = append(shards, s)
	}
	a := shards[0]
	seen := map[int]string{}
	for _, s := range shards {
		switch {
		case s.m.Command != a.m.Command:
			return nil, usagef("shards of different commands: %s is ptbatch %s, %s is ptbatch %s", a.dir, a.m.Command, s.dir, s.m.Command)
		case s.m.Version != a.m.Version:
			return nil, usagef("shards of different builds: %s was written by %q, %s by %q; results may differ between builds, so compute every shard with one", a.dir, a.m.Version, s.dir, s.m.Version)
		case s.m.Fingerprint != fingerprint(s.m.Command, s.m.Settings):
			return nil, usagef("shard %s: its %s was edited (its fingerprint is not that of its settings); compute the shard again", s.dir, manifestName)
		case s.m.Fingerprint != a.m.Fingerprint || !reflect.DeepEqual(s.m.Settings, a.m.Settings):
			return nil, usagef("shards of different configurations: %s and %s differ in %s", a.dir, s.dir, settingDiff(a.m.Settings, s.m.Settings))
		case !slices.Equal(resultArgs(s.m.Args), resultArgs(a.m.Args)):
			return nil, usagef("shards of different arguments: %s has %q, %s has %q; the settings agree, so a %s was edited", a.dir, a.m.Args, s.dir, s.m.Args, manifestName)
		case s.m.Shards != a.m.Shards:
			return nil, usagef("shards of different splits: %s is shard %d/%d, %s is shard %d/%d", a.dir, a.m.Shard, a.m.Shards, s.dir, s.m.Shard, s.m.Shards)
		case s.m.Units != a.m.Units || s.m.Shard < 1 || s.m.Shard > s.m.Shards:
			return nil, usagef("shard %s: manifest inconsistent with %s (units %d and %d, shard %d/%d)", s.dir, a.dir, s.m.Units, a.m.Units, s.m.Shard, s.m.Shards)
		}
		if prev, ok := seen[s.m.Shard]; ok {
			return nil, usagef("shard %d/%d given twice: %s and %s", s.m.Shard, s.m.Shards, prev, s.dir)
		}
		seen[s.m.Shard] = s.dir
		lo, hi := (&shard{index: s.m.Shard, count: s.m.Shards}).share(s.m.Units)
		switch {
		case s.m.First != lo || s.m.End != hi:
			return nil, usagef("shard %s: manifest says %ss %d to %d, shard %d/%d of %d is %d to %d", s.dir, s.m.Unit, s.m.First, s.m.End-1, s.m.Shard, s.m.Shards, s.m.Units, lo, hi-1)
		case !s.m.Complete:
			how := "stopped before its end (killed?)"
			if s.m.Interrupted {
				how = "was interrupted"
			}
			return nil, usagef("shard %s (%d/%d) is partial: it %s after %d of its %d %ss; run it again (a sweep continues with --resume) and merge then",
				s.dir, s.m.Shard, s.m.Shards, how, s.m.Done-s.m.First, s.m.End-s.m.First, s.m.Unit)
		}
	}
	var missing []string
	for i := 1; i <= a.m.Shards; i++ {
		if _, ok := seen[i]; !ok {
			missing = append(missing, fmt.Sprintf("%d/%d", i, a.m.Shards))
		}
	}
	if len(missing) > 0 {
		return nil, usagef("missing shards: %v of ptbatch %s; give every shard's directory", missing, a.m.Command)
	}
	slices.SortFunc(shards, func(x, y shardDir) int { return x.m.Shard - y.m.Shard })
	return shards, nil
}

// readShardDir reads the manifest of the shard directory d and verifies
// every file it records; out is the merge's --out, which must not be d.
func readShardDir(c *cmdFlags, out, d string) (shardDir, error) {
	outAbs, _ := filepath.Abs(out)
	outInfo, _ := os.Stat(out)
	abs, _ := filepath.Abs(d)
	info, err := os.Stat(d)
	switch {
	case err != nil:
		return shardDir{}, usagef("cannot read shard directory %s: %v", d, unwrapPath(err))
	case !info.IsDir():
		return shardDir{}, usagef("shard %s is not a directory", d)
	case abs == outAbs || (outInfo != nil && os.SameFile(info, outInfo)):
		return shardDir{}, c.bad("out", "is also one of the shards; merge into a new directory")
	}
	m, err := readManifest(d)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return shardDir{}, usagef("shard %s has no %s: not the --out of ptbatch run, sweep or reproduce", d, manifestName)
	case err != nil:
		return shardDir{}, usagef("shard %s: unreadable %s: %v", d, manifestName, err)
	case m.Format != manifestFormat:
		return shardDir{}, usagef("shard %s: manifest format %d, this ptbatch reads format %d: merge with the ptbatch that wrote it", d, m.Format, manifestFormat)
	}
	if err := rundir.VerifyFiles(d, m); err != nil {
		return shardDir{}, usagef("shard %s is damaged: %v; compute the shard again", d, unwrapPath(err))
	}
	return shardDir{d, m}, nil
}

// settingDiff names the first setting that differs, with both values.
func settingDiff(a, b map[string]string) string {
	var keys []string
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		va, oka := a[k]
		vb, okb := b[k]
		switch {
		case !oka || !okb:
			return fmt.Sprintf("--%s (set in one only)", k)
		case va != vb:
			return fmt.Sprintf("--%s (%s and %s)", k, va, vb)
		}
	}
	return "their fingerprints"
}

// noMemoryLimit is the memory limit of the command a merge rebuilds:
// the merge runs none of its computation.
const noMemoryLimit = 1 << 62

// mergeKey is the context key of the shards a merge reads.
type mergeKey struct{}

// mergeSource is what a merge gives the command it rebuilds the output
// with: the shards.
type mergeSource struct {
	shards  []shardDir
	elapsed float64
}

// runRecordFormat is the version of result.gob's layout.
const runRecordFormat = 1

// resultName is the file a run's exact result goes to.
const resultName = "result.gob"

// runRecord is a run's complete result, exactly (gob keeps every float's
// bits), in result.gob beside the CSVs: what a merge rebuilds every output
// from. Result.Config keeps only FirstReplicate and Replicates (the rest
// comes from the flags); PerReplicate holds the statistics' per-replicate
// rows by name ("target_means", "log_z_forward", …), and Shared the
// values every replicate range shares ("ess_draws", "lambda_grid").
type runRecord struct {
	Format       int
	Result       batch.Result
	PerReplicate map[string][][]float64
	Shared       map[string][]float64
}

// momentsSource gives the target moments of a run, per replicate and
// observable: a *batch.TargetMoments, or the rows a merge read.
type momentsSource interface {
	Means() [][]float64
	Vars() [][]float64
}

// storedMoments are target moments read back from result.gob.
type storedMoments struct{ means, vars [][]float64 }

func (s storedMoments) Means() [][]float64 { return s.means }
func (s storedMoments) Vars() [][]float64  { return s.vars }

// newRunRecord returns the record of res and its target moments.
func newRunRecord(res *batch.Result, moments momentsSource) *runRecord {
	r := &runRecord{Format: runRecordFormat, Result: *res, PerReplicate: map[string][][]float64{}, Shared: map[string][]float64{}}
	r.Result.Config = batch.Config{FirstReplicate: res.Config.FirstReplicate, Replicates: res.Config.Replicates}
	if moments != nil {
		r.PerReplicate["target_means"] = padRows(moments.Means(), res.Config.Replicates)
		r.PerReplicate["target_vars"] = padRows(moments.Vars(), res.Config.Replicates)
	}
	return r
}

// padRows returns rows with exactly n rows (nil rows added).
func padRows(rows [][]float64, n int) [][]float64 {
	for len(rows) < n {
		rows = append(rows, nil)
	}
	return rows
}

// readRunRecord reads a result.gob.
func readRunRecord(path string) (*runRecord, error) {
	var r runRecord
	if err := rundir.ReadRecord(path, &r); err != nil {
		return nil, err
	}
	if r.Format != runRecordFormat {
		return nil, fmt.Errorf("%s: format %d, this ptbatch reads %d", path, r.Format, runRecordFormat)
	}
	return &r, nil
}

// perReplicateFields are batch.Result's fields indexed by replicate,
// concatenated by a merge (empty in every part, or with an entry per
// replicate in every part); Elapsed and TuningFraction are timings; every
// other field must be equal in every part, so that a merge refuses a
// field it does not know how to join rather than drop it.
var perReplicateFields = map[string]bool{
	"RoundTrips": true, "RoundTripRates": true, "Rejections": true, "Schedules": true, "Knots": true, "History": true,
	"TuningRounds": true, "TuningIterations": true, "TuningFrozen": true,
}

// concatRecords joins the records of consecutive replicate ranges, in
// order, into the record of all of them: per-replicate fields and rows
// concatenated, elapsed times summed, the tuning fraction their
// time-weighted mean, and every other field checked equal.
func concatRecords(parts []*runRecord) (*runRecord, error) {
	out := &runRecord{Format: runRecordFormat, PerReplicate: map[string][][]float64{}, Shared: parts[0].Shared}
	next := parts[0].Result.Config.FirstReplicate
	var tuning float64
	for _, p := range parts {
		if p.Result.Config.FirstReplicate != next {
			return nil, fmt.Errorf("replicates %d and on missing (the next part starts at %d)", next, p.Result.Config.FirstReplicate)
		}
		next += p.Result.Config.Replicates
		tuning += p.Result.TuningFraction * p.Result.Elapsed.Seconds()
		out.Result.Elapsed += p.Result.Elapsed
	}
	out.Result.Config = batch.Config{FirstReplicate: parts[0].Result.Config.FirstReplicate, Replicates: next - parts[0].Result.Config.FirstReplicate}
	if s := out.Result.Elapsed.Seconds(); s > 0 {
		out.Result.TuningFraction = tuning / s
	}
	dst := reflect.ValueOf(&out.Result).Elem()
	t := dst.Type()
	for i := 0; i < t.NumField(); i++ {
		name := t.Field(i).Name
		switch name {
		case "Config", "Elapsed", "TuningFraction":
			continue
		}
		f := dst.Field(i)
		for k, p := range parts {
			v := reflect.ValueOf(&p.Result).Elem().Field(i)
			switch {
			case perReplicateFields[name]:
				empty := reflect.ValueOf(&parts[0].Result).Elem().Field(i).Len() == 0
				if (empty && v.Len() != 0) || (!empty && v.Len() != p.Result.Config.Replicates) {
					return nil, fmt.Errorf("part %d: Result.%s has %d entries for %d replicates", k, name, v.Len(), p.Result.Config.Replicates)
				}
				f.Set(reflect.AppendSlice(f, v))
			case k == 0:
				f.Set(v)
			case !reflect.DeepEqual(f.Interface(), v.Interface()):
				return nil, fmt.Errorf("the parts differ in Result.%s (%v and %v)", name, f.Interface(), v.Interface())
			}
		}
	}
	for k, p := range parts {
		if !sameShared(p.Shared, out.Shared) {
			return nil, fmt.Errorf("part %d: the statistics' shared values (%v) differ from part 0's (%v)", k, p.Shared, out.Shared)
		}
	}
	for name := range parts[0].PerReplicate {
		for k, p := range parts {
			rows, ok := p.PerReplicate[name]
			if !ok || len(rows) != p.Result.Config.Replicates {
				return nil, fmt.Errorf("part %d: %s has %d rows for %d replicates", k, name, len(rows), p.Result.Config.Replicates)
			}
			out.PerReplicate[name] = append(out.PerReplicate[name], rows...)
		}
	}
	return out, nil
}

// mergeRun writes the merged output of the shards of a run: the CSVs and
// summary.json from the joined result.gob (by the functions a run uses),
// and samples.csv by joining the shards' rows scan by scan.
func mergeRun(shards []shardDir, out string, m *manifest) error {
	// An edited manifest is refused with one line, exit 2 (issue 26, cause 8).
	edited := func(err error) error {
		return usagef("shard %s: %s does not rebuild the run its shards computed (edited?): %v", shards[0].dir, manifestName, err)
	}
	f, err := parseRunFlags(append(slices.Clone(m.Args), "--out", out), io.Discard)
	if err != nil {
		return edited(err)
	}
	limit := f.maxMemory
	f.maxMemory = noMemoryLimit // a merge runs nothing
	cfg, err := f.config()
	f.maxMemory = limit
	if err == nil && cfg.Replicates != m.Units {
		err = fmt.Errorf("its args give %d replicates, its units are %d", cfg.Replicates, m.Units)
	}
	if err == nil {
		err = checkArgs(m, f.flags) // after config, which derives --scans of --tuning auto
	}
	if err != nil {
		return edited(err)
	}
	rec, err := joinRunRecords(shards)
	if err != nil {
		return err
	}
	res := rec.Result
	res.Config = cfg
	moments := storedMoments{rec.PerReplicate["target_means"], rec.PerReplicate["target_vars"]}
	if err := writeCSVs(out, f, &res); err != nil {
		return err
	}
	stats := mergedRunStats(rec, cfg)
	if err := stats.writeFiles(out, &res); err != nil {
		return err
	}
	perScan := cfg.Iterations / cfg.Scans
	if err := mergeStreamed(shards, out, "samples.csv", perScan); err != nil {
		return err
	}
	if f.record == "index" {
		if err := mergeStreamed(shards, out, "index.csv", perScan); err != nil {
			return err
		}
		if err := indexFigureFrom(filepath.Join(out, "index.csv"), f.indexSpec(&cfg).replicas).figure(&res).save(filepath.Join(out, "index")); err != nil {
			return fmt.Errorf("index figure: %w", err)
		}
	}
	var js bytes.Buffer
	if err := writeJSON(&js, f, &res, moments, stats); err != nil {
		return err
	}
	if err := writeBytesAtomic(filepath.Join(out, "summary.json"), js.Bytes()); err != nil {
		return err
	}
	rec.Result.Config = batch.Config{Replicates: cfg.Replicates}
	return rundir.WriteRecord(filepath.Join(out, resultName), rec)
}

// joinRunRecords reads the shards' result.gob and joins them.
func joinRunRecords(shards []shardDir) (*runRecord, error) {
	var parts []*runRecord
	for _, s := range shards {
		path, err := shardFile(s, resultName)
		if err != nil {
			return nil, err
		}
		r, err := readRunRecord(path)
		if err != nil {
			return nil, usagef("shard %s: %v", s.dir, err)
		}
		if got := r.Result.Config; got.FirstReplicate != s.m.First || got.Replicates != s.m.End-s.m.First {
			return nil, usagef("shard %s: %s holds replicates %d to %d, its manifest says %d to %d", s.dir, resultName,
				got.FirstReplicate, got.FirstReplicate+got.Replicates-1, s.m.First, s.m.End-1)
		}
		parts = append(parts, r)
	}
	rec, err := concatRecords(parts)
	if err != nil {
		return nil, fmt.Errorf("merging %s: %w", resultName, err)
	}
	return rec, nil
}

// mergeStreamed joins the shards' files name (samples.csv, index.csv),
// which a run writes scan by scan — rows `replicate,iteration,…`, each
// scan's replicate by replicate — so the rows of scan s are shard 1's rows
// of scan s, then shard 2's, and so on; lines are copied unchanged.
func mergeStreamed(shards []shardDir, out, name string, perScan int) error {
	var readers []*bufio.Reader
	var header []byte
	for _, s := range shards {
		if _, err := os.Lstat(filepath.Join(s.dir, name)); errors.Is(err, os.ErrNotExist) {
			if len(readers) > 0 {
				return usagef("shard %s has no %s, the others have one", s.dir, name)
			}
			continue
		}
		path, err := shardFile(s, name)
		if err != nil {
			return err
		}
		fh, err := os.Open(path)
		if err != nil {
			return err
		}
		defer fh.Close()
		r := bufio.NewReaderSize(fh, 1<<16)
		h, err := r.ReadBytes('\n')
		if err != nil {
			return usagef("shard %s: %s has no header", s.dir, name)
		}
		if header != nil && !bytes.Equal(h, header) {
			return usagef("shard %s: %s's header %q differs from %q", s.dir, name, bytes.TrimSpace(h), bytes.TrimSpace(header))
		}
		header = h
		readers = append(readers, r)
	}
	if len(readers) == 0 {
		return nil
	}
	if len(readers) != len(shards) {
		return usagef("some shards have %s and some do not", name)
	}
	// scanOf returns the scan of a row (from its iteration), -1 at the end.
	pending := make([][]byte, len(readers))
	scanOf := func(k int) (int, error) {
		if pending[k] == nil {
			line, err := readers[k].ReadBytes('\n')
			if errors.Is(err, io.EOF) && len(line) == 0 {
				return -1, nil
			}
			if err != nil && !errors.Is(err, io.EOF) {
				return 0, err
			}
			pending[k] = line
		}
		fields := bytes.SplitN(pending[k], []byte(","), 3)
		if len(fields) < 2 {
			return 0, usagef("shard %s: %s has a malformed row %q", shards[k].dir, name, bytes.TrimSpace(pending[k]))
		}
		it, err := strconv.Atoi(string(bytes.TrimSpace(fields[1])))
		if err != nil || it < 1 {
			return 0, usagef("shard %s: %s has a malformed row %q", shards[k].dir, name, bytes.TrimSpace(pending[k]))
		}
		return (it-1)/perScan + 1, nil
	}
	return writeFileAtomic(filepath.Join(out, name), func(w io.Writer) error {
		if _, err := w.Write(header); err != nil {
			return err
		}
		for {
			scan := math.MaxInt
			for k := range readers {
				s, err := scanOf(k)
				if err != nil {
					return err
				}
				if s >= 0 && s < scan {
					scan = s
				}
			}
			if scan == math.MaxInt {
				return nil
			}
			for k := range readers {
				for {
					s, err := scanOf(k)
					if err != nil {
						return err
					}
					if s != scan {
						break
					}
					if _, err := w.Write(pending[k]); err != nil {
						return err
					}
					pending[k] = nil
				}
			}
		}
	})
}

// indexFigureFrom reads replicate 0's records from index.csv
// (`replicate,iteration,replica,chain`, k rows per record) for the figure
// of the index process, as the run keeps them.
func indexFigureFrom(path string, replicas []int) *indexRecord {
	r := &indexRecord{replicas: replicas}
	b, err := os.ReadFile(path)
	if err != nil {
		return r
	}
	k := len(replicas)
	var row int
	for _, line := range bytes.Split(b, []byte("\n"))[1:] {
		f := bytes.Split(line, []byte(","))
		if len(f) != 4 || string(f[0]) != "0" {
			continue
		}
		m, _ := strconv.Atoi(string(f[1]))
		n, _ := strconv.Atoi(string(f[3]))
		if row%max(k, 1) == 0 {
			r.iters = append(r.iters, m)
		}
		r.chains = append(r.chains, n)
		row++
	}
	return r
}

// mergedRunStats returns the statistics of a run with the values of rec.
func mergedRunStats(rec *runRecord, cfg batch.Config) *runStats {
	v := restoreStats(rec)
	return &runStats{logZ: v.logZ, restarts: v.restarts, ess: v.ess, profile: v.profile, model: cfg.Model}
}

// sameShared reports whether two records' shared values are equal bit
// for bit.
func sameShared(a, b map[string][]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, x := range a {
		y, ok := b[k]
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if math.Float64bits(x[i]) != math.Float64bits(y[i]) {
				return false
			}
		}
	}
	return true
}

// The statistics of runStats and reproduceStats are read through these
// interfaces, which the batch statistics satisfy, so that a merge can give
// them the values joined from the shards (the stored types below).
type (
	logZValues interface {
		Forward() []float64
		Reverse() []float64
		Estimates() []float64
		Differences() []float64
	}
	restartValues interface {
		Counts() []int
		ScanRates() []float64
	}
	essValues interface {
		Values() [][]float64
		Draws() int
	}
	profileValues interface {
		Grid() []float64
		Local() [][]float64
		Cumulative() [][]float64
	}
)

// statValues are the statistics a record keeps; nil ones are absent.
type statValues struct {
	logZ     logZValues
	restarts restartValues
	ess      essValues
	profile  profileValues
}

// column returns xs as rows of one value.
func column(xs []float64) [][]float64 {
	out := make([][]float64, len(xs))
	for i, x := range xs {
		out[i] = []float64{x}
	}
	return out
}

// uncolumn is column's inverse.
func uncolumn(rows [][]float64) []float64 {
	out := make([]float64, len(rows))
	for i, r := range rows {
		if len(r) > 0 {
			out[i] = r[0]
		}
	}
	return out
}

// record adds the statistics' values to r.
func (v statValues) record(r *runRecord) {
	if v.logZ != nil {
		r.PerReplicate["log_z_forward"] = column(v.logZ.Forward())
		r.PerReplicate["log_z_reverse"] = column(v.logZ.Reverse())
		r.PerReplicate["log_z_estimates"] = column(v.logZ.Estimates())
		r.PerReplicate["log_z_differences"] = column(v.logZ.Differences())
	}
	if v.restarts != nil {
		counts := v.restarts.Counts()
		c := make([]float64, len(counts))
		for b, n := range counts {
			c[b] = float64(n)
		}
		r.PerReplicate["restarts"] = column(c)
		r.PerReplicate["restart_scan_rates"] = column(v.restarts.ScanRates())
	}
	if v.ess != nil {
		r.PerReplicate["ess"] = v.ess.Values()
		r.Shared["ess_draws"] = []float64{float64(v.ess.Draws())}
	}
	if v.profile != nil {
		r.PerReplicate["lambda_local"] = v.profile.Local()
		r.PerReplicate["lambda_cumulative"] = v.profile.Cumulative()
		r.Shared["lambda_grid"] = v.profile.Grid()
	}
}

// restoreStats returns the statistics recorded in r.
func restoreStats(r *runRecord) statValues {
	var v statValues
	p := r.PerReplicate
	if _, ok := p["log_z_forward"]; ok {
		v.logZ = storedLogZ{uncolumn(p["log_z_forward"]), uncolumn(p["log_z_reverse"]), uncolumn(p["log_z_estimates"]), uncolumn(p["log_z_differences"])}
	}
	if _, ok := p["restarts"]; ok {
		c := uncolumn(p["restarts"])
		counts := make([]int, len(c))
		for b, x := range c {
			counts[b] = int(x)
		}
		v.restarts = storedRestarts{counts, uncolumn(p["restart_scan_rates"])}
	}
	if d, ok := r.Shared["ess_draws"]; ok && len(d) == 1 {
		v.ess = storedESS{p["ess"], int(d[0])}
	}
	if g, ok := r.Shared["lambda_grid"]; ok {
		v.profile = storedProfile{g, p["lambda_local"], p["lambda_cumulative"]}
	}
	return v
}

// The stored statistics: values read back from records.
type (
	storedLogZ     struct{ fwd, rev, est, diff []float64 }
	storedRestarts struct {
		counts    []int
		scanRates []float64
	}
	storedESS struct {
		values [][]float64
		draws  int
	}
	storedProfile struct {
		grid       []float64
		local, cum [][]float64
	}
)

func (s storedLogZ) Forward() []float64         { return slices.Clone(s.fwd) }
func (s storedLogZ) Reverse() []float64         { return slices.Clone(s.rev) }
func (s storedLogZ) Estimates() []float64       { return slices.Clone(s.est) }
func (s storedLogZ) Differences() []float64     { return slices.Clone(s.diff) }
func (s storedRestarts) Counts() []int          { return slices.Clone(s.counts) }
func (s storedRestarts) ScanRates() []float64   { return slices.Clone(s.scanRates) }
func (s storedESS) Values() [][]float64         { return s.values }
func (s storedESS) Draws() int                  { return s.draws }
func (s storedProfile) Grid() []float64         { return slices.Clone(s.grid) }
func (s storedProfile) Local() [][]float64      { return s.local }
func (s storedProfile) Cumulative() [][]float64 { return s.cum }

// shardFile returns the path of the shard's file name, which its
// manifest must record: readShards verified every recorded file against
// its checksum, so a file it does not record is one nobody checked.
func shardFile(s shardDir, name string) (string, error) {
	if _, ok := s.m.Files[filepath.ToSlash(name)]; !ok {
		return "", usagef("shard %s: its %s records no %s, which the merge needs", s.dir, manifestName, name)
	}
	return filepath.Join(s.dir, filepath.FromSlash(name)), nil
}

// readShardFile returns the bytes of the shard's file name, checked
// again against the length and SHA-256 its manifest records.
func readShardFile(s shardDir, name string) ([]byte, error) {
	path, err := shardFile(s, name)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, usagef("shard %s: %v", s.dir, unwrapPath(err))
	}
	if rundir.SumBytes(b) != s.m.Files[filepath.ToSlash(name)] {
		return nil, usagef("shard %s is damaged: %s %v; compute the shard again", s.dir, path, rundir.ErrChecksum)
	}
	return b, nil
}

// checkArgs refuses a manifest whose recorded arguments, parsed again
// into c (with extra, the command's positional arguments), do not give
// its recorded settings: the merge rebuilds the command's outputs from
// those arguments, so an edited argument list must not change them
// unseen.
func checkArgs(m *manifest, c *cmdFlags, extra ...string) error {
	got := settingsOf(c)
	for i, e := range extra {
		got[fmt.Sprintf("arg%d", i)] = e
	}
	if !reflect.DeepEqual(got, m.Settings) {
		return usagef("the arguments its %s records give other settings than it records (%s): the manifest was edited; compute the shards again",
			manifestName, settingDiff(m.Settings, got))
	}
	return nil
}

// resultArgs returns args without --workers and --max-memory, which
// shards of one computation may give differently.
func resultArgs(args []string) []string {
	return slices.DeleteFunc(slices.Clone(args), func(a string) bool {
		return strings.HasPrefix(a, "--workers=") || strings.HasPrefix(a, "--max-memory=")
	})
}
