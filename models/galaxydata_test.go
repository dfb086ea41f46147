package models

import (
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestGalaxyDataEmbedded checks the embedded velocities: 82 values from
// 9.172 to 34.279 (thousands of km/s) whose km/s values sum to 1707910,
// the sum of the CSV column (awk -F, 'NR>1{s+=$1} END{print s}'
// /work/shared/data/galaxies.csv); and, when the CSV is present, every value.
func TestGalaxyDataEmbedded(t *testing.T) {
	v := galaxyVelocities[:]
	if len(v) != 82 {
		t.Fatalf("%d velocities, want 82", len(v))
	}
	lo, hi, sum := math.Inf(1), math.Inf(-1), 0
	for _, x := range v {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
		sum += int(math.Round(1000 * x))
	}
	if lo != 9.172 || hi != 34.279 || sum != 1707910 {
		t.Errorf("min %v, max %v, sum %d km/s; want 9.172, 34.279, 1707910", lo, hi, sum)
	}
	m := NewGalaxy()
	if m.Name() != "galaxy" || m.p.K != 6 || len(m.p.Data) != 82 || m.p.PriorMean != 150 || m.p.Sigma != 1 {
		t.Errorf("galaxy model %+v", m.p)
	}
	raw, err := os.ReadFile("/work/shared/data/galaxies.csv")
	if err != nil {
		t.Skip("CSV not present:", err)
	}
	lines := strings.Fields(string(raw))[1:]
	if len(lines) != len(v) {
		t.Fatalf("CSV has %d values, embedded %d", len(lines), len(v))
	}
	for i, s := range lines {
		kms, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatal(err)
		}
		if v[i] != kms/1000 {
			t.Errorf("velocity %d: embedded %v, CSV %v km/s", i, v[i], kms)
		}
	}
}
