package studydir

import (
	"fmt"

	"github.com/ptbatch/ptbatch/rundir"
)

// An OutError refuses the output directory itself: another process holds
// it (Err is a *rundir.LockedError), its lock cannot be taken (Lock), it
// cannot be read, or a symbolic link is under it (Link, relative to
// Path).
type OutError struct {
	Path string
	Link string
	Lock bool
	Err  error
}

// Error describes the refusal.
func (e *OutError) Error() string {
	switch {
	case e.Link != "":
		return fmt.Sprintf("%s: %s is a symbolic link: a study writes no output through a link", e.Path, e.Link)
	case e.Lock:
		return fmt.Sprintf("%s: cannot lock the directory: %v", e.Path, rundir.PathError(e.Err))
	default:
		return fmt.Sprintf("%s: cannot read the directory: %v", e.Path, rundir.PathError(e.Err))
	}
}

// Unwrap returns the cause.
func (e *OutError) Unwrap() error { return e.Err }

// A ResumeError refuses to resume: the directory does not hold this shard
// of this plan (Damaged nil), or a finished piece's file is not what its
// manifest records (Damaged says how).
type ResumeError struct {
	Path    string
	Shard   Shard
	Damaged error
}

// Error describes the refusal.
func (e *ResumeError) Error() string {
	if e.Damaged != nil {
		return fmt.Sprintf("cannot resume: %v", rundir.PathError(e.Damaged))
	}
	return fmt.Sprintf("%s does not hold this study's shard %d/%d", e.Path, e.Shard.Shard, e.Shard.Shards)
}

// Unwrap returns the damage, if any.
func (e *ResumeError) Unwrap() error { return e.Damaged }

// refuse returns the *rundir.ShardError of a refused merge: a shard that
// is not a complete, intact shard of the plan the others are of, or a set
// of shards that is not every shard once.
func refuse(format string, args ...any) error {
	return &rundir.ShardError{Msg: fmt.Sprintf(format, args...)}
}
