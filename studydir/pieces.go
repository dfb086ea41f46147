package studydir

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ptbatch/ptbatch/rundir"
	"github.com/ptbatch/ptbatch/study"
)

// Options returns o with the directory's checkpoints (checkpoints/), and
// Done and Skip that keep each finished piece's cells under pieces/,
// recorded in the manifest, and read them back in a resumed study after
// checking them against the checksum the manifest recorded: the
// study.Options to pass to study.Execute for this directory.
func (j *Dir) Options(o study.Options) study.Options {
	o.Checkpoints = dirCheckpoints(j.d.File("checkpoints"))
	o.Done, o.Skip = j.savePiece, j.loadPiece
	return o
}

// removeScratch removes the study's scratch directories and drops them
// from the manifest m (nil: none).
func removeScratch(d *rundir.Dir, m *rundir.Manifest) error {
	for _, s := range scratch {
		if err := d.RemoveAll(s); err != nil {
			return err
		}
		if m != nil {
			for name := range m.Files {
				if strings.HasPrefix(name, s+"/") {
					delete(m.Files, name)
				}
			}
		}
	}
	return nil
}

// dirCheckpoints keeps checkpoints as files of a directory.
type dirCheckpoints string

// Save writes data as the file key.ckpt.
func (d dirCheckpoints) Save(key string, data []byte) error {
	if err := os.MkdirAll(string(d), 0o755); err != nil {
		return err
	}
	return rundir.WriteBytes(filepath.Join(string(d), key+".ckpt"), data)
}

// Load reads the file key.ckpt, or returns nil when there is none.
func (d dirCheckpoints) Load(key string) ([]byte, error) {
	data, err := os.ReadFile(filepath.Join(string(d), key+".ckpt"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return data, err
}

// pieceName is where a finished piece's cells are kept until the study
// ends, relative to the directory.
func pieceName(pc study.Piece) string { return "pieces/" + study.CheckpointKey(pc) + ".csv" }

// savePiece keeps a finished piece's cells and then records the piece as
// done in the manifest.
func (j *Dir) savePiece(pc study.Piece, cells []study.Cell) error {
	if err := os.MkdirAll(j.d.File("pieces"), 0o755); err != nil {
		return err
	}
	err := rundir.WriteFile(j.d.File(pieceName(pc)), func(w io.Writer) error { return study.WriteCells(w, j.p, cells) })
	if err != nil {
		return err
	}
	j.m.Done += len(cells)
	return j.d.WriteManifest(j.m)
}

// loadPiece reads a piece kept by savePiece before the resume, after
// checking it against the checksum the manifest recorded; a damaged one
// is a *ResumeError.
func (j *Dir) loadPiece(pc study.Piece) ([]study.Cell, bool, error) {
	name := pieceName(pc)
	sum, ok := j.prev.Files[name]
	if !ok {
		return nil, false, nil // not finished, or finished as it was killed: run it again
	}
	if err := rundir.Verify(j.d.Path(), name, sum); err != nil {
		return nil, false, &ResumeError{Path: j.d.Path(), Shard: j.which, Damaged: err}
	}
	f, err := os.Open(j.d.File(name))
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	cells, err := study.ReadCells(f, j.p)
	return cells, err == nil, err
}
