package rundir

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
)

// BuildVersion returns the build of this program as a manifest records
// it (Manifest.Version), after program: the module's version, the VCS
// revision (with "-dirty" when modified), the Go version, and, for a
// development build without a clean revision, a hash of the executable,
// so that a merge can refuse shards of different builds.
func BuildVersion(program string) string {
	return strings.Join(append([]string{program}, buildParts()...), " ")
}

// buildParts are BuildVersion's words after the program, computed once.
var buildParts = sync.OnceValue(func() []string {
	v := "devel"
	rev, dirty := "", false
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			v = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	parts := []string{v}
	if rev != "" {
		if dirty {
			rev += "-dirty"
		}
		parts = append(parts, rev)
	}
	parts = append(parts, runtime.Version())
	if v == "devel" && (rev == "" || dirty) {
		// A development build without a clean revision: the executable
		// itself tells builds apart.
		if h := exeHash(); h != "" {
			parts = append(parts, "exe:"+h)
		}
	}
	return parts
})

// exeHash returns the first 12 hex digits of the SHA-256 of the running
// executable, or "" when it cannot be read.
func exeHash() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	fh, err := os.Open(exe)
	if err != nil {
		return ""
	}
	defer fh.Close()
	h := sha256.New()
	if _, err := io.Copy(h, fh); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}
