package runloop

import (
	"fmt"
	"io"
	"os"
)

// NotRegularError is ReadCheckpoint's error for a path that is not a
// regular file: a FIFO would block the read, and a device such as
// /dev/zero would never end.
type NotRegularError struct {
	Path string
	Mode os.FileMode
}

// Error says what the file is.
func (e *NotRegularError) Error() string {
	return fmt.Sprintf("runloop: checkpoint %s is not a regular file (%s)", e.Path, FileKind(e.Mode))
}

// TooLargeError is ReadCheckpoint's error for a file larger than the
// limit it was given, which therefore cannot be a checkpoint of a run
// that fits in it.
type TooLargeError struct {
	Path        string
	Size, Limit int64
}

// Error gives the size and the limit.
func (e *TooLargeError) Error() string {
	return fmt.Sprintf("runloop: checkpoint %s holds %d bytes, more than the limit of %d", e.Path, e.Size, e.Limit)
}

// ReadCheckpoint reads the checkpoint at path for Options.Resume: a
// regular file (else a *NotRegularError) of at most limit bytes (else a
// *TooLargeError), the memory the run may use. A file that grows while
// it is read yields at most one byte past its size, which the
// checkpoint's checksum then refuses. Other errors are the os package's.
func ReadCheckpoint(path string, limit int64) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &NotRegularError{Path: path, Mode: st.Mode()}
	}
	if st.Size() > limit {
		return nil, &TooLargeError{Path: path, Size: st.Size(), Limit: limit}
	}
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	return io.ReadAll(io.LimitReader(fh, st.Size()+1))
}

// FileKind names the type of a file that is not regular: "a directory",
// "a FIFO", "a character device", "a device", "a socket", or its mode.
func FileKind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a FIFO"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a device"
	case m&os.ModeSocket != 0:
		return "a socket"
	}
	return "mode " + m.String()
}
