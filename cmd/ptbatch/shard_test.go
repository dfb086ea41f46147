package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptbatch/ptbatch/rundir"
)

// withEnv makes lookupEnv see env alone until the test ends.
func withEnv(t *testing.T, env map[string]string) {
	t.Helper()
	old := lookupEnv
	lookupEnv = func(k string) (string, bool) {
		v, ok := env[k]
		return v, ok
	}
	t.Cleanup(func() { lookupEnv = old })
}

// TestShareTilesTheUnits checks that the shares of shards 1..n are
// contiguous, cover [0, units) once, and differ in size by at most one.
func TestShareTilesTheUnits(t *testing.T) {
	for _, units := range []int{1, 2, 7, 8, 12, 100, 1<<62 + 3} {
		for n := 1; n <= min(units, 9); n++ {
			next, smallest, largest := 0, units, 0
			for i := 1; i <= n; i++ {
				lo, hi := (&shard{index: i, count: n}).share(units)
				if lo != next || hi <= lo {
					t.Fatalf("units %d, shard %d/%d: [%d, %d) after %d", units, i, n, lo, hi, next)
				}
				next = hi
				smallest, largest = min(smallest, hi-lo), max(largest, hi-lo)
			}
			if next != units || largest-smallest > 1 {
				t.Errorf("units %d in %d shards: end %d, sizes %d to %d", units, n, next, smallest, largest)
			}
		}
	}
}

// TestShardFromEnvironment checks that a Slurm job array's variables (a
// 0-based range, a 1-based range given by MIN/MAX, a range with a step)
// and a Kubernetes Indexed Job's JOB_COMPLETION_INDEX with --shards give
// the shard --shard gives, and say so on stderr; and that a shard chosen
// from Slurm's variables writes the same files as the same --shard.
func TestShardFromEnvironment(t *testing.T) {
	cases := []struct {
		env   map[string]string
		flags []string
		want  string // the --shard it equals
	}{
		{map[string]string{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "2"}, nil, "2/3"},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "3"}, nil, "1/3"},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "3"}, nil, "3/3"},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "14", "SLURM_ARRAY_TASK_MIN": "10", "SLURM_ARRAY_TASK_MAX": "16", "SLURM_ARRAY_TASK_STEP": "2"}, nil, "3/4"},
		{map[string]string{"JOB_COMPLETION_INDEX": "4"}, []string{"--shards", "5"}, "5/5"},
		{map[string]string{"JOB_COMPLETION_INDEX": "0"}, []string{"--shards", "2"}, "1/2"},
		// --shard wins over the environment, and --shards over Slurm's.
		{map[string]string{"SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "3"}, []string{"--shard", "2/4"}, "2/4"},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "3", "JOB_COMPLETION_INDEX": "1"}, []string{"--shards", "2"}, "2/2"},
	}
	for _, c := range cases {
		withEnv(t, c.env)
		f := &runFlags{}
		fs := newRunFlagSet(f)
		f.flags = fs
		if err := fs.parse(c.flags, nil, ""); err != nil {
			t.Fatal(err)
		}
		got, err := resolveShard(fs, &f.shard)
		if err != nil {
			t.Fatalf("%v %v: %v", c.env, c.flags, err)
		}
		i, n, _ := rundir.ParseSpec(c.want)
		if got == nil || got.index != i || got.count != n {
			t.Errorf("%v %v: shard %+v, want %s", c.env, c.flags, got, c.want)
		}
	}

	// The files: shard 2/3 from Slurm's variables and from --shard.
	root := t.TempDir()
	withEnv(t, map[string]string{"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "3", "SLURM_ARRAY_TASK_COUNT": "3"})
	_, errs, code := runCLI(withArgs(shardSweepArgs, "--out", filepath.Join(root, "slurm"))...)
	if code != 0 || !strings.Contains(errs, "shard 2/3 (from SLURM_ARRAY_TASK_ID=2, SLURM_ARRAY_TASK_COUNT=3, SLURM_ARRAY_TASK_MIN=1)") {
		t.Fatalf("exit %d, stderr %q: want a note naming the variables", code, errs)
	}
	withEnv(t, map[string]string{"JOB_COMPLETION_INDEX": "1"})
	mustRun(t, withArgs(shardSweepArgs, "--shards", "3", "--out", filepath.Join(root, "k8s"))...)
	withEnv(t, nil)
	mustRun(t, withArgs(shardSweepArgs, "--shard", "2/3", "--out", filepath.Join(root, "flag"))...)
	for _, name := range []string{"cells.csv", "summary.csv"} {
		want, err := os.ReadFile(filepath.Join(root, "flag", name))
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range []string{"slurm", "k8s"} {
			if got, err := os.ReadFile(filepath.Join(root, d, name)); err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s/%s differs from --shard 2/3's (%v)", d, name, err)
			}
		}
	}
}

// TestBadShardsRefused checks that every bad choice of shard is refused
// with status 2 and one line naming the flag or the variable.
func TestBadShardsRefused(t *testing.T) {
	out := t.TempDir()
	run := withArgs(shardRunArgs[:len(shardRunArgs)-1], "--out", out) // --replicates 11
	cases := []struct {
		env  map[string]string
		args []string
		want string
	}{
		{nil, withArgs(run, "--shard", "0/3"), `--shard "0/3"`},
		{nil, withArgs(run, "--shard", "4/3"), `--shard "4/3"`},
		{nil, withArgs(run, "--shard", "two/3"), `--shard "two/3"`},
		{nil, withArgs(run, "--shard", "3"), `--shard "3"`},
		{nil, withArgs(run, "--shard", "1/12"), "11 replicates"},
		{nil, withArgs(run, "--shard", "1/2", "--shards", "2"), "--shards 2"},
		{nil, withArgs(run, "--shards", "3"), "JOB_COMPLETION_INDEX, which is not set"},
		{nil, withArgs(run, "--shards", "0"), "--shards 0"},
		{map[string]string{"JOB_COMPLETION_INDEX": "3"}, withArgs(run, "--shards", "3"), `JOB_COMPLETION_INDEX "3"`},
		{map[string]string{"JOB_COMPLETION_INDEX": "x"}, withArgs(run, "--shards", "3"), `JOB_COMPLETION_INDEX "x"`},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "a", "SLURM_ARRAY_TASK_COUNT": "3"}, run, `SLURM_ARRAY_TASK_ID "a"`},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_COUNT": "3"}, run, "SLURM_ARRAY_TASK_ID 5"},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "1"}, run, "SLURM_ARRAY_TASK_COUNT"},
		// --array=1,5,9: a list, not a range.
		{map[string]string{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "9", "SLURM_ARRAY_TASK_COUNT": "3"}, run, "not a range"},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "9", "SLURM_ARRAY_TASK_STEP": "4"}, run, "SLURM_ARRAY_TASK_ID 2"},
		{nil, []string{"run", "--quiet", "--shard", "1/2"}, "give --out"},
		{nil, withArgs(shardSweepArgs, "--shard", "1/2"), "give --out"},
		{nil, withArgs(shardSweepArgs, "--shard", "13/13", "--out", out), "12 cell × replicate units"},
		{nil, withArgs(shardSweepArgs, "--resume"), "--resume"},
	}
	for _, c := range cases {
		withEnv(t, c.env)
		o, e, code := runCLI(c.args...)
		if code != 2 || o != "" || strings.Count(e, "\n") != 1 || !strings.Contains(e, c.want) {
			t.Errorf("%v %v: exit %d, stdout %q, stderr %q; want 2 and one line containing %q", c.env, c.args[len(c.args)-4:], code, o, e, c.want)
		}
	}
}
