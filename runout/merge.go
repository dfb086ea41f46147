package runout

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"github.com/ptbatch/ptbatch/rundir"
)

// ErrShard is wrapped by the errors of a merge that name a shard whose
// files do not fit the others (a missing or malformed file).
var ErrShard = errors.New("runout: shard does not fit the merge")

// Stream is one shard's copy of a streamed file (samples.csv,
// index.csv): the shard's directory, for messages, and the file's path,
// "" when the shard has none.
type Stream struct{ Dir, Path string }

// shardError is an error of a merge that wraps ErrShard.
type shardError struct{ msg string }

func (e *shardError) Error() string { return e.msg }
func (e *shardError) Unwrap() error { return ErrShard }

// shardErr returns the shardError "shard DIR: " + format.
func shardErr(dir, format string, args ...any) error {
	return &shardError{fmt.Sprintf("shard %s: ", dir) + fmt.Sprintf(format, args...)}
}

// MergeStreamed writes dir/name, the join of the shards' copies of the
// streamed file name. A run writes such a file scan by scan, rows
// `replicate,iteration,…`, each scan's replicate by replicate, so the rows
// of scan s are the first shard's rows of scan s, then the second's, and
// so on (perScan iterations a scan); lines are copied unchanged. Nothing
// is written when no shard has the file.
func MergeStreamed(dir, name string, perScan int, shards []Stream) error {
	var readers []*streamReader
	var header []byte
	for _, s := range shards {
		if s.Path == "" {
			if len(readers) > 0 {
				return &shardError{fmt.Sprintf("shard %s has no %s, the others have one", s.Dir, name)}
			}
			continue
		}
		r, h, err := openStream(s, name, perScan)
		if err != nil {
			return err
		}
		defer r.fh.Close()
		if header != nil && !bytes.Equal(h, header) {
			return shardErr(s.Dir, "%s's header %q differs from %q", name, bytes.TrimSpace(h), bytes.TrimSpace(header))
		}
		header = h
		readers = append(readers, r)
	}
	if len(readers) == 0 {
		return nil
	}
	if len(readers) != len(shards) {
		return &shardError{fmt.Sprintf("some shards have %s and some do not", name)}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return rundir.WriteFile(filepath.Join(dir, name), func(w io.Writer) error {
		if _, err := w.Write(header); err != nil {
			return err
		}
		return copyScans(w, readers)
	})
}

// streamReader reads one shard's streamed file a row at a time.
type streamReader struct {
	s       Stream
	name    string
	fh      *os.File
	r       *bufio.Reader
	perScan int
	pending []byte
}

// openStream opens the shard's file and reads its header.
func openStream(s Stream, name string, perScan int) (*streamReader, []byte, error) {
	fh, err := os.Open(s.Path)
	if err != nil {
		return nil, nil, err
	}
	r := &streamReader{s: s, name: name, fh: fh, r: bufio.NewReaderSize(fh, 1<<16), perScan: perScan}
	h, err := r.r.ReadBytes('\n')
	if err != nil {
		fh.Close()
		return nil, nil, shardErr(s.Dir, "%s has no header", name)
	}
	return r, h, nil
}

// scan returns the scan of the pending row (from its iteration), read if
// none is pending, or -1 at the end of the file.
func (r *streamReader) scan() (int, error) {
	if r.pending == nil {
		line, err := r.r.ReadBytes('\n')
		if errors.Is(err, io.EOF) && len(line) == 0 {
			return -1, nil
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return 0, err
		}
		r.pending = line
	}
	fields := bytes.SplitN(r.pending, []byte(","), 3)
	if len(fields) < 2 {
		return 0, shardErr(r.s.Dir, "%s has a malformed row %q", r.name, bytes.TrimSpace(r.pending))
	}
	it, err := strconv.Atoi(string(bytes.TrimSpace(fields[1])))
	if err != nil || it < 1 {
		return 0, shardErr(r.s.Dir, "%s has a malformed row %q", r.name, bytes.TrimSpace(r.pending))
	}
	return (it-1)/r.perScan + 1, nil
}

// copyScans copies the readers' rows to w, scan by scan: the lowest scan
// pending in any reader, from every reader in order, then the next.
func copyScans(w io.Writer, readers []*streamReader) error {
	for {
		scan := math.MaxInt
		for _, r := range readers {
			s, err := r.scan()
			if err != nil {
				return err
			}
			if s >= 0 && s < scan {
				scan = s
			}
		}
		if scan == math.MaxInt {
			return nil
		}
		for _, r := range readers {
			for {
				s, err := r.scan()
				if err != nil {
					return err
				}
				if s != scan {
					break
				}
				if _, err := w.Write(r.pending); err != nil {
					return err
				}
				r.pending = nil
			}
		}
	}
}
