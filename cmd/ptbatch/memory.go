package main

import (
	"errors"
	"fmt"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/internal/cliflag"
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

// checkMemoryOf is checkMemory for what ("the run", "shard 2/5"): it
// maps batch.CheckMemory's *MemoryError and batch.ErrMemoryOverflow to
// one-line refusals.
func checkMemoryOf(c *cmdFlags, what string, maxMemory int64, need int64, estErr error, sizes []sizeFlag) error {
	if estErr == nil {
		limit, source := memoryLimit(maxMemory)
		estErr = batch.CheckMemory(need, limit, source)
	}
	var me *batch.MemoryError
	switch {
	case errors.Is(estErr, batch.ErrMemoryOverflow):
		return usagef("%s%s's memory does not fit in 64-bit sizes: no machine can hold it", memoryCulprit(c, sizes), what)
	case errors.As(estErr, &me):
		if me.Source != "--max-memory" {
			me.Source += "; --max-memory sets the limit"
		}
		return usagef("%s%s needs an estimated %s of memory, more than the limit of %s (%s)",
			memoryCulprit(c, sizes), what, cliflag.FormatBytes(me.Need), cliflag.FormatBytes(me.Limit), me.Source)
	}
	return estErr
}

// memoryCulprit starts a memory refusal: it names the size flag given
// furthest above its default, else --max-memory when given.
func memoryCulprit(c *cmdFlags, sizes []sizeFlag) string {
	culprit, ratio := "max-memory", 1.0
	for _, s := range sizes {
		if c.IsSet(s.name) && s.def > 0 && s.value/s.def > ratio {
			culprit, ratio = s.name, s.value/s.def
		}
	}
	if !c.IsSet(culprit) {
		return "not enough memory: "
	}
	return fmt.Sprintf("invalid --%s %s: ", culprit, c.Show(culprit))
}
