package studydir

import (
	"context"
	"errors"
	"fmt"

	"github.com/ptbatch/ptbatch/study"
)

// Run runs shard which of p into the directory path, which it holds from
// before the first piece to after the manifest's last write (Open,
// Dir.Options, study.Execute, Dir.Finish): so is the progress and
// checkpoint cadence of so. With o.Resume it goes on with the study the
// directory holds, and a complete one is left as it is, with a note. When
// ctx ends the study, it records the interruption in the manifest and
// returns study.Execute's error, which matches study.ErrInterrupted.
func Run(ctx context.Context, path string, p *study.Plan, which Shard, o Options, so study.Options) error {
	pieces, err := p.Shard(which.Shard, which.Shards)
	if err != nil {
		return err
	}
	j, err := Open(path, p, which, o)
	if err != nil {
		return err
	}
	defer j.Close()
	if j.Complete() {
		if o.Notes != nil {
			fmt.Fprintf(o.Notes, "%s: the study in %s is complete; nothing to resume\n", o.program(), path)
		}
		return nil
	}
	cells, err := study.Execute(ctx, p, pieces, j.Options(so))
	if errors.Is(err, study.ErrInterrupted) {
		if ierr := j.Interrupt(); ierr != nil {
			return ierr
		}
		return err
	}
	if err != nil {
		return err
	}
	return j.Finish(cells)
}
