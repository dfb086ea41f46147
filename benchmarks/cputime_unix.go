//go:build unix

package benchmarks

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time the process has used (user and system, all
// threads): what the logistic benchmark measures, so that other processes
// sharing the cores do not count.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
