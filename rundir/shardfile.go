package rundir

import (
	"os"
	"path/filepath"
)

// File returns the path of the shard's file name (slash-separated,
// relative to its directory), which its manifest must record: ReadShards
// verified every recorded file against its checksum, so a file it does
// not record is one nobody checked, and File refuses it with a
// *ShardError.
func (s Shard) File(name string) (string, error) {
	if _, ok := s.Manifest.Files[filepath.ToSlash(name)]; !ok {
		return "", refuseShard("shard %s: its %s records no %s, which the merge needs", s.Dir, ManifestName, name)
	}
	return filepath.Join(s.Dir, filepath.FromSlash(name)), nil
}

// ReadFile returns the bytes of the shard's file name (File), checked
// again against the length and SHA-256 its manifest records: a file
// changed since ReadShards is refused with a *ShardError, as is one that
// cannot be read.
func (s Shard) ReadFile(name string) ([]byte, error) {
	path, err := s.File(name)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, refuseShard("shard %s: %v", s.Dir, PathError(err))
	}
	if SumBytes(b) != s.Manifest.Files[filepath.ToSlash(name)] {
		return nil, refuseShard("shard %s is damaged: %s %v; compute the shard again", s.Dir, path, ErrChecksum)
	}
	return b, nil
}
