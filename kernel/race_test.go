package kernel

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/ptbatch/ptbatch/layout"
)

// raceCases race one goroutine's plain Go store against a kernel's access
// to the same memory, with nothing ordering the two: a data race the race
// detector reports only if the checked layer announces the kernel's
// accesses (race.go), since it cannot see inside the assembly.
var raceCases = map[string]func(){
	"Uniform": func() {
		dst := layout.Float64s(4 * L)
		racing(func() { dst[3] = 1 }, func() { NewStream(1, 0).Uniform(dst) })
	},
	"Normal": func() { // 3 rows: a pair, then an odd row
		dst := layout.Float64s(3 * L)
		// Row 1 is written by the assembly (row 2, by copy from the buffer
		// of odd rows, is Go that the race detector sees anyway).
		racing(func() { dst[L] = 1 }, func() { NewStream(1, 0).Normal(dst) })
	},
	"GaussEnergy": func() { // the kernel reads z
		const n, dim = 2 * L, 3
		w0, w1, first, m, s, z := layout.Float64s(n), layout.Float64s(n), layout.Float64s(n), layout.Float64s(n), layout.Float64s(n), layout.Float64s(n*dim)
		racing(func() { z[n*dim-1] = 1 }, func() { GaussEnergy(w0, w1, first, m, s, z, dim, 0, 0, 1, 1) })
	},
	"SwapAlpha": func() { // the kernel reads w1
		const n = 2 * L
		alpha, rej := layout.Float64s(n), layout.Float64s(n)
		eta0, eta1, w0, w1 := layout.Float64s(n+L), layout.Float64s(n+L), layout.Float64s(n+L), layout.Float64s(n+L)
		racing(func() { w1[n+L-1] = 1 }, func() { SwapAlpha(alpha, rej, eta0, eta1, w0, w1) })
	},
}

// racing runs store on a new goroutine and kernel on this one, and waits
// for the store only after the kernel has run.
func racing(store, kernel func()) {
	done := make(chan struct{})
	go func() {
		store()
		close(done)
	}()
	kernel()
	<-done
}

// TestRaceHelper runs one of raceCases under the fastest implementation
// when PTBATCH_RACE_CASE names it; TestRaceThroughKernelsIsReported runs
// it in a child process. Otherwise it does nothing.
func TestRaceHelper(t *testing.T) {
	c, ok := raceCases[os.Getenv("PTBATCH_RACE_CASE")]
	if !ok {
		t.Skip("runs only as the child of TestRaceThroughKernelsIsReported")
	}
	restore, err := SetImpl(Impls()[0])
	if err != nil {
		t.Fatal(err)
	}
	defer restore()
	t.Logf("impl %s", Impl())
	c()
}

// TestRaceThroughKernelsIsReported checks, in a -race build, that a data
// race between Go code and a kernel is reported when the kernel is
// assembly (which the race detector cannot instrument): each case of
// raceCases runs in a child process, which must print a race report whose
// kernel side is an access announced by the shims of race.go
// (runtime.racereadrange or runtime.racewriterange). Without the shims the
// assembly tiers report nothing.
func TestRaceThroughKernelsIsReported(t *testing.T) {
	if !raceEnabled {
		t.Skip("needs -race")
	}
	if Impls()[0] == "generic" {
		t.Skip("no assembly in this build (purego) or on this CPU: the race detector sees the generic kernels itself")
	}
	for name := range raceCases {
		cmd := exec.Command(os.Args[0], "-test.run=^TestRaceHelper$", "-test.v")
		cmd.Env = append(os.Environ(), "PTBATCH_RACE_CASE="+name, "GORACE=halt_on_error=0")
		out, err := cmd.CombinedOutput()
		o := string(out)
		if err == nil || !strings.Contains(o, "WARNING: DATA RACE") ||
			!(strings.Contains(o, "runtime.racereadrange") || strings.Contains(o, "runtime.racewriterange")) {
			t.Errorf("%s: want a race report through the shims, got (err %v):\n%s", name, err, o)
		}
	}
}
