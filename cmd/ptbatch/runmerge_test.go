package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ptbatch/ptbatch/rundir"
)

// TestRunMergeIgnoresManifestArgs checks that ptbatch merge of run shards
// works on data (issue 19): edits of the argument list that every
// shard's manifest records either leave the merged files byte for byte
// those of the unedited merge, or are refused (exit 2, one line naming a
// shard, nothing written). The edits: the arguments reversed (the same
// settings when parsed), --chains=6 made 7 with the configuration the
// manifest records as data forged to agree and fingerprinted again (a
// merge that rebuilt the run from the manifest would report 7 chains),
// that forged configuration alone, and the list emptied.
func TestRunMergeIgnoresManifestArgs(t *testing.T) {
	root := t.TempDir()
	orig := runShards(t, filepath.Join(root, "run"), 2, shardRunArgs)
	ref := filepath.Join(root, "ref")
	mustRun(t, append([]string{"merge", "--quiet", "--out", ref}, orig...)...)
	for _, c := range []struct {
		name string
		edit func(*rundir.Manifest)
	}{
		{"reversed", func(m *rundir.Manifest) { slices.Reverse(m.Args) }},
		{"forged chains", func(m *rundir.Manifest) {
			i := slices.Index(m.Args, "--chains=6") // shardRunArgs' "--chains", "6"
			if i < 0 {
				t.Fatalf("args %q have no --chains=6", m.Args)
			}
			m.Args[i] = "--chains=7"
			forgeChains(t, m)
		}},
		{"forged configuration", func(m *rundir.Manifest) {
			forgeChains(t, m)
		}},
		{"emptied", func(m *rundir.Manifest) { m.Args = nil }},
	} {
		t.Run(c.name, func(t *testing.T) {
			var dirs []string
			for _, d := range orig {
				e := filepath.Join(t.TempDir(), filepath.Base(d))
				copyDir(t, d, e)
				editManifest(t, e, c.edit)
				dirs = append(dirs, e)
			}
			out := filepath.Join(t.TempDir(), "merged")
			o, e, code := runCLI(append([]string{"merge", "--quiet", "--out", out}, dirs...)...)
			switch code {
			case 0:
				sameOutput(t, ref, out)
			case 2:
				if o != "" || strings.Count(e, "\n") != 1 || !strings.Contains(e, "shard ") {
					t.Errorf("refused with stdout %q, stderr %q; want one line naming a shard", o, e)
				}
				if _, err := os.Lstat(out); err == nil {
					t.Errorf("the refused merge left %s", out)
				}
			default:
				t.Errorf("exit %d, stderr %q: want the unedited merge's files (0) or a refusal (2)", code, e)
			}
		})
	}
}

// forgeChains edits the configuration m records as data from 6 chains
// (shardRunArgs' "--chains", "6") to 7, and fingerprints it again, as a
// forger who knows the format would.
func forgeChains(t *testing.T, m *rundir.Manifest) {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, m.Config); err != nil {
		t.Fatal(err)
	}
	c := strings.Replace(b.String(), `"Chains":6,`, `"Chains":7,`, 1)
	if c == b.String() {
		t.Fatalf("configuration %s has no 6 chains", b.String())
	}
	if err := m.SetConfig(json.RawMessage(c)); err != nil {
		t.Fatal(err)
	}
}
