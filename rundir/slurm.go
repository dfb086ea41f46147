package rundir

import (
	"fmt"
	"strconv"
	"strings"
)

// An EnvError refuses the part a job array's environment variables
// choose: a variable that is not a whole number, or an array that is not
// a range, so that a task's position in it is unknown.
type EnvError struct{ Msg string }

// Error is the refusal, naming the variable.
func (e *EnvError) Error() string { return e.Msg }

func envErrorf(format string, args ...any) error {
	return &EnvError{fmt.Sprintf(format, args...)}
}

// SlurmPart returns the part of a Slurm job array task, reading the
// environment through lookup (os.LookupEnv): the task's position
// (SLURM_ARRAY_TASK_ID − SLURM_ARRAY_TASK_MIN)/SLURM_ARRAY_TASK_STEP
// among SLURM_ARRAY_TASK_COUNT tasks (or (MAX − MIN)/STEP + 1 without a
// count), with the variables used as its Source; nil outside an array.
// An array given as a list rather than a range (--array=1,4,9) has no
// such positions and is refused with an *EnvError, as is a variable that
// is not a whole number.
func SlurmPart(lookup func(string) (string, bool)) (*Part, error) {
	if _, ok := lookup("SLURM_ARRAY_TASK_ID"); !ok {
		return nil, nil
	}
	var v [5]int
	var notes [5]string
	for k, e := range []struct {
		name string
		def  int
	}{{"SLURM_ARRAY_TASK_ID", 0}, {"SLURM_ARRAY_TASK_MIN", 0}, {"SLURM_ARRAY_TASK_STEP", 1}, {"SLURM_ARRAY_TASK_MAX", -1}, {"SLURM_ARRAY_TASK_COUNT", 0}} {
		var err error
		if v[k], notes[k], err = slurmInt(lookup, e.name, e.def); err != nil {
			return nil, err
		}
	}
	id, lo, step := v[0], v[1], v[2]
	count, countNote, err := slurmCount(lookup, v, notes)
	if err != nil {
		return nil, err
	}
	used := []string{notes[0], countNote}
	if notes[1] != "" {
		used = append(used, notes[1])
	}
	pos := id - lo
	if count < 1 || pos < 0 || pos%step != 0 || pos/step >= count {
		return nil, envErrorf("invalid SLURM_ARRAY_TASK_ID %d: not one of the %d tasks from SLURM_ARRAY_TASK_MIN %d in steps of %d; shard a job array given as a range (--array=0-%d), or give --shard i/n",
			id, count, lo, step, max(count-1, 0))
	}
	return &Part{Index: pos/step + 1, Count: count, Source: strings.Join(used, ", ")}, nil
}

// slurmInt reads the Slurm variable name as a whole number (def when it
// is unset or empty), with the note "NAME=value" when it is set.
func slurmInt(lookup func(string) (string, bool), name string, def int) (int, string, error) {
	v, ok := lookup(name)
	if !ok || strings.TrimSpace(v) == "" {
		return def, "", nil
	}
	x, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return 0, "", envErrorf("invalid %s %q: want a whole number (this task's shard comes from the Slurm job array's variables; --shard i/n overrides them)", name, v)
	}
	return x, name + "=" + v, nil
}

// slurmCount returns the number of tasks of a Slurm array from the values
// v and notes of SLURM_ARRAY_TASK_ID, _MIN, _STEP, _MAX and _COUNT (as
// SlurmPart reads them), and the note of the variable it came from.
func slurmCount(lookup func(string) (string, bool), v [5]int, notes [5]string) (int, string, error) {
	lo, step, hi, count := v[1], v[2], v[3], v[4]
	countNote, hiNote := notes[4], notes[3]
	switch {
	case step < 1:
		return 0, "", envErrorf("invalid SLURM_ARRAY_TASK_STEP %d: want 1 or more", step)
	case countNote != "" && hiNote != "" && (hi < lo || count != (hi-lo)/step+1):
		return 0, "", envErrorf("invalid SLURM_ARRAY_TASK_COUNT %d: the array is not a range (SLURM_ARRAY_TASK_MIN %d to _MAX %d in steps of %d has %d tasks), so a task's position is unknown; shard a job array given as a range (--array=0-%d), or give --shard i/n",
			count, lo, hi, step, (hi-lo)/step+1, max(count-1, 0))
	case countNote != "":
		return count, countNote, nil
	case hiNote != "":
		if hi < lo {
			return 0, "", envErrorf("invalid SLURM_ARRAY_TASK_MAX %d: below SLURM_ARRAY_TASK_MIN %d", hi, lo)
		}
		return (hi-lo)/step + 1, hiNote, nil
	}
	id, _ := lookup("SLURM_ARRAY_TASK_ID")
	return 0, "", envErrorf("invalid SLURM_ARRAY_TASK_ID %q: neither SLURM_ARRAY_TASK_COUNT nor SLURM_ARRAY_TASK_MAX is set, so the number of shards is unknown (give --shard i/n)", id)
}

// IndexedJobPart returns the part of a pod of a Kubernetes Indexed Job of
// count completions, reading JOB_COMPLETION_INDEX through lookup
// (os.LookupEnv): shard index+1 of count, with the variable as its
// Source; nil when the variable is not set. An index that is not a whole
// number from 0 to count−1 is refused with an *EnvError.
func IndexedJobPart(lookup func(string) (string, bool), count int) (*Part, error) {
	v, ok := lookup("JOB_COMPLETION_INDEX")
	if !ok {
		return nil, nil
	}
	k, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || k < 0 || k >= count {
		return nil, envErrorf("invalid JOB_COMPLETION_INDEX %q: want a whole number from 0 to %d (--shards %d)", v, count-1, count)
	}
	return &Part{Index: k + 1, Count: count, Source: fmt.Sprintf("JOB_COMPLETION_INDEX=%s with --shards %d", v, count)}, nil
}
