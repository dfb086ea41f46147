package runout

import (
	"bytes"
	"fmt"
	"path/filepath"

	"github.com/ptbatch/ptbatch/figure"
	"github.com/ptbatch/ptbatch/rundir"
)

// Extras are what a run in process has beyond its Record, which a merge
// reads back from the merged streamed files instead.
type Extras struct {
	// Draws are the diagnostics' kept draws (observable, replicate,
	// state; DrawsOf); nil: read from dir/samples.csv (DrawsFromSamples).
	Draws [][][]float64
	// Index is the trace of the index figure (IndexWriter.Trace); nil:
	// read from dir/index.csv when the settings record the index process.
	Index *IndexTrace
	// JSON are fields added to summary.json (such as a model's proposal
	// counts).
	JSON map[string]any
}

// WriteFiles writes every file of a run but the streamed samples.csv and
// index.csv into dir, from rec and x: scans.csv, knots.csv and
// schedules.csv (WriteTables), logz.csv, lambda.csv and its figure, the
// index figure (WriteStatFiles), diagnostics.csv and samples.png
// (WriteDiagnosticFiles), summary.json (Summary) and result.gob. It
// returns the diagnostics, whose warnings a caller may print.
func WriteFiles(dir string, rec *Record, x Extras) (*Diagnostics, error) {
	if err := WriteTables(dir, &rec.Result); err != nil {
		return nil, err
	}
	d, err := x.diagnostics(dir, rec)
	if err != nil {
		return nil, err
	}
	index := x.Index
	if index == nil && rec.Settings.Record == "index" {
		index = ReadIndexTrace(filepath.Join(dir, "index.csv"), rec.Settings.Index.Replicas)
	}
	if err := WriteStatFiles(dir, rec, index); err != nil {
		return nil, err
	}
	if err := WriteDiagnosticFiles(dir, d); err != nil {
		return nil, err
	}
	var js bytes.Buffer
	if err := EncodeJSON(&js, Summary(rec, dir, d, x.JSON), SummaryLead); err != nil {
		return nil, err
	}
	if err := rundir.WriteBytes(filepath.Join(dir, "summary.json"), js.Bytes()); err != nil {
		return nil, err
	}
	return d, WriteRecord(filepath.Join(dir, RecordName), rec)
}

// diagnostics returns the diagnostics of x's draws, or of dir/samples.csv.
func (x Extras) diagnostics(dir string, rec *Record) (*Diagnostics, error) {
	draws := x.Draws
	if draws == nil {
		var err error
		if draws, err = DrawsFromSamples(filepath.Join(dir, "samples.csv")); err != nil {
			return nil, err
		}
	}
	return NewDiagnostics(rec.Result.Observables, draws, &rec.Result), nil
}

// WriteStatFiles writes logz.csv, logz_path.csv when the log Z record has
// terms per pair (WriteLogZPath), and lambda.csv with its figure when rec
// has a barrier profile, into dir, and index.png/svg from index when it
// is not nil.
func WriteStatFiles(dir string, rec *Record, index *IndexTrace) error {
	first := rec.Result.Config.FirstReplicate
	if err := WriteLogZ(filepath.Join(dir, "logz.csv"), rec.LogZ, first); err != nil {
		return err
	}
	if err := WriteLogZPath(dir, rec.LogZ); err != nil {
		return err
	}
	if rec.Profile != nil {
		if err := WriteLambda(dir, *rec.Profile, first); err != nil {
			return err
		}
	}
	if index != nil {
		if err := index.Figure(&rec.Result.Config).Save(filepath.Join(dir, "index")); err != nil {
			return fmt.Errorf("index figure: %w", err)
		}
	}
	return nil
}

// WriteDiagnosticFiles writes diagnostics.csv and the figure of the kept
// samples, samples.png/svg (figure.SaveSamples), into dir.
func WriteDiagnosticFiles(dir string, d *Diagnostics) error {
	if err := d.WriteCSV(filepath.Join(dir, "diagnostics.csv")); err != nil {
		return err
	}
	if err := figure.SaveSamples(filepath.Join(dir, "samples"), d.Names, d.Draws); err != nil {
		return fmt.Errorf("samples figure: %w", err)
	}
	return nil
}
