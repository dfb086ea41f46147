package main

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/ptbatch/ptbatch/study"
)

// The study's files are written through writeStudyFile: to a temporary
// file in the same directory, then renamed, so that a reader never sees a
// half-written file.

// writeStudyFile writes path atomically with write.
func writeStudyFile(path string, write func(io.Writer) error) error {
	var b bytes.Buffer
	if err := write(&b); err != nil {
		return err
	}
	return writeStudyBytes(path, b.Bytes())
}

// writeStudyBytes writes data to path atomically.
func writeStudyBytes(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if err = errors.Join(err, tmp.Sync(), tmp.Close()); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// dirCheckpoints keeps checkpoints as files of a directory.
type dirCheckpoints string

// Save writes data as the file key.ckpt.
func (d dirCheckpoints) Save(key string, data []byte) error {
	if err := os.MkdirAll(string(d), 0o755); err != nil {
		return err
	}
	return writeStudyBytes(filepath.Join(string(d), key+".ckpt"), data)
}

// Load reads the file key.ckpt, or returns nil when there is none.
func (d dirCheckpoints) Load(key string) ([]byte, error) {
	data, err := os.ReadFile(filepath.Join(string(d), key+".ckpt"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return data, err
}

// pieceFile is where a finished piece's cells are kept until the study
// ends.
func pieceFile(out string, pc study.Piece) string {
	return filepath.Join(out, "pieces", study.CheckpointKey(pc)+".csv")
}

// savePiece returns the Options.Done that keeps a finished piece's cells.
func savePiece(p *study.Plan, out string) func(study.Piece, []study.Cell) error {
	return func(pc study.Piece, cells []study.Cell) error {
		if err := os.MkdirAll(filepath.Join(out, "pieces"), 0o755); err != nil {
			return err
		}
		return writeStudyFile(pieceFile(out, pc), func(w io.Writer) error { return study.WriteCells(w, p, cells) })
	}
}

// loadPiece returns the Options.Skip that reads a piece kept by savePiece.
func loadPiece(p *study.Plan, out string) func(study.Piece) ([]study.Cell, bool, error) {
	return func(pc study.Piece) ([]study.Cell, bool, error) {
		f, err := os.Open(pieceFile(out, pc))
		if errors.Is(err, fs.ErrNotExist) {
			return nil, false, nil
		}
		if err != nil {
			return nil, false, err
		}
		defer f.Close()
		cells, err := study.ReadCells(f, p)
		return cells, err == nil, err
	}
}

// writeStudyResults writes the files of a whole study: cells.csv,
// summary.csv, summary.json, results.md and the figures.
func writeStudyResults(out string, p *study.Plan, cells []study.Cell) error {
	sums := study.Summarize(cells)
	files := []struct {
		name  string
		write func(io.Writer) error
	}{
		{"cells.csv", func(w io.Writer) error { return study.WriteCells(w, p, cells) }},
		{"summary.csv", func(w io.Writer) error { return study.WriteSummary(w, p, sums) }},
		{"summary.json", func(w io.Writer) error { return study.WriteSummaryJSON(w, p, sums) }},
		{"results.md", func(w io.Writer) error { return writeStudyMarkdown(w, p, sums) }},
	}
	for _, f := range files {
		if err := writeStudyFile(filepath.Join(out, f.name), f.write); err != nil {
			return err
		}
	}
	return writeStudyFigures(out, p, sums)
}
