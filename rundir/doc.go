// Package rundir is the output directory of a ptbatch command (--out DIR)
// as library code: the lock that lets one process write there at a time,
// atomic writers and appenders that never follow a symbolic link, the
// manifest (manifest.json) that says what the directory holds, and the
// length and SHA-256 of every file written, recorded at write time, so
// that a reader such as a merge can refuse a damaged file before it uses
// anything.
//
// A command opens the directory with Open, which takes DIR/.lock (an
// exclusive flock, released by the kernel however the process ends),
// recovers a lock file left by a killed process with a note, and removes
// the temporary files a kill left behind. Every file written through
// WriteFile, Create or OpenAppender under a held directory has its
// length and checksum recorded in that Dir; WriteManifest stores them in
// manifest.json. Close removes the lock file (only while holding it) and
// releases the lock, so a clean exit leaves no .lock.
//
// A command's work is split into shards of contiguous units (Part,
// Share; SlurmPart reads a Slurm job array task's part); a Job keeps a
// shard's manifest (Part.NewManifest) up to date as its units are
// written (StartJob, Job.Begin, Job.Progress, Job.Finish, Job.Close). A
// merge reads the shards' manifests and verifies their files
// (ReadShards, SameConfig), then writes into a held directory (Merge)
// what one process would; MergeBy chooses the writer by the shards'
// command.
//
// The writers work on paths, not on a Dir, so that code which formats a
// file need not know who holds its directory: a write is recorded in the
// Dir of this process that holds a directory containing the path, if
// any.
package rundir
