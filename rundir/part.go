package rundir

import (
	"fmt"
	"strconv"
	"strings"
)

// A Part is shard Index of Count (1 ≤ Index ≤ Count) of a command's
// units, the contiguous units Share(Index, Count, units), and Source says
// how it was chosen (such as "--shard 2/5", or a job array's variables),
// for notes and the manifest. A nil *Part is the whole work, in one
// process.
type Part struct {
	Index, Count int
	Source       string
}

// Share returns the units [lo, hi) of the part among units (Share); all
// of them for a nil part.
func (p *Part) Share(units int) (lo, hi int) {
	if p == nil {
		return 0, units
	}
	return Share(p.Index, p.Count, units)
}

// A PartError refuses a part of units What: more shards than units leave
// some shards without work.
type PartError struct {
	Part  Part
	Units int
	What  string
}

// Error says how many shards the units allow.
func (e *PartError) Error() string {
	p := e.Part
	return fmt.Sprintf("shard %d/%d (%s): %d shards of %d %s leave some shards without work; use at most %d shards",
		p.Index, p.Count, p.Source, p.Count, e.Units, e.What, e.Units)
}

// Check returns a *PartError when the part's shards outnumber units
// (what names them, such as "replicates"); nil for a nil part.
func (p *Part) Check(units int, what string) error {
	if p != nil && p.Count > units {
		return &PartError{Part: *p, Units: units, What: what}
	}
	return nil
}

// Note returns the line that says which units [lo, hi) of units the
// part computes and how it was chosen, such as "shard 2/5 (from --shard
// 2/5): replicates 4 to 5 of 10"; "" for a nil part.
func (p *Part) Note(lo, hi, units int, what string) string {
	if p == nil {
		return ""
	}
	return fmt.Sprintf("shard %d/%d (from %s): %s %d to %d of %d", p.Index, p.Count, p.Source, what, lo, hi-1, units)
}

// Manifest returns the manifest of command's part of units (unit names
// one), nothing done yet: its format, command, shard and share. The
// build, the arguments and the configuration are the caller's
// (Manifest.SetConfig).
func (p *Part) Manifest(command, unit string, units int) *Manifest {
	m := &Manifest{Format: ManifestFormat, Command: command, Shard: 1, Shards: 1, Unit: unit, Units: units}
	if p != nil {
		m.Shard, m.Shards, m.ShardSource = p.Index, p.Count, p.Source
	}
	m.First, m.End = p.Share(units)
	m.Done = m.First
	return m
}

// ParseSpec reads a shard written "i/n" (spaces allowed around each
// number): shard i of n, 1 ≤ i ≤ n. ok is false for anything else.
func ParseSpec(spec string) (i, n int, ok bool) {
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
