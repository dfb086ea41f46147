package batch

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/ptbatch/ptbatch/internal/wire"
	"github.com/ptbatch/ptbatch/models"
)

// A checkpoint is an Engine's complete state as bytes (Engine.MarshalBinary)
// from which Restore rebuilds the engine in another process, so that a run
// stopped after k scans (or within a scan) and restored gives, bit for bit,
// the Result and statistics of a run that was never stopped. The bytes are
//
//	magic      "ptbatch-checkpoint\n" (19 bytes)
//	format     uint32, little-endian: checkpointFormat
//	length     uint64, little-endian: the number of bytes of the body
//	body       the header and the state (internal/wire encoding)
//	checksum   SHA-256 of everything before it (32 bytes)
//
// and the header holds the version of the program that wrote it (module
// version, VCS revision, Go version) and the description of the
// configuration: every Config field that affects results, with the model's
// description (models.Described) and the statistics' types and settings,
// but not Workers or Pin. The state is per block of layout.Lanes
// replicates, so a checkpoint restores into any number of workers.
const (
	checkpointMagic  = "ptbatch-checkpoint\n"
	checkpointFormat = 1
	// preamble is the magic, the format and the length.
	checkpointPreamble = len(checkpointMagic) + 4 + 8
)

// ErrCheckpoint is the error every *CheckpointError matches with errors.Is.
var ErrCheckpoint = errors.New("batch: checkpoint refused")

// CheckpointProblem says why Restore refuses a checkpoint.
type CheckpointProblem int

const (
	// NotCheckpoint: the data do not start with a checkpoint's magic.
	NotCheckpoint CheckpointProblem = iota
	// Truncated: the data end before the checkpoint does.
	Truncated
	// Corrupted: the checksum does not match, or the state cannot be read.
	Corrupted
	// OtherFormat: a format this package does not read.
	OtherFormat
	// OtherVersion: written by another version of the program.
	OtherVersion
	// OtherConfig: written by a run of another configuration; Field names
	// the first Config field that differs.
	OtherConfig
)

// CheckpointError is a checkpoint that Restore refuses, or an engine whose
// state MarshalBinary cannot save. For OtherFormat, OtherVersion and
// OtherConfig, Checkpoint and Current are the checkpoint's value and the
// current one; for OtherConfig, Field is the Config field's name ("Chains",
// "Model", "Statistics", …), which a command line maps to its flag.
type CheckpointError struct {
	Problem             CheckpointProblem
	Field               string
	Checkpoint, Current string
	Detail              string
}

// Error returns one line that says what is wrong.
func (e *CheckpointError) Error() string {
	switch e.Problem {
	case NotCheckpoint:
		return "batch: not a ptbatch checkpoint"
	case Truncated:
		return "batch: checkpoint truncated: " + e.Detail
	case Corrupted:
		return "batch: checkpoint corrupted: " + e.Detail
	case OtherFormat:
		return fmt.Sprintf("batch: checkpoint in format %s; this version reads format %s", e.Checkpoint, e.Current)
	case OtherVersion:
		return fmt.Sprintf("batch: checkpoint written by %s; this is %s", e.Checkpoint, e.Current)
	}
	return fmt.Sprintf("batch: checkpoint of another configuration: %s is %s in the checkpoint, %s now", e.Field, e.Checkpoint, e.Current)
}

// Is reports whether target is ErrCheckpoint.
func (e *CheckpointError) Is(target error) bool { return target == ErrCheckpoint }

// modulePath is the module whose version a checkpoint records.
const modulePath = "github.com/ptbatch/ptbatch"

// programVersion is the version recorded in checkpoints and required of
// the checkpoints Restore accepts; tests change it.
var programVersion = readProgramVersion()

// readProgramVersion returns the module's version as the build recorded
// it ("(devel)" in a build from a source tree), with the VCS revision and
// "+dirty" for modified sources when the build has them, and the Go
// version, whose math library the results depend on.
func readProgramVersion() string {
	version, rev := "unknown", ""
	if info, ok := debug.ReadBuildInfo(); ok {
		if info.Main.Path == modulePath {
			version = info.Main.Version
			for _, s := range info.Settings {
				switch {
				case s.Key == "vcs.revision":
					rev = " " + s.Value + rev
				case s.Key == "vcs.modified" && s.Value == "true":
					rev += "+dirty"
				}
			}
		} else {
			for _, d := range info.Deps {
				if d.Path == modulePath {
					version = d.Version
				}
			}
		}
	}
	return fmt.Sprintf("ptbatch %s%s (%s)", version, rev, runtime.Version())
}

// setting is one entry of a configuration's description.
type setting struct{ field, value string }

// notDescribed are the Config fields that describe leaves out: Workers and
// Pin do not change results. A test checks that every other Config field
// is in the description.
var notDescribed = []string{"Workers", "Pin"}

// describe returns cfg's description, field by field (see the checkpoint
// format above); cfg must be valid.
func describe(cfg *Config) []setting {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	gradient := "block"
	if cfg.Gradient == FullGradient {
		gradient = "full"
	}
	stats := make([]string, len(cfg.Statistics))
	for i, s := range cfg.Statistics {
		stats[i] = fmt.Sprintf("%T", s)
		if d, ok := s.(describedStatistic); ok {
			stats[i] += "{" + d.describe() + "}"
		}
	}
	s := []setting{
		{"Model", describeModel(cfg.Model)},
		{"Chains", strconv.Itoa(cfg.Chains)},
		{"Replicates", strconv.Itoa(cfg.Replicates)},
		{"FirstReplicate", strconv.Itoa(cfg.FirstReplicate)},
		{"Algorithm", cfg.Algorithm.String()},
		{"Iterations", strconv.Itoa(cfg.Iterations)},
		{"Scans", strconv.Itoa(cfg.Scans)},
		{"TuneSchedule", strconv.FormatBool(cfg.TuneSchedule)},
		{"Knots", strconv.Itoa(max(cfg.Knots, 1))},
		{"TunePath", strconv.FormatBool(cfg.TunePath)},
		{"LearningRate", f(cfg.LearningRate)},
		{"Gradient", gradient},
		{"Tuning", cfg.Tuning.String()},
		{"KeepScans", strconv.Itoa(cfg.KeepScansInEffect())},
		{"Seed", strconv.FormatUint(cfg.Seed, 10)},
		{"Statistics", "[" + strings.Join(stats, " ") + "]"},
	}
	if cfg.VariationalLeg > 0 { // absent with one leg, so that older checkpoints stay readable
		s = append(s, setting{"VariationalLeg", strconv.Itoa(cfg.VariationalLeg)})
	}
	return s
}

// describeModel returns the model's description (models.Described), or
// its type, name and observables.
func describeModel(m models.Model) string {
	if d, ok := m.(models.Described); ok {
		return d.Description()
	}
	name := ""
	if n, ok := m.(models.Named); ok {
		name = " " + n.Name()
	}
	return fmt.Sprintf("%T%s observables=%s", m, name, strings.Join(m.Observables(), ","))
}

// describedStatistic is a statistic of this package that describes its
// settings for the configuration's description.
type describedStatistic interface {
	describe() string
}

// StatisticState is a Statistic whose state a checkpoint can hold: what
// it has collected (MarshalBinary, restored by UnmarshalBinary on a
// statistic of the same type and settings in the restored run's
// configuration), its observers being ObserverStates. Every statistic of
// this package is one; a checkpoint of a run with a statistic that is not
// fails with an error.
type StatisticState interface {
	Statistic
	MarshalBinary() ([]byte, error)
	UnmarshalBinary(data []byte) error
}

// ObserverState is an Observer whose state a checkpoint can hold: what it
// has accumulated, restored by UnmarshalBinary on the observer that the
// same statistic makes for the same block of the restored run.
type ObserverState interface {
	Observer
	MarshalBinary() ([]byte, error)
	UnmarshalBinary(data []byte) error
}

const engineStateTag = "engine/1"

// MarshalBinary returns a checkpoint of the engine: its complete state
// with the program's version and the configuration's description (see
// the format above), from which Restore rebuilds it. It can be called
// between Steps, also after a Step interrupted within a scan (the blocks
// keep their place in it). It returns an error, and no partial checkpoint,
// when the model's blocks are not models.BlockState or a statistic is not
// a StatisticState, or after a model's panic (the blocks are then in an
// unknown state).
func (e *Engine) MarshalBinary() ([]byte, error) {
	if e.failed != nil {
		return nil, fmt.Errorf("batch: no checkpoint of a run that failed: %w", e.failed)
	}
	for i, s := range e.cfg.Statistics {
		if _, ok := s.(StatisticState); !ok {
			return nil, fmt.Errorf("batch: statistic %d (%T) is not a StatisticState: its state cannot be saved in a checkpoint", i, s)
		}
	}
	var w wire.Writer
	w.String(programVersion)
	desc := describe(&e.cfg)
	w.Int(len(desc))
	for _, s := range desc {
		w.String(s.field)
		w.String(s.value)
	}
	w.String(engineStateTag)
	w.Int(e.scans)
	w.Int(int(e.elapsed))
	w.Int(len(e.blocks))
	for i, b := range e.blocks {
		data, err := b.marshal()
		if err != nil {
			return nil, fmt.Errorf("batch: checkpoint of block %d: %w", i, err)
		}
		w.Blob(data)
	}
	w.Int(len(e.cfg.Statistics))
	for i, s := range e.cfg.Statistics {
		data, err := s.(StatisticState).MarshalBinary()
		if err != nil {
			return nil, fmt.Errorf("batch: checkpoint of statistic %d (%T): %w", i, s, err)
		}
		w.Blob(data)
	}
	body := w.Bytes()
	out := make([]byte, 0, checkpointPreamble+len(body)+sha256.Size)
	out = append(out, checkpointMagic...)
	out = binary.LittleEndian.AppendUint32(out, checkpointFormat)
	out = binary.LittleEndian.AppendUint64(out, uint64(len(body)))
	out = append(out, body...)
	sum := sha256.Sum256(out)
	return append(out, sum[:]...), nil
}

// checkpointBody checks a checkpoint's magic, format, length and checksum
// and returns its body.
func checkpointBody(data []byte) ([]byte, error) {
	magic := []byte(checkpointMagic)
	if !bytes.HasPrefix(data, magic) {
		if len(data) > 0 && bytes.HasPrefix(magic, data) {
			return nil, &CheckpointError{Problem: Truncated, Detail: fmt.Sprintf("%d bytes", len(data))}
		}
		return nil, &CheckpointError{Problem: NotCheckpoint}
	}
	if len(data) < checkpointPreamble {
		return nil, &CheckpointError{Problem: Truncated, Detail: fmt.Sprintf("%d bytes", len(data))}
	}
	if f := binary.LittleEndian.Uint32(data[len(magic):]); f != checkpointFormat {
		return nil, &CheckpointError{Problem: OtherFormat, Checkpoint: strconv.FormatUint(uint64(f), 10), Current: strconv.Itoa(checkpointFormat)}
	}
	n := binary.LittleEndian.Uint64(data[len(magic)+4:])
	rest := uint64(len(data) - checkpointPreamble)
	switch {
	case n > rest || rest-n < sha256.Size:
		if n >= 1<<62 {
			return nil, &CheckpointError{Problem: Corrupted, Detail: fmt.Sprintf("body length %d", n)}
		}
		return nil, &CheckpointError{Problem: Truncated, Detail: fmt.Sprintf("%d bytes of %d", len(data), uint64(checkpointPreamble)+n+sha256.Size)}
	case rest-n > sha256.Size:
		return nil, &CheckpointError{Problem: Corrupted, Detail: fmt.Sprintf("%d bytes after its end", rest-n-sha256.Size)}
	}
	end := checkpointPreamble + int(n)
	if sum := sha256.Sum256(data[:end]); !bytes.Equal(sum[:], data[end:]) {
		return nil, &CheckpointError{Problem: Corrupted, Detail: "the SHA-256 checksum does not match"}
	}
	return data[checkpointPreamble:end], nil
}

// Restore rebuilds the engine whose checkpoint (Engine.MarshalBinary) is
// data, for the configuration cfg, which must be that of the run that
// wrote it except for Workers and Pin; its Statistics must be new values
// of the same types and settings, into which Restore puts the saved state.
// Stepping the restored engine to its end gives the Result and statistics
// of the run that was never stopped, bit for bit.
//
// A checkpoint that is not one, truncated or corrupted, or written by
// another version of the program or for another configuration, is refused
// with a *CheckpointError that says which; an invalid cfg gives its
// *ConfigError. On an error, cfg's statistics may hold observers of the
// failed attempt and must not be reused.
func Restore(cfg Config, data []byte) (*Engine, error) {
	body, err := checkpointBody(data)
	if err != nil {
		return nil, err
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	r := wire.NewReader(body)
	corrupted := func(err error) error {
		return &CheckpointError{Problem: Corrupted, Detail: err.Error()}
	}
	if v := r.String(); r.Err() == nil && v != programVersion {
		return nil, &CheckpointError{Problem: OtherVersion, Checkpoint: v, Current: programVersion}
	}
	want := describe(&cfg)
	n := r.Int()
	got := make(map[string]string, n)
	order := make([]string, 0, n)
	for i := 0; i < n && r.Err() == nil; i++ {
		f, v := r.String(), r.String()
		got[f] = v
		order = append(order, f)
	}
	if r.Err() != nil {
		return nil, corrupted(r.Err())
	}
	for _, s := range want {
		v, ok := got[s.field]
		if !ok {
			v = "absent"
		}
		if v != s.value {
			return nil, &CheckpointError{Problem: OtherConfig, Field: s.field, Checkpoint: v, Current: s.value}
		}
	}
	if len(order) != len(want) {
		for _, f := range order {
			if !hasField(want, f) {
				return nil, &CheckpointError{Problem: OtherConfig, Field: f, Checkpoint: got[f], Current: "absent"}
			}
		}
	}
	e, err := New(cfg)
	if err != nil {
		return nil, err
	}
	if err := e.unmarshal(r); err != nil {
		return nil, corrupted(err)
	}
	return e, nil
}

func hasField(s []setting, field string) bool {
	for _, x := range s {
		if x.field == field {
			return true
		}
	}
	return false
}

// unmarshal reads the state after the header into a new engine of the same
// configuration.
func (e *Engine) unmarshal(r *wire.Reader) error {
	r.Expect(engineStateTag)
	scans, elapsed := r.Int(), r.Int()
	if r.Err() == nil && (scans < 0 || scans > e.cfg.Scans) {
		r.Failf("%d scans completed of %d", scans, e.cfg.Scans)
	}
	if nb := r.Int(); r.Err() == nil && nb != len(e.blocks) {
		r.Failf("%d blocks, want %d", nb, len(e.blocks))
	}
	for i, b := range e.blocks {
		data := r.Blob()
		if r.Err() != nil {
			break
		}
		if err := b.unmarshal(&e.cfg, data, e.perScan); err != nil {
			return fmt.Errorf("block %d: %w", i, err)
		}
		if b.scans < scans || b.scans > scans+1 || (b.scans > scans && b.pos != 0) {
			return fmt.Errorf("block %d at scan %d, iteration %d, the engine at scan %d", i, b.scans, b.pos, scans)
		}
	}
	if ns := r.Int(); r.Err() == nil && ns != len(e.cfg.Statistics) {
		r.Failf("%d statistics, want %d", ns, len(e.cfg.Statistics))
	}
	for i, s := range e.cfg.Statistics {
		data := r.Blob()
		if r.Err() != nil {
			break
		}
		ss, ok := s.(StatisticState)
		if !ok {
			return fmt.Errorf("statistic %d (%T) is not a StatisticState", i, s)
		}
		if err := ss.UnmarshalBinary(data); err != nil {
			return fmt.Errorf("statistic %d (%T): %w", i, s, err)
		}
	}
	if err := r.Close(); err != nil {
		return err
	}
	e.scans, e.elapsed = scans, time.Duration(elapsed)
	return nil
}
