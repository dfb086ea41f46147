package main

import "github.com/ptbatch/ptbatch/rundir"

// Path collisions (issue 26, cause 4). The run writes and replaces the
// files of --out, so a checkpoint inside it would be overwritten by an
// output (--checkpoint DIR/samples.csv) or deleted with the directory's
// other files; a checkpoint that is --out itself fails only at the end,
// on the rename, after the whole run; and a --resume inside --out is an
// input the run may replace while reading it. Each is refused before any
// work, writing nothing.

// checkPaths refuses --checkpoint and --resume inside --out, and --out
// at or inside either of them.
func (f *runFlags) checkPaths() error {
	if f.out == "" {
		return nil
	}
	c := f.flags
	out := rundir.CanonicalPath(f.out)
	for _, name := range []string{"checkpoint", "resume"} {
		path := f.ck.path
		if name == "resume" {
			path = f.ck.resume
		}
		if path == "" {
			continue
		}
		p := rundir.CanonicalPath(path)
		switch {
		case p == out:
			return c.bad(name, "is --out %q: the checkpoint is a file outside the output directory", f.out)
		case rundir.Within(out, p):
			return c.bad(name, "holds --out %q, so it would be a directory; want a file outside the output directory", f.out)
		case rundir.Within(p, out):
			return c.bad(name, "is inside --out %q, whose files the run writes and replaces; keep the checkpoint outside the output directory", f.out)
		}
	}
	return nil
}
