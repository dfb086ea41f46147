//go:build unix

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/ptbatch/ptbatch/rundir"
	"github.com/ptbatch/ptbatch/runloop"
)

// TestFinishedRunExitsZeroDespiteSignal checks issue 26's cause 8: a run
// whose engine has finished exits 0 when SIGTERM (or SIGHUP) arrives while
// it writes its files, which say complete; it used to exit 143. The test
// sends the signal to itself from runDoneHook, between the engine's end
// and the files, and waits until main's handler has taken it, so the
// signal lands there every time.
func TestFinishedRunExitsZeroDespiteSignal(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP} {
		out := filepath.Join(t.TempDir(), "out")
		ctx, stop := runloop.SignalContext()
		runDoneHook = func() {
			if err := syscall.Kill(os.Getpid(), sig); err != nil {
				t.Error(err)
			}
			<-ctx.Done() // the handler has the signal
		}
		var stdout, stderr bytes.Buffer
		err := run(ctx, append(small, "--out", out, "--json"), &stdout, &stderr)
		runDoneHook = nil
		got := stop()
		var line bytes.Buffer
		code := exitStatus(err, got, &line)
		if got != sig || err != nil || code != 0 || line.Len() != 0 {
			t.Errorf("%v while the files are written: signal %v, error %v, exit %d (%q), want exit 0", sig, got, err, code, line.String())
		}
		if m, err := rundir.ReadManifest(out); err != nil || !m.Complete || m.Interrupted {
			t.Errorf("%v: manifest %+v (%v), want complete", sig, m, err)
		}
	}
}

// TestExitStatusOfSignals checks exitStatus: 128 + the signal for an
// interrupted command (129 for SIGHUP, as SIGTERM's 143), 2 for bad input
// whatever the signal, 0 for a command that completed.
func TestExitStatusOfSignals(t *testing.T) {
	for _, c := range []struct {
		err  error
		sig  syscall.Signal
		want int
	}{
		{interruptedf("stopped"), syscall.SIGHUP, 129},
		{interruptedf("stopped"), syscall.SIGTERM, 143},
		{interruptedf("stopped"), syscall.SIGINT, 130},
		{usagef("bad"), syscall.SIGTERM, 2},
		{nil, syscall.SIGTERM, 0},
		{nil, syscall.SIGHUP, 0},
	} {
		if got := exitStatus(c.err, c.sig, &bytes.Buffer{}); got != c.want {
			t.Errorf("exitStatus(%v, %v) = %d, want %d", c.err, c.sig, got, c.want)
		}
	}
}
