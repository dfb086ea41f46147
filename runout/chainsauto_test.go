package runout

import (
	"math"
	"testing"
	"time"

	"github.com/ptbatch/ptbatch/batch"
)

// TestChainsAutoJSON: two pilots (32 chains × 100 iterations × 2
// replicates, then 64 × 100 × 2; made-up sizes) cost 32·100·2 + 64·100·2
// = 19200 chain-iterations and 1.5 + 2 s; a barrier that is not finite
// is null.
func TestChainsAutoJSON(t *testing.T) {
	c := &batch.ChainsChoice{Chains: 40, Barrier: math.NaN(), Pilots: []batch.Pilot{
		{Chains: 32, Iterations: 100, Replicates: 2, Barrier: 3.5, Elapsed: 1500 * time.Millisecond},
		{Chains: 64, Iterations: 100, Replicates: 2, Barrier: math.Inf(1), Elapsed: 2 * time.Second},
	}}
	got, err := ChainsAutoJSON(c)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"barrier":null,"chains":40,"pilot_chain_iterations":19200,"pilot_seconds":3.5,"pilots":[{"barrier":3.5,"chains":32,"iterations":100,"replicates":2},{"barrier":null,"chains":64,"iterations":100,"replicates":2}]}`
	if string(got) != want {
		t.Errorf("ChainsAutoJSON =\n%s\nwant\n%s", got, want)
	}
}
