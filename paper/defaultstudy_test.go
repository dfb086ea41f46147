package paper

import (
	"testing"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/registry"
)

// TestDefaultStudyConfigs checks the default study's runs against the
// paper's Gaussian settings (appendix "Experimental details": 50 chains,
// 45,000 iterations, 150 scans, learning rate 0.2) and the methods of
// Figure 3, and that each is a valid configuration.
func TestDefaultStudyConfigs(t *testing.T) {
	g, err := registry.MustPreset(registry.Gaussian).NewModel(1)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		name      string
		alg       batch.Algorithm
		tuneSched bool
		knots     int
		tunePath  bool
	}{ // Figure 3's Reversible+Linear, NRPT+Linear and NRPT+Spline(K=4)
		{"Reversible+Linear", batch.Reversible, false, 1, false},
		{"NRPT+Linear", batch.NRPT, true, 1, false},
		{"NRPT+Spline(K=4)", batch.NRPT, true, 4, true},
	}
	ms := DefaultStudyMethods()
	if len(ms) != len(want) {
		t.Fatalf("%d methods, want %d", len(ms), len(want))
	}
	for i, m := range ms {
		c := m.Config(g)
		w := want[i]
		if m.Name != w.name || c.Algorithm != w.alg || c.TuneSchedule != w.tuneSched || c.Knots != w.knots || c.TunePath != w.tunePath {
			t.Errorf("method %d: %q %v sched %v K %d tunePath %v, want %+v", i, m.Name, c.Algorithm, c.TuneSchedule, c.Knots, c.TunePath, w)
		}
		if c.Chains != 50 || c.Iterations != 45000 || c.Scans != 150 || c.LearningRate != 0.2 || c.Replicates != 10 || c.Seed != 1 {
			t.Errorf("%s: %d chains, %d iterations, %d scans, lr %g, %d replicates, seed %d; want the paper's 50, 45000, 150, 0.2 and 10, seed 1",
				m.Name, c.Chains, c.Iterations, c.Scans, c.LearningRate, c.Replicates, c.Seed)
		}
		if err := c.Validate(); err != nil {
			t.Errorf("%s: %v", m.Name, err)
		}
	}
}
