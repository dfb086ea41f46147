package batch

import (
	"testing"

	"github.com/ptbatch/ptbatch/models"
)

// variationalDenseSmall is variationalSmall with the dense family
// (models.VariationalDense): the fitted means and Cholesky factors are
// the state a checkpoint must carry.
func variationalDenseSmall(t *testing.T) Config {
	t.Helper()
	cfg := variationalSmall(t)
	g, err := models.NewGaussian(2, -1, 1, 0.3, 0.3)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Model, err = models.VariationalDense(g, models.MALA{}, 4); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestVariationalDenseCheckpointResumes checks that a dense variational
// run checkpointed during the fit (at the end of scan 3, and within scan
// 4 with its sums of outer products open) resumes bit for bit on another
// number of workers (checkResume).
func TestVariationalDenseCheckpointResumes(t *testing.T) {
	cfg := variationalDenseSmall(t)
	t.Run("scan-end", func(t *testing.T) { checkResume(t, cfg, 3, 0) })
	t.Run("within-scan", func(t *testing.T) { checkResume(t, cfg, 3, cfg.Iterations/cfg.Scans/3) })
}

// TestVariationalDenseReplicatesAloneOrInBatch checks that replicates
// 11..15 of the dense variational run, run alone on one worker, give the
// scan histories and schedules they have inside the run of 20 on two
// workers.
func TestVariationalDenseReplicatesAloneOrInBatch(t *testing.T) {
	checkAloneOrInBatch(t, variationalDenseSmall(t))
}
