//go:build unix

package runloop

import (
	"os"
	"syscall"
	"testing"
)

// TestSignalContext sends SIGHUP to this process once SignalContext
// listens: the context is cancelled and stop returns SIGHUP; without a
// signal, stop cancels the context and returns 0.
func TestSignalContext(t *testing.T) {
	ctx, stop := SignalContext()
	if err := syscall.Kill(os.Getpid(), syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	<-ctx.Done() // the handler has the signal
	if got := stop(); got != syscall.SIGHUP {
		t.Errorf("stop = %v, want %v", got, syscall.SIGHUP)
	}
	ctx, stop = SignalContext()
	if got := stop(); got != 0 || ctx.Err() == nil {
		t.Errorf("no signal: stop = %v, context error %v; want 0 and cancelled", got, ctx.Err())
	}
}
