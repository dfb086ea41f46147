package rundir

import (
	"errors"
	"strings"
	"testing"
)

// TestSlurmPart checks the part of a Slurm array task against positions
// worked out by hand from the variables sbatch --array sets (the
// environment of each case is the one Slurm documents for that array).
func TestSlurmPart(t *testing.T) {
	for _, c := range []struct {
		env          map[string]string
		index, count int    // 0, 0: outside an array
		refused      string // part of the refusal, "" for none
	}{
		{env: map[string]string{}},
		// --array=0-4: task 3 is the 4th of 5.
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "4", "SLURM_ARRAY_TASK_COUNT": "5"}, index: 4, count: 5},
		// --array=1-9:2 (1, 3, 5, 7, 9): task 7 is the 4th of 5, counted from _MAX alone.
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "7", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_STEP": "2", "SLURM_ARRAY_TASK_MAX": "9"}, index: 4, count: 5},
		// --array=1,4,9: 3 tasks, but MIN 1 to MAX 9 is not a range of 3.
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "9", "SLURM_ARRAY_TASK_COUNT": "3"}, refused: "SLURM_ARRAY_TASK_COUNT 3"},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_COUNT": "2"}, refused: `SLURM_ARRAY_TASK_ID "x"`},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "1"}, refused: "number of shards is unknown"},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_COUNT": "2"}, refused: "not one of the 2 tasks"},
	} {
		lookup := func(k string) (string, bool) { v, ok := c.env[k]; return v, ok }
		p, err := SlurmPart(lookup)
		var ee *EnvError
		switch {
		case c.refused != "":
			if !errors.As(err, &ee) || !strings.Contains(err.Error(), c.refused) {
				t.Errorf("%v: got %v, %v; want an *EnvError with %q", c.env, p, err, c.refused)
			}
		case err != nil:
			t.Errorf("%v: %v", c.env, err)
		case c.count == 0 && p != nil:
			t.Errorf("%v: got %+v outside an array", c.env, *p)
		case c.count != 0 && (p == nil || p.Index != c.index || p.Count != c.count || !strings.Contains(p.Source, "SLURM_ARRAY_TASK_ID=")):
			t.Errorf("%v: got %+v, want shard %d/%d", c.env, p, c.index, c.count)
		}
	}
}

// TestIndexedJobPart checks the part of a pod of an Indexed Job of 4
// completions: index 2 is shard 3/4, no index is no part, and an index
// out of [0, 3] or not a number is refused.
func TestIndexedJobPart(t *testing.T) {
	env := func(v string) func(string) (string, bool) {
		return func(k string) (string, bool) { return v, k == "JOB_COMPLETION_INDEX" && v != "unset" }
	}
	if p, err := IndexedJobPart(env("2"), 4); err != nil || p == nil || p.Index != 3 || p.Count != 4 || p.Source != "JOB_COMPLETION_INDEX=2 with --shards 4" {
		t.Errorf("index 2: %+v, %v; want shard 3/4", p, err)
	}
	if p, err := IndexedJobPart(env("unset"), 4); p != nil || err != nil {
		t.Errorf("no index: %+v, %v; want none", p, err)
	}
	for _, v := range []string{"4", "-1", "two"} {
		var ee *EnvError
		if _, err := IndexedJobPart(env(v), 4); !errors.As(err, &ee) {
			t.Errorf("index %q: %v, want an *EnvError", v, err)
		}
	}
}
