package study

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/runloop"
)

// Progress is reported after every scan of every piece.
type Progress struct {
	Piece, Pieces int // the piece running, from 0, of the shard's
	Run           int // its run's index in the plan
	Scan, Scans   int
	Elapsed       time.Duration // since the piece started
}

// Checkpoints stores the engine state of the piece that is running, under
// a key that names the piece (its run and replicates), so that an
// interrupted study resumes where it stopped.
type Checkpoints interface {
	// Save stores data under key, replacing what was there.
	Save(key string, data []byte) error
	// Load returns what Save stored under key, or nil and no error when
	// nothing was.
	Load(key string) ([]byte, error)
}

// Options are the settings of Execute that do not change its results.
type Options struct {
	// Workers is batch.Config.Workers of every engine (0: all CPUs).
	Workers int
	// Progress, when not nil, is called after every scan.
	Progress func(Progress)
	// Checkpoints, when not nil, receives a checkpoint of the running
	// engine every CheckpointEvery scans (0: only when interrupted) and
	// when ctx ends the run; Execute resumes a piece from its
	// checkpoint.
	Checkpoints     Checkpoints
	CheckpointEvery int
	// Done, when not nil, receives each piece's cells as it finishes, in
	// order, so that a caller can store them; Skip, when not nil, returns
	// the cells of a piece finished by an earlier, interrupted call, which
	// Execute then does not run again.
	Done func(Piece, []Cell) error
	Skip func(Piece) ([]Cell, bool, error)
	// Result, when not nil, receives each finished piece's engine result
	// before Done, for what a caller measures beyond the cells (its
	// replicates are the piece's, Config.FirstReplicate its First).
	Result func(Piece, *batch.Result) error
	// NoLogZ leaves the stepping-stone estimate out (Cell.LogZ is NaN),
	// and with it its cost of two exponentials per pair of chains,
	// replicate and kept iteration (batch.LogZ).
	NoLogZ bool
}

// ErrInterrupted is returned, wrapped with ctx's error, when ctx ends a
// study before its last piece has finished.
var ErrInterrupted = errors.New("study: interrupted")

// Execute runs the pieces of plan p (a shard, or p.Pieces()) one after
// the other, each on an Engine of its replicates, and returns their cells
// in order. When ctx ends it checkpoints the running piece (with
// Options.Checkpoints) and returns the cells finished so far and an error
// that matches ErrInterrupted and ctx's error.
func Execute(ctx context.Context, p *Plan, pieces []Piece, o Options) ([]Cell, error) {
	var out []Cell
	for i, pc := range pieces {
		if o.Skip != nil {
			cs, ok, err := o.Skip(pc)
			if err != nil {
				return out, err
			}
			if ok {
				out = append(out, cs...)
				continue
			}
		}
		cs, err := runPiece(ctx, p, pc, i, len(pieces), o)
		if err != nil {
			return out, err
		}
		if o.Done != nil {
			if err := o.Done(pc, cs); err != nil {
				return out, err
			}
		}
		out = append(out, cs...)
	}
	return out, nil
}

// CheckpointKey returns the key of a piece's checkpoint:
// "run<r>-replicates<first>-<end>".
func CheckpointKey(pc Piece) string {
	return fmt.Sprintf("run%d-replicates%d-%d", pc.Run, pc.First, pc.First+pc.Replicates)
}

// PieceConfig returns the engine configuration of a piece: its run's with
// the piece's replicates, the workers of o, and (unless o.NoLogZ) a
// batch.LogZ over the kept scans, which it also returns.
func PieceConfig(p *Plan, pc Piece, o Options) (batch.Config, *batch.LogZ, error) {
	run := &p.Runs[pc.Run]
	m, err := run.NewModel()
	if err != nil {
		return batch.Config{}, nil, err
	}
	cfg, err := run.Config(m)
	if err != nil {
		return cfg, nil, err
	}
	cfg.FirstReplicate, cfg.Replicates, cfg.Workers = pc.First, pc.Replicates, o.Workers
	if o.NoLogZ {
		return cfg, nil, nil
	}
	lz := &batch.LogZ{FromScan: cfg.Scans - cfg.KeepScansInEffect() + 1}
	cfg.Statistics = []batch.Statistic{lz}
	return cfg, lz, nil
}

// runPiece runs one piece with runloop.Run, from its checkpoint when
// there is one; when ctx ends it, the checkpoint of the scan under way
// is saved and the error matches ErrInterrupted.
func runPiece(ctx context.Context, p *Plan, pc Piece, i, n int, o Options) ([]Cell, error) {
	cfg, lz, err := PieceConfig(p, pc, o)
	if err != nil {
		return nil, err
	}
	var ro runloop.Options
	if o.Progress != nil {
		ro.Progress = func(pr batch.Progress) {
			o.Progress(Progress{Piece: i, Pieces: n, Run: pc.Run, Scan: pr.Scan, Scans: pr.Scans, Elapsed: pr.Elapsed})
		}
	}
	if ck := o.Checkpoints; ck != nil {
		if ro.Resume, err = ck.Load(CheckpointKey(pc)); err != nil {
			return nil, err
		}
		ro.Save = func(data []byte, _ *batch.Engine, _ runloop.Why) error { return ck.Save(CheckpointKey(pc), data) }
		ro.Every.Scans = o.CheckpointEvery
	}
	res, err := runloop.Run(ctx, cfg, ro)
	if err != nil {
		return nil, err
	}
	if res.Interrupted {
		return nil, fmt.Errorf("%w: %w", ErrInterrupted, ctx.Err())
	}
	if o.Result != nil {
		if err := o.Result(pc, res); err != nil {
			return nil, err
		}
	}
	return cells(pc, res, lz), nil
}
