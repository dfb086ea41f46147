package rundir

// NewManifest returns the manifest of command's part p (nil: the whole)
// of units (Part.Manifest), nothing done yet, with the build version and
// the arguments args recorded as provenance (a merge never parses them).
// A non-nil config is recorded as data and fingerprinted
// (Manifest.SetConfig); a config that is a map of settings by name is
// also recorded as the manifest's Settings, for a reader, and SameConfig
// refuses a manifest whose Settings are not its configuration.
func (p *Part) NewManifest(command, unit string, units int, version string, args []string, config any) (*Manifest, error) {
	m := p.Manifest(command, unit, units)
	m.Version, m.Args = version, args
	if config == nil {
		return m, nil
	}
	if set, ok := config.(map[string]string); ok {
		m.Settings = set
	}
	if err := m.SetConfig(config); err != nil {
		return nil, err
	}
	return m, nil
}

// Begin writes the manifest of a job whose work is about to start: no
// unit done yet (Job.Progress of its first unit). A nil job (a command
// without an output directory) writes nothing.
func (j *Job) Begin() error {
	if j == nil {
		return nil
	}
	return j.Progress(j.Manifest.First)
}

// Close gives up the job's directory (Dir.Close: the lock file removed);
// nil-safe, and later calls do nothing.
func (j *Job) Close() error {
	if j == nil {
		return nil
	}
	return j.Dir.Close()
}
