package rundir

import (
	"errors"
	"fmt"
	"path/filepath"
)

// A LinkError refuses a directory that a command would write into: a
// symbolic link is under it (Link, relative to Dir), or it cannot be
// searched for one (Err). No output is written through a link.
type LinkError struct {
	Dir  string
	Link string
	Err  error
}

// Error names the link, or why the directory could not be read.
func (e *LinkError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: cannot read the directory: %v", e.Dir, PathError(e.Err))
	}
	return fmt.Sprintf("%s is a symbolic link: no output is written through a link", filepath.Join(e.Dir, e.Link))
}

// Unwrap returns Err.
func (e *LinkError) Unwrap() error { return e.Err }

// checkLinks returns a *LinkError when a symbolic link is under dir.
func checkLinks(dir string) error {
	if link, err := FindSymlink(dir); err != nil || link != "" {
		return &LinkError{Dir: dir, Link: link, Err: err}
	}
	return nil
}

// SameConfig is the check of ReadShards' same for commands whose
// manifests record their configuration as data (Manifest.SetConfig): it
// refuses, with a *ShardError, the shard s when its manifest records no
// configuration, when its fingerprint or settings are not those of its
// configuration (an edited manifest), or when its configuration is not
// a's. The arguments a manifest records are not read: a merge never
// parses them.
func SameConfig(a, s Shard) error {
	x, m := a.Manifest, s.Manifest
	switch {
	case m.Config == nil:
		return refuseShard("shard %s: its %s records no configuration (it was written by an older ptbatch, or edited); compute the shard again", s.Dir, ManifestName)
	case m.CheckFingerprint() != nil || !m.SettingsAreConfig():
		return refuseShard("shard %s: its %s was edited (its fingerprint or settings are not those of its configuration); compute the shard again", s.Dir, ManifestName)
	case m.Fingerprint != x.Fingerprint && x.Settings != nil && m.Settings != nil:
		return refuseShard("shards of different configurations: %s and %s differ in %s", a.Dir, s.Dir, SettingDiff(x.Settings, m.Settings))
	case m.Fingerprint != x.Fingerprint:
		return refuseShard("shards of different configurations: %s and %s (fingerprints %.12s… and %.12s…)", a.Dir, s.Dir, x.Fingerprint, m.Fingerprint)
	}
	return nil
}

// MergedManifest returns the manifest of the merge of shards (in shard
// order, as ReadShards returns them): the first shard's command, build
// and configuration, as one complete shard 1/1 of every unit, with the
// shards' seconds summed.
func MergedManifest(shards []Shard) *Manifest {
	x := shards[0].Manifest
	m := &Manifest{Format: ManifestFormat, Command: x.Command, Version: x.Version, Fingerprint: x.Fingerprint,
		Config: x.Config, Settings: x.Settings, Args: x.Args, Shard: 1, Shards: 1, Unit: x.Unit, Units: x.Units,
		End: x.Units, Done: x.Units, Complete: true}
	for _, s := range shards {
		m.ElapsedSeconds += s.Manifest.ElapsedSeconds
	}
	return m
}

// Merge writes the merge of shards (ReadShards' answer) into the held
// directory d: it refuses a d with a symbolic link under it (a
// *LinkError), removes what a previous command left in d (RemoveStale of
// its manifest's files and of stale), takes a shared lock on every shard
// until it returns (a shard another process is writing is refused with a
// *ShardError), then calls write with the merged manifest
// (MergedManifest), which write may complete, and writes that manifest
// into d. write's error is returned as it is, with no manifest written.
func Merge(d *Dir, shards []Shard, stale []string, write func(m *Manifest) error) (*Manifest, error) {
	if err := checkLinks(d.path); err != nil {
		return nil, err
	}
	prev, _ := ReadManifest(d.path) // none, or unreadable: nothing recorded to remove
	if err := d.RemoveStale(prev, stale...); err != nil {
		return nil, err
	}
	for _, s := range shards {
		release, err := ReadLock(s.Dir)
		var le *LockedError
		if errors.As(err, &le) {
			return nil, refuseShard("shard %s is being written by another process (it holds %s); merge it when that process ends", s.Dir, filepath.Join(s.Dir, LockName))
		}
		if err != nil {
			return nil, refuseShard("shard %s: cannot read its lock: %v", s.Dir, PathError(err))
		}
		defer release()
	}
	m := MergedManifest(shards)
	if err := write(m); err != nil {
		return nil, err
	}
	return m, d.WriteManifest(m)
}
