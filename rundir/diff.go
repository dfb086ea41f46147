package rundir

import (
	"fmt"
	"slices"
	"strings"
)

// SettingDiff names the first setting (in key order) in which the
// manifests' Settings a and b differ, with both values, as
// "--name (x and y)", or "--name (set in one only)"; "their fingerprints"
// when the settings agree (the configurations differ elsewhere).
func SettingDiff(a, b map[string]string) string {
	var keys []string
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		va, oka := a[k]
		vb, okb := b[k]
		switch {
		case !oka || !okb:
			return fmt.Sprintf("--%s (set in one only)", k)
		case va != vb:
			return fmt.Sprintf("--%s (%s and %s)", k, va, vb)
		}
	}
	return "their fingerprints"
}

// ArgDiff names the first argument that differs between the argument
// lists a (a record's) and b (a manifest's): "--name (x and y)" when both
// give the flag --name=… another value, "x and y" otherwise, "one list is
// longer" when one is a prefix of the other, and "none" when they agree.
func ArgDiff(a, b []string) string {
	for i := 0; i < max(len(a), len(b)); i++ {
		if i >= len(a) || i >= len(b) {
			return "one list is longer"
		}
		if a[i] == b[i] {
			continue
		}
		na, va, _ := strings.Cut(a[i], "=")
		nb, vb, _ := strings.Cut(b[i], "=")
		if na == nb {
			return fmt.Sprintf("%s (%s and %s)", na, va, vb)
		}
		return fmt.Sprintf("%s and %s", a[i], b[i])
	}
	return "none"
}
