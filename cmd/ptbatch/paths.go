package main

import (
	"os"
	"path/filepath"
	"strings"
)

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
	out := canonicalPath(f.out)
	for _, name := range []string{"checkpoint", "resume"} {
		path := f.ck.path
		if name == "resume" {
			path = f.ck.resume
		}
		if path == "" {
			continue
		}
		p := canonicalPath(path)
		switch {
		case p == out:
			return c.bad(name, "is --out %q: the checkpoint is a file outside the output directory", f.out)
		case within(out, p):
			return c.bad(name, "holds --out %q, so it would be a directory; want a file outside the output directory", f.out)
		case within(p, out):
			return c.bad(name, "is inside --out %q, whose files the run writes and replaces; keep the checkpoint outside the output directory", f.out)
		}
	}
	return nil
}

// within reports whether path is strictly inside dir (both canonical).
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// canonicalPath returns path absolute and clean, with the symbolic links
// of its longest existing prefix resolved, so that two names of one file
// compare equal whether or not the file exists yet.
func canonicalPath(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.Clean(path)
	}
	rest := ""
	for dir := abs; ; dir = filepath.Dir(dir) {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(real, rest)
		}
		if _, err := os.Lstat(dir); err == nil || filepath.Dir(dir) == dir {
			return abs // a dangling link or an unreadable prefix: as given
		}
		rest = filepath.Join(filepath.Base(dir), rest)
	}
}
