package main

import (
	"errors"
	"fmt"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/runout"
)

// memoryLimit is the memory a run may use: --max-memory when given, else
// batch.AvailableMemory (the machine's available memory, capped by a
// cgroup's and by GOMEMLIMIT), which batch.New also holds a run's engine
// to. what says where the limit comes from.
func memoryLimit(maxMemory int64) (limit int64, what string) {
	if maxMemory > 0 {
		return maxMemory, "--max-memory"
	}
	return batch.AvailableMemory()
}

// sizeFlag is a flag that scales a run's memory, with its value and its
// default, for naming the likely cause when a run is too large.
type sizeFlag struct {
	name       string
	value, def float64
}

// checkMemory refuses a run whose estimated memory (need; overflow when
// estErr is batch.ErrMemoryOverflow) exceeds the limit. The message names
// the size flag given furthest above its default, or --max-memory when it
// was given and no size flag was raised.
func checkMemory(c *cmdFlags, maxMemory int64, need int64, estErr error, sizes []sizeFlag) error {
	return checkMemoryOf(c, "the run", maxMemory, need, estErr, sizes)
}

// checkMemoryOf is checkMemory for what ("the run", "shard 2/5").
func checkMemoryOf(c *cmdFlags, what string, maxMemory int64, need int64, estErr error, sizes []sizeFlag) error {
	culprit := ""
	ratio := 1.0
	for _, s := range sizes {
		if !c.set(s.name) || s.def <= 0 {
			continue
		}
		if r := s.value / s.def; r > ratio {
			culprit, ratio = s.name, r
		}
	}
	limit, source := memoryLimit(maxMemory)
	prefix := func() string {
		switch {
		case culprit != "":
			return fmt.Sprintf("invalid --%s %s: ", culprit, c.show(culprit))
		case c.set("max-memory"):
			return fmt.Sprintf("invalid --max-memory %s: ", c.show("max-memory"))
		}
		return "not enough memory: "
	}
	if estErr != nil {
		if errors.Is(estErr, batch.ErrMemoryOverflow) {
			return usagef("%s%s's memory does not fit in 64-bit sizes: no machine can hold it", prefix(), what)
		}
		return estErr
	}
	if need > limit {
		if source != "--max-memory" {
			source += "; --max-memory sets the limit"
		}
		return usagef("%s%s needs an estimated %s of memory, more than the limit of %s (%s)",
			prefix(), what, formatBytes(need), formatBytes(limit), source)
	}
	return nil
}

// addBytes is runout.AddBytes.
func addBytes(a, b int64) (int64, error) { return runout.AddBytes(a, b) }

// mulBytes is runout.MulBytes.
func mulBytes(factors ...int64) (int64, error) { return runout.MulBytes(factors...) }
