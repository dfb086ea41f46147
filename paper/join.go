package paper

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/ptbatch/ptbatch/rundir"
	"github.com/ptbatch/ptbatch/runout"
)

// ErrJoin is matched by JoinRun's errors about the shards' records of a
// run: one unreadable, or records that do not merge into the whole run.
var ErrJoin = errors.New("paper: the shards' records do not join into the run")

// joinError is an ErrJoin with its message.
type joinError struct{ msg string }

func (e *joinError) Error() string        { return e.msg }
func (e *joinError) Is(target error) bool { return target == ErrJoin }

// RunFile is the file of run k (in the order of Settings.Plan) in a
// reproduction's output directory: runs/NNN.gob, its runout.Record.
func RunFile(k int) string { return filepath.Join("runs", fmt.Sprintf("%03d.gob", k)) }

// JoinRun returns the record of run, number k of the plan, merged
// (runout.Merge, each statistic merging itself) from the shards whose
// units hold some of its replicates, each shard's RunFile(k) as its
// manifest records it (rundir.Shard.File), and checked to hold every
// replicate of the run. Errors of Shard.File are returned as they are;
// the others match ErrJoin.
func JoinRun(run Run, k int, shards []rundir.Shard) (*runout.Record, error) {
	var parts []*runout.Record
	for _, s := range shards {
		if lo, hi := run.Within(s.Manifest.First, s.Manifest.End); lo == hi {
			continue
		}
		path, err := s.File(RunFile(k))
		if err != nil {
			return nil, err
		}
		p, err := runout.ReadRecord(path)
		if err != nil {
			return nil, &joinError{fmt.Sprintf("shard %s: run %q: %v", s.Dir, run.Label, err)}
		}
		parts = append(parts, p)
	}
	rec, err := runout.Merge(parts)
	if err == nil && (rec.Result.Config.FirstReplicate != 0 || rec.Result.Config.Replicates != run.Replicates) {
		c := rec.Result.Config
		err = fmt.Errorf("the shards hold replicates %d to %d of %d", c.FirstReplicate, c.FirstReplicate+c.Replicates-1, run.Replicates)
	}
	if err != nil {
		return nil, &joinError{fmt.Sprintf("merging run %q: %v", run.Label, err)}
	}
	return rec, nil
}
