// Package studydir is the output directory of a study (package study) as
// library code: the directory a shard of a plan writes, with its lock,
// manifest and checksums (package rundir), the files of a whole study
// (cells.csv, summary.csv, summary.json, results.md and, through a hook
// such as WriteFigures, figures), the finished pieces and checkpoint that
// let an interrupted study resume, and the merge of the directories of a
// study's shards into the directory one process writes.
//
// A directory holds plan.json (the plan as data, study.WritePlan),
// shard.json (which shard of how many), manifest.json (rundir.Manifest,
// whose fingerprint is the plan's own, study.Plan.Fingerprint) and, once
// the shard is complete, cells.csv; a shard 1/1 also holds the summaries
// and results.md. Merge reads each shard's plan and cells as data, after
// checking every file against the length and SHA-256 its manifest
// records; it never reads the arguments a manifest records, so editing
// them changes nothing.
//
// A Go program runs a shard with Run (or Open, Dir.Options, study.Execute
// and Dir.Finish), and merges shards with Merge: the merged files are
// byte for byte those of one process, because replicate b of a run draws
// from the stream of (seed, b) whatever the shard (package study).
package studydir
