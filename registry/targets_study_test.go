package registry_test

import (
	"path/filepath"
	"testing"

	"github.com/ptbatch/ptbatch/models"
	"github.com/ptbatch/ptbatch/study"
)

// TestTargetsStudyFile loads examples/targets.toml and checks its plan
// against the file as written there: 12 models (toymvn; ising; unid × 2
// explorers; cornermix and banana × 3; funnel × 2) × 3 methods × 1 seed =
// 36 runs, every run's model builds and has an exact log Z
// (models.ExactLogZ), so that every line of its table has an answer.
func TestTargetsStudyFile(t *testing.T) {
	p, err := study.Load(filepath.Join("..", "examples", "targets.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Runs) != 36 {
		t.Fatalf("%d runs, want 36", len(p.Runs))
	}
	for i := range p.Runs {
		m, err := p.Runs[i].NewModel()
		if err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
		if _, ok := m.(models.ExactLogZ); !ok {
			t.Errorf("run %d (%s) has no exact log Z", i, p.Runs[i].Model.Name)
		}
	}
}
