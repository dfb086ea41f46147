package runout

import "github.com/ptbatch/ptbatch/rundir"

// FinishRun ends the job j of a run in the directory it holds, once the
// run's other files are written: it writes summary.json (the bytes
// summary, such as EncodeJSON's) and the run's record rec into
// result.gob, records the run's configuration as data (ConfigOf) in the
// manifest, which fingerprints it and by which a merge checks the
// shards, and writes the manifest, complete unless the run was
// interrupted (rundir.Job.Finish).
func FinishRun(j *rundir.Job, rec *Record, summary []byte) error {
	if err := rundir.WriteBytes(j.Dir.File("summary.json"), summary); err != nil {
		return err
	}
	if err := WriteRecord(j.Dir.File(RecordName), rec); err != nil {
		return err
	}
	m := j.Manifest
	if err := m.SetConfig(ConfigOf(rec, m.Units)); err != nil {
		return err
	}
	done := m.First
	if !rec.Result.Interrupted {
		done = m.End
	}
	return j.Finish(done, rec.Result.Interrupted)
}
