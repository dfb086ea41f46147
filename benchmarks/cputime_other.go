//go:build !unix

package benchmarks

import "time"

// start is the origin of cpuTime where the CPU time cannot be read.
var start = time.Now()

// cpuTime returns the wall time since the package started: the CPU time
// is not read on this system.
func cpuTime() time.Duration { return time.Since(start) }
