//go:build unix

package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ptbatch/ptbatch/rundir"
)

// TestOutDirLock checks the lock of an output directory within one
// process: a second holder is refused with a usage error naming --out
// and the holder's pid, and the lock is free again once released.
func TestOutDirLock(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	c := newCmdFlags("run")
	var out string
	c.String(&out, "out", dir, "")
	first, err := holdOut(c, "out", dir, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	_, err = holdOut(c, "out", dir, io.Discard)
	var ue *usageError
	if !errors.As(err, &ue) || !strings.Contains(ue.msg, "--out") || !strings.Contains(ue.msg, "pid "+strconv.Itoa(os.Getpid())) {
		t.Fatalf("second holder: %v, want a usage error naming --out and pid %d", err, os.Getpid())
	}
	first.Close()
	again, err := holdOut(c, "out", dir, io.Discard)
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	again.Close()
}

// TestAtomicWriteKeepsOldContent checks that a write that fails leaves
// the old file whole and no temporary file behind.
func TestAtomicWriteKeepsOldContent(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.csv")
	if err := rundir.WriteBytes(path, []byte("old\n")); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := rundir.WriteFile(path, func(w io.Writer) error {
		w.Write([]byte("half a fi"))
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("error %v, want boom", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old\n" {
		t.Errorf("file holds %q after a failed write, want the old content", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("directory holds %d entries, want the file alone", len(entries))
	}
}

// TestSecondWriterRefused starts two ptbatch processes on one --out: the
// second is refused at once with status 2 while the first runs, and the
// first's files are byte for byte those of the same run alone.
func TestSecondWriterRefused(t *testing.T) {
	bin := buildCommand(t)
	args := []string{"run", "--sigma0", "0.3", "--sigma1", "0.3", "--chains", "8", "--iterations", "200000", "--scans", "4",
		"--replicates", "8", "--thin", "1000", "--quiet"}
	dir := filepath.Join(t.TempDir(), "out")
	first := exec.Command(bin, withArgs(args, "--out", dir)...)
	var firstErr bytes.Buffer
	first.Stderr = &firstErr
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- first.Wait() }()
	waitFor(t, func() bool { _, err := os.Stat(filepath.Join(dir, rundir.ManifestName)); return err == nil })

	second := exec.Command(bin, withArgs(args, "--seed", "2", "--out", dir)...)
	var stdout, stderr bytes.Buffer
	second.Stdout, second.Stderr = &stdout, &stderr
	err := second.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 || stdout.Len() != 0 ||
		!strings.Contains(stderr.String(), "pid "+strconv.Itoa(first.Process.Pid)) || strings.Count(stderr.String(), "\n") != 1 {
		t.Errorf("second writer: %v, stdout %q, stderr %q; want exit 2 and one line naming the first's pid", err, stdout.String(), stderr.String())
	}
	select {
	case err := <-done:
		t.Fatalf("the first process ended (%v) before the second was refused: make it longer", err)
	default:
	}
	if err := <-done; err != nil {
		t.Fatalf("first writer: %v (%s)", err, firstErr.String())
	}
	alone := filepath.Join(t.TempDir(), "alone")
	mustRun(t, withArgs(args, "--out", alone)...)
	sameOutput(t, alone, dir)
}

// TestSweepResumes interrupts a sweep after its first cell, by SIGTERM
// (status 143, the manifest marked interrupted) and by SIGKILL (with a
// partial row left after the last cell the manifest records, as a kill
// between the append and the manifest's update leaves), continues it with
// --resume, and compares the files with an uninterrupted sweep's.
func TestSweepResumes(t *testing.T) {
	bin := buildCommand(t)
	args := []string{"sweep", "--dims", "1,2", "--chains", "8", "--knots", "1,2", "--replicates", "8", "--iterations", "160000",
		"--scans", "4", "--sigma", "0.3", "--quiet"}
	root := t.TempDir()
	whole := filepath.Join(root, "whole")
	mustRun(t, withArgs(args, "--out", whole)...)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := filepath.Join(root, sig.String())
			p := exec.Command(bin, withArgs(args, "--out", dir)...)
			if err := p.Start(); err != nil {
				t.Fatal(err)
			}
			waitFor(t, func() bool { m, err := rundir.ReadManifest(dir); return err == nil && m.Done >= 8 })
			p.Process.Signal(sig)
			err := p.Wait()
			m, merr := rundir.ReadManifest(dir)
			if merr != nil {
				t.Fatal(merr)
			}
			if m.Complete || m.Done == m.End {
				t.Skipf("the sweep finished before %v arrived (done %d of %d)", sig, m.Done, m.End)
			}
			var ee *exec.ExitError
			switch {
			case sig == syscall.SIGTERM && (!errors.As(err, &ee) || ee.ExitCode() != 143 || !m.Interrupted):
				t.Errorf("SIGTERM: %v, manifest interrupted %v; want exit 143 and interrupted", err, m.Interrupted)
			case sig == syscall.SIGKILL:
				fh, err := os.OpenFile(filepath.Join(dir, "cells.csv"), os.O_APPEND|os.O_WRONLY, 0)
				if err != nil {
					t.Fatal(err)
				}
				fh.WriteString("2,8,1,1,0,0.03")
				fh.Close()
			}
			// The same build resumes (another is refused: its results may differ).
			var errs bytes.Buffer
			resume := exec.Command(bin, withArgs(args, "--out", dir, "--resume")...)
			resume.Stderr = &errs
			if err := resume.Run(); err != nil || !strings.Contains(errs.String(), "resuming the sweep") {
				t.Fatalf("--resume: %v, stderr %q", err, errs.String())
			}
			sameOutput(t, whole, dir)
		})
	}
}

// waitFor polls cond every 5 ms for up to 20 s.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatal("timed out")
}
