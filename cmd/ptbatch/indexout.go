package main

// checkRecord checks --record and the --index-* flags' values.
func (f *runFlags) checkRecord() error {
	c := f.flags
	switch {
	case f.record != "" && f.record != "index":
		return c.bad("record", "want index (the index process), the only record")
	case f.indexWindow < 0:
		return c.bad("index-window", "need 0 (every iteration) or more")
	case f.indexThin < 1:
		return c.bad("index-thin", "need at least 1")
	case f.indexReplicas < 0:
		return c.bad("index-replicas", "need 0 (all replicas) or more")
	case f.indexReplicas > f.chains && c.IsSet("index-replicas"):
		return c.bad("index-replicas", "at most one per chain (--chains %s)", c.Show("chains"))
	}
	return nil
}
