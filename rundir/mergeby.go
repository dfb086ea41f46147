package rundir

import (
	"context"
	"fmt"
	"path/filepath"
)

// A Merger writes into the held directory dst the merge of shards (read
// and verified by ReadShards, read-locked while it runs) of the command
// it is given for; m is the merged manifest (MergedManifest), which it
// may complete and which is written after it returns. It is the only
// code that knows the command's files: a run's merger joins its records,
// a sweep's its rows.
type Merger func(ctx context.Context, dst string, shards []Shard, m *Manifest) error

// An UnknownCommandError refuses shards of a command that no Merger is
// given for; Manifest is the first shard's manifest.json.
type UnknownCommandError struct {
	Manifest, Command string
}

// Error names the manifest and the command.
func (e *UnknownCommandError) Error() string {
	return fmt.Sprintf("%s: unknown command %q", e.Manifest, e.Command)
}

// MergeBy is Merge with the writer chosen by the shards' command among
// mergers: the dispatch of a merge by command, so that a program merges
// the shards of any command it has a Merger for. Shards of a command
// without one are refused with an *UnknownCommandError, with nothing
// written. The Merger's error is returned as it is.
func MergeBy(ctx context.Context, d *Dir, shards []Shard, stale []string, mergers map[string]Merger) (*Manifest, error) {
	return Merge(d, shards, stale, func(m *Manifest) error {
		merge, ok := mergers[m.Command]
		if !ok {
			return &UnknownCommandError{Manifest: filepath.Join(shards[0].Dir, ManifestName), Command: m.Command}
		}
		return merge(ctx, d.path, shards, m)
	})
}
