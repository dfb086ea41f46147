//go:build !linux

package batch

import (
	"io"
	"os"
)

// readHead reads the start of the file at path into buf, up to len(buf)
// bytes. A file that does not exist is an error that errors.Is
// fs.ErrNotExist.
func readHead(path string, buf []byte) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	n, err := io.ReadFull(f, buf)
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		err = nil
	}
	return n, err
}
