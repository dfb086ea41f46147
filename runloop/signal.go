package runloop

import (
	"context"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
)

// SignalContext returns a context that is cancelled by the first SIGINT,
// SIGTERM or SIGHUP, for Run to stop at (a batch job's preemption or a
// closed terminal stops a run as Ctrl-C does: a checkpoint, and
// "interrupted" in the manifest), and a function that stops listening
// and returns the signal received (0 if none). After the first signal
// the default action is restored, so a second one ends the process at
// once.
func SignalContext() (context.Context, func() syscall.Signal) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	ctx, cancel := context.WithCancel(context.Background())
	var got atomic.Int64
	done := make(chan struct{})
	go func() {
		select {
		case s := <-ch:
			if n, ok := s.(syscall.Signal); ok {
				got.Store(int64(n))
			}
			signal.Stop(ch)
			cancel()
		case <-done:
		}
	}()
	return ctx, func() syscall.Signal {
		close(done)
		signal.Stop(ch)
		cancel()
		return syscall.Signal(got.Load())
	}
}
