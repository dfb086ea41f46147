package rundir

import (
	"errors"
	"fmt"
	"math/bits"
	"os"
	"path/filepath"
	"slices"
)

// Share returns the units [lo, hi) = [⌊(i−1)U/n⌋, ⌊iU/n⌋) of shard i of n
// of U units (1 ≤ i ≤ n): shards 1..n tile [0, U) contiguously, in order,
// their sizes differing by at most one. The products are exact (128-bit)
// for every int.
func Share(i, n, units int) (lo, hi int) {
	at := func(k int) int {
		h, l := bits.Mul64(uint64(k), uint64(units))
		q, _ := bits.Div64(h, l, uint64(n))
		return int(q)
	}
	return at(i - 1), at(i)
}

// A Shard is the directory of one shard of a command and its manifest,
// read and with every file it records verified (ReadShards).
type Shard struct {
	Dir      string
	Manifest *Manifest
}

// A ShardError refuses shards for a merge, in one line (Error); Dst is
// set when the merge's destination is one of the shards.
type ShardError struct {
	Dst bool
	Msg string
}

// Error describes the refusal.
func (e *ShardError) Error() string { return e.Msg }

// refuseShard returns a *ShardError with the formatted message.
func refuseShard(format string, args ...any) error {
	return &ShardError{Msg: fmt.Sprintf(format, args...)}
}

// PathError returns err with an *os.PathError inside it, if any, as "op
// path: cause" and without the text wrapped around it.
func PathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s %s: %w", pe.Op, pe.Path, pe.Err)
	}
	return err
}

// ReadShards reads the manifests of the shard directories dirs for a
// merge into dst and verifies every file each records (VerifyFiles),
// before anything else of them is read. It refuses, with a *ShardError,
// a directory that is dst or has no readable manifest of this format,
// and shards that do not make one whole: of different commands or
// builds, splits or unit counts, a shard given twice or missing, one
// whose units are not its share (Share) or that is not complete. same,
// when not nil, is the command's own check of each shard against the
// first (its configuration), whose error is returned as it is. The shards
// are returned in shard order.
func ReadShards(dst string, dirs []string, same func(a, s Shard) error) ([]Shard, error) {
	var shards []Shard
	for _, d := range dirs {
		s, err := readShard(dst, d)
		if err != nil {
			return nil, err
		}
		shards = append(shards, s)
	}
	a := shards[0].Manifest
	seen := map[int]string{}
	for _, s := range shards {
		if err := checkPair(shards[0], s, same); err != nil {
			return nil, err
		}
		m := s.Manifest
		if prev, ok := seen[m.Shard]; ok {
			return nil, refuseShard("shard %d/%d given twice: %s and %s", m.Shard, m.Shards, prev, s.Dir)
		}
		seen[m.Shard] = s.Dir
		if err := checkShare(s); err != nil {
			return nil, err
		}
	}
	var missing []string
	for i := 1; i <= a.Shards; i++ {
		if _, ok := seen[i]; !ok {
			missing = append(missing, fmt.Sprintf("%d/%d", i, a.Shards))
		}
	}
	if len(missing) > 0 {
		return nil, refuseShard("missing shards: %v of ptbatch %s; give every shard's directory", missing, a.Command)
	}
	slices.SortFunc(shards, func(x, y Shard) int { return x.Manifest.Shard - y.Manifest.Shard })
	return shards, nil
}

// checkPair refuses the shard s when it is not of the first shard a's
// command, build (and, by same, configuration), split and units.
func checkPair(a, s Shard, same func(a, s Shard) error) error {
	x, m := a.Manifest, s.Manifest
	switch {
	case m.Command != x.Command:
		return refuseShard("shards of different commands: %s is ptbatch %s, %s is ptbatch %s", a.Dir, x.Command, s.Dir, m.Command)
	case m.Version != x.Version:
		return refuseShard("shards of different builds: %s was written by %q, %s by %q; results may differ between builds, so compute every shard with one", a.Dir, x.Version, s.Dir, m.Version)
	}
	if same != nil {
		if err := same(a, s); err != nil {
			return err
		}
	}
	switch {
	case m.Shards != x.Shards:
		return refuseShard("shards of different splits: %s is shard %d/%d, %s is shard %d/%d", a.Dir, x.Shard, x.Shards, s.Dir, m.Shard, m.Shards)
	case m.Units != x.Units || m.Shard < 1 || m.Shard > m.Shards:
		return refuseShard("shard %s: manifest inconsistent with %s (units %d and %d, shard %d/%d)", s.Dir, a.Dir, m.Units, x.Units, m.Shard, m.Shards)
	}
	return nil
}

// checkShare refuses a shard whose units are not its share, or that is
// not complete.
func checkShare(s Shard) error {
	m := s.Manifest
	lo, hi := Share(m.Shard, m.Shards, m.Units)
	switch {
	case m.First != lo || m.End != hi:
		return refuseShard("shard %s: manifest says %ss %d to %d, shard %d/%d of %d is %d to %d", s.Dir, m.Unit, m.First, m.End-1, m.Shard, m.Shards, m.Units, lo, hi-1)
	case !m.Complete:
		how := "stopped before its end (killed?)"
		if m.Interrupted {
			how = "was interrupted"
		}
		return refuseShard("shard %s (%d/%d) is partial: it %s after %d of its %d %ss; run it again (a sweep continues with --resume) and merge then",
			s.Dir, m.Shard, m.Shards, how, m.Done-m.First, m.End-m.First, m.Unit)
	}
	return nil
}

// readShard reads the manifest of the shard directory d and verifies
// every file it records; dst, the merge's destination, must not be d.
func readShard(dst, d string) (Shard, error) {
	dstAbs, _ := filepath.Abs(dst)
	dstInfo, _ := os.Stat(dst)
	abs, _ := filepath.Abs(d)
	info, err := os.Stat(d)
	switch {
	case err != nil:
		return Shard{}, refuseShard("cannot read shard directory %s: %v", d, PathError(err))
	case !info.IsDir():
		return Shard{}, refuseShard("shard %s is not a directory", d)
	case abs == dstAbs || (dstInfo != nil && os.SameFile(info, dstInfo)):
		return Shard{}, &ShardError{Dst: true, Msg: d + " is the merge's destination and one of the shards; merge into a new directory"}
	}
	m, err := ReadManifest(d)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return Shard{}, refuseShard("shard %s has no %s: not the --out of ptbatch run, sweep or reproduce", d, ManifestName)
	case err != nil:
		return Shard{}, refuseShard("shard %s: unreadable %s: %v", d, ManifestName, err)
	case m.Format != ManifestFormat:
		return Shard{}, refuseShard("shard %s: manifest format %d, this ptbatch reads format %d: merge with the ptbatch that wrote it", d, m.Format, ManifestFormat)
	}
	if err := VerifyFiles(d, m); err != nil {
		return Shard{}, refuseShard("shard %s is damaged: %v; compute the shard again", d, PathError(err))
	}
	return Shard{d, m}, nil
}
