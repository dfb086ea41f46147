//go:build !linux

package batch

import (
	"io"
	"os"
)

// readHead reads the start of the file at path into buf, up to len(buf)
// bytes, and reports whether the file could be read.
func readHead(path string, buf []byte) (int, bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	n, err := io.ReadFull(f, buf)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return 0, false
	}
	return n, true
}
