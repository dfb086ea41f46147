package registry

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/models"
)

// galaxyFile is the project's copy of /work/shared/data/galaxies.csv: the
// 82 galaxy velocities in km/s, column velocity_km_s.
const galaxyFile = "../examples/galaxy/galaxies.csv"

// galaxySettings are the galaxy model's settings (models.NewGalaxy: K = 6,
// σ = 1, N(150, 1) prior on the means, Dir(1, …, 1)), with the file's
// km/s divided by 1000 into the model's thousands of km/s.
var galaxySettings = Values{"components": 6, "component-sd": 1, "prior-mean": 150, "prior-mean-sd": 1, "dirichlet": 1, "data-unit": 1000}

// TestMixtureDataReproducesGalaxy checks that the mixture on the galaxy
// velocities read from the CSV file, with the galaxy model's settings, is
// the galaxy model: the same parameters and observations bit for bit,
// and a run of each with the same seed gives the same round trips,
// barriers and schedules.
func TestMixtureDataReproducesGalaxy(t *testing.T) {
	m, err := NewWithTexts(MixtureData, galaxySettings, Texts{"data": galaxyFile}, 1)
	if err != nil {
		t.Fatal(err)
	}
	got, want := m.(*models.Mixture).Params(), models.NewGalaxy().Params()
	got.Name = want.Name
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("mixture on the file: %+v\nwant the galaxy model's %+v", got, want)
	}
	run := func(m models.Model) *batch.Result {
		cfg := batch.Config{Model: m, Chains: 8, Replicates: 8, Iterations: 400, Scans: 4, TuneSchedule: true, Knots: 1, Seed: 31, Workers: 2}
		res, err := batch.Run(context.Background(), cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	a, b := run(m), run(models.NewGalaxy())
	if !reflect.DeepEqual(a.RoundTrips, b.RoundTrips) || !reflect.DeepEqual(a.Schedules, b.Schedules) || !reflect.DeepEqual(a.Rejections, b.Rejections) {
		t.Errorf("runs differ: round trips %v and %v", a.RoundTrips, b.RoundTrips)
	}
}

// TestMixtureDataDefaultsAreTheMixture checks that without data the
// mixture-data model is the paper's mixture model of the same seed, and
// that a bad column or file is refused as data.
func TestMixtureDataDefaultsAreTheMixture(t *testing.T) {
	m, err := New(MixtureData, nil, 7)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := m.(*models.Mixture).Params(), models.NewMixture(7).Params(); !reflect.DeepEqual(got, want) {
		t.Errorf("defaults %+v, want the mixture's %+v", got, want)
	}
	if _, err := NewWithTexts(MixtureData, nil, Texts{"data": galaxyFile, "column": "v"}, 1); !errors.Is(err, models.ErrData) {
		t.Errorf("missing column: error %v", err)
	}
	big := filepath.Join(t.TempDir(), "big.csv")
	if err := os.WriteFile(big, []byte("v\n1\n1e10\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := NewWithTexts(MixtureData, Values{"data-unit": 1e-300}, Texts{"data": big}, 1); !errors.Is(err, models.ErrData) {
		t.Errorf("1e10 / 1e-300 beyond float64: error %v", err)
	}
}
