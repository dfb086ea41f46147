package rundir

import (
	"errors"
	"fmt"
	"reflect"
)

// ErrNotResumable is matched by the errors of Resumes: the directory holds
// output that this job cannot go on with.
var ErrNotResumable = errors.New("rundir: the directory's job cannot be resumed")

// resumeError is an ErrNotResumable with its reason.
type resumeError struct{ msg string }

func (e *resumeError) Error() string        { return e.msg }
func (e *resumeError) Is(target error) bool { return target == ErrNotResumable }

// Resumes returns nil when the job of manifest m can go on with the output
// whose manifest, prev, its directory holds: the same manifest format,
// command, configuration (fingerprint and settings), build and shard.
// Otherwise its error, matching ErrNotResumable, says why and what to do
// ("holds a sweep by another build …", the command's name m.Command).
func (m *Manifest) Resumes(prev *Manifest) error {
	what := m.Command
	switch {
	case prev.Format != ManifestFormat:
		return &resumeError{fmt.Sprintf("holds a %s whose manifest has format %d, this ptbatch reads format %d: finish it with the ptbatch that wrote it, or start afresh without --resume", what, prev.Format, ManifestFormat)}
	case prev.Command != m.Command:
		return &resumeError{fmt.Sprintf("holds the output of ptbatch %s, not a %s: nothing to resume", prev.Command, what)}
	case prev.Fingerprint != m.Fingerprint || !reflect.DeepEqual(prev.Settings, m.Settings):
		return &resumeError{fmt.Sprintf("holds a %s of another configuration (%s): resume with the same flags, or give another --out", what, SettingDiff(prev.Settings, m.Settings))}
	case prev.Version != m.Version:
		return &resumeError{fmt.Sprintf("holds a %s by another build (%q; this is %q), whose results may differ: finish it with that build, or start afresh without --resume", what, prev.Version, m.Version)}
	case prev.Shard != m.Shard || prev.Shards != m.Shards:
		return &resumeError{fmt.Sprintf("holds shard %d/%d of the %s, this is shard %d/%d: give each shard its own --out", prev.Shard, prev.Shards, what, m.Shard, m.Shards)}
	}
	return nil
}
