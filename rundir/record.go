package rundir

import (
	"bufio"
	"encoding/gob"
	"fmt"
	"io"
)

// WriteRecord writes v to path atomically (WriteFile) as gob, which keeps
// every float's bits: the codec of a run's exact result (result.gob).
func WriteRecord(path string, v any) error {
	return WriteFile(path, func(w io.Writer) error { return gob.NewEncoder(w).Encode(v) })
}

// ReadRecord reads into v the record WriteRecord wrote to path, without
// following a link.
func ReadRecord(path string, v any) error {
	fh, err := openRead(path)
	if err != nil {
		return err
	}
	defer fh.Close()
	if err := gob.NewDecoder(bufio.NewReader(fh)).Decode(v); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	return nil
}
