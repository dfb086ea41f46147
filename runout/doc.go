// Package runout owns the output directory of one run of package batch:
// the files `ptbatch run --out DIR` writes, and the merge of the
// directories of a run's shards (runs of consecutive replicate ranges of
// one configuration) into the files of one run.
//
// A run's outputs are written from data: a Record holds the Result, the
// records of its statistics (batch.LogZRecord, …) and the Settings that
// shape the files (NewSettings gives those of a batch.Config), and
// WriteFiles writes every file from it. The record
// itself goes to result.gob, so that a merge reads the shards' records,
// merges them (Merge: each statistic merges itself) and writes the
// outputs through the same WriteFiles, without the command line that
// made them. samples.csv and index.csv are streamed while the run goes
// (SampleWriter, IndexWriter); a merge joins them scan by scan
// (MergeStreamed), and reads the diagnostics' draws and the index
// figure's trace back from them.
//
// FinishRun ends a run's job in its directory (summary.json, result.gob
// and the manifest, which fingerprints the run's RunConfig), and
// MergeRun merges the directories of a run's shards on their data alone.
//
// Files of a run:
//
//	scans.csv, knots.csv, schedules.csv   per replicate and scan / final values (WriteTables)
//	logz.csv                              stepping-stone log(Z1/Z0) per replicate (WriteLogZ)
//	lambda.csv, lambda.png/svg            barrier profile of the last scan (WriteLambda)
//	samples.csv                           kept target-chain states (SampleWriter)
//	index.csv, index.png/svg              index process, with Settings.Record "index" (IndexWriter)
//	diagnostics.csv, samples.png/svg      multi-chain diagnostics of the kept samples (Diagnostics)
//	summary.json                          everything above summarised (Summary, EncodeJSON)
//	result.gob                            the Record (WriteRecord, ReadRecord)
package runout
