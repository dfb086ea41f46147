package rundir

import (
	"errors"
	"strings"
	"testing"
)

// TestResumes checks that a manifest resumes an identical one, and that
// each difference Resumes checks (format, command, fingerprint, settings,
// build, shard) is refused with ErrNotResumable and a sentence naming it.
func TestResumes(t *testing.T) {
	base := func() *Manifest { // a sweep's shard 1/2, as cmd/ptbatch writes one
		return &Manifest{Format: ManifestFormat, Command: "sweep", Version: "v1", Fingerprint: "f",
			Settings: map[string]string{"dim": "4"}, Shard: 1, Shards: 2}
	}
	if err := base().Resumes(base()); err != nil {
		t.Fatalf("identical manifests: %v", err)
	}
	for _, c := range []struct {
		edit func(*Manifest)
		want string
	}{
		{func(p *Manifest) { p.Format = ManifestFormat - 1 }, "whose manifest has format"},
		{func(p *Manifest) { p.Command = "reproduce" }, "holds the output of ptbatch reproduce, not a sweep"},
		{func(p *Manifest) { p.Fingerprint = "g" }, "holds a sweep of another configuration (their fingerprints)"},
		{func(p *Manifest) { p.Settings = map[string]string{"dim": "8"} }, "of another configuration (--dim (8 and 4))"},
		{func(p *Manifest) { p.Version = "v0" }, `by another build ("v0"; this is "v1")`},
		{func(p *Manifest) { p.Shard = 2 }, "holds shard 2/2 of the sweep, this is shard 1/2"},
	} {
		prev := base()
		c.edit(prev)
		err := base().Resumes(prev)
		if !errors.Is(err, ErrNotResumable) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want ErrNotResumable saying %q", err, c.want)
		}
	}
}
