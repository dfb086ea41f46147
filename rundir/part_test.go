package rundir

import (
	"errors"
	"testing"
)

// TestPart checks a Part's share, refusal, note and manifest: shard 2 of
// 3 of 10 units is units 3 to 5 (⌊10/3⌋ = 3 to ⌊20/3⌋ = 6, Share's
// formula); 4 shards of 3 units are refused with a *PartError that says
// at most 3; a nil part is all units, with no note and no refusal.
func TestPart(t *testing.T) {
	p := &Part{Index: 2, Count: 3, Source: "--shard 2/3"}
	if lo, hi := p.Share(10); lo != 3 || hi != 6 {
		t.Errorf("Share: [%d, %d), want [3, 6)", lo, hi)
	}
	if got, want := p.Note(3, 6, 10, "replicates"), "shard 2/3 (from --shard 2/3): replicates 3 to 5 of 10"; got != want {
		t.Errorf("Note: %q, want %q", got, want)
	}
	m := p.Manifest("run", "replicate", 10)
	if m.Format != ManifestFormat || m.Shard != 2 || m.Shards != 3 || m.ShardSource != "--shard 2/3" || m.First != 3 || m.End != 6 || m.Done != 3 || m.Complete {
		t.Errorf("Manifest: %+v, want shard 2/3 of units 3 to 5, nothing done", m)
	}
	if err := p.Check(3, "replicates"); err != nil {
		t.Errorf("Check of 3 shards of 3 units: %v", err)
	}
	var pe *PartError
	err := (&Part{Index: 1, Count: 4, Source: "test"}).Check(3, "replicates")
	if !errors.As(err, &pe) || err.Error() != "shard 1/4 (test): 4 shards of 3 replicates leave some shards without work; use at most 3 shards" {
		t.Errorf("Check of 4 shards of 3 units: %v, want a *PartError", err)
	}
	var whole *Part
	if lo, hi := whole.Share(10); lo != 0 || hi != 10 || whole.Note(0, 10, 10, "x") != "" || whole.Check(0, "x") != nil {
		t.Errorf("nil part: [%d, %d), want all units, no note, no refusal", lo, hi)
	}
	if m := whole.Manifest("run", "replicate", 10); m.Shard != 1 || m.Shards != 1 || m.End != 10 {
		t.Errorf("nil part's manifest %+v, want shard 1/1 of all units", m)
	}
}

// TestParseSpec reads the shards `--shard` accepts and refuses the rest:
// i and n whole, 1 ≤ i ≤ n.
func TestParseSpec(t *testing.T) {
	for _, c := range []struct {
		spec string
		i, n int
		ok   bool
	}{
		{"1/1", 1, 1, true}, {"2/3", 2, 3, true}, {" 3 / 3 ", 3, 3, true},
		{"0/3", 0, 0, false}, {"4/3", 0, 0, false}, {"1/0", 0, 0, false}, {"-1/3", 0, 0, false},
		{"2", 0, 0, false}, {"a/3", 0, 0, false}, {"1/b", 0, 0, false}, {"1.5/3", 0, 0, false}, {"", 0, 0, false},
	} {
		i, n, ok := ParseSpec(c.spec)
		if i != c.i || n != c.n || ok != c.ok {
			t.Errorf("ParseSpec(%q) = %d, %d, %v; want %d, %d, %v", c.spec, i, n, ok, c.i, c.n, c.ok)
		}
	}
}
