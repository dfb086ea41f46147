package rundir

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
)

// FileSum is what a writer records of a file: its length and the SHA-256
// of its bytes (hex), at the time it wrote them. For a file that grows
// by appending, it covers the file as far as it is complete.
type FileSum struct {
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// UnmarshalJSON reads a FileSum, or a bare length as the manifests of
// format 1 recorded (with no checksum, which Verify then refuses).
func (s *FileSum) UnmarshalJSON(b []byte) error {
	var n int64
	if err := json.Unmarshal(b, &n); err == nil {
		*s = FileSum{Size: n}
		return nil
	}
	type plain FileSum
	return json.Unmarshal(b, (*plain)(s))
}

// summer counts and hashes the bytes written through it.
type summer struct {
	h    hash.Hash
	size int64
}

func newSummer() *summer { return &summer{h: sha256.New()} }

// Write hashes p; it never fails.
func (s *summer) Write(p []byte) (int, error) {
	s.h.Write(p)
	s.size += int64(len(p))
	return len(p), nil
}

// sum returns the length and checksum so far.
func (s *summer) sum() FileSum {
	return FileSum{Size: s.size, SHA256: hex.EncodeToString(s.h.Sum(nil))}
}

// hashPrefix returns the summer of the first n bytes of r; an error if r
// is shorter.
func hashPrefix(r io.Reader, n int64) (*summer, error) {
	s := newSummer()
	got, err := io.Copy(s, io.LimitReader(r, n))
	if err != nil {
		return nil, err
	}
	if got != n {
		return nil, fmt.Errorf("has %d bytes, fewer than the %d recorded: %w", got, n, ErrChecksum)
	}
	return s, nil
}

// Verify checks the file name under dir against want: the same length
// and the same SHA-256. A mismatch is an error wrapping ErrChecksum that
// names the file; a symbolic link is refused (ErrSymlink).
func Verify(dir, name string, want FileSum) error {
	path := filepath.Join(dir, filepath.FromSlash(name))
	fh, err := openRead(path)
	if err != nil {
		return err
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return err
	}
	if st.Size() != want.Size {
		return fmt.Errorf("%s has %d bytes, %d were written: %w", path, st.Size(), want.Size, ErrChecksum)
	}
	s, err := hashPrefix(fh, want.Size)
	if err != nil {
		return fmt.Errorf("%s %w", path, err)
	}
	if got := s.sum().SHA256; want.SHA256 == "" || got != want.SHA256 {
		return fmt.Errorf("%s: SHA-256 %.12s…, %.12s… was written: %w", path, got, want.SHA256, ErrChecksum)
	}
	return nil
}

// openRead opens path for reading without following a link.
func openRead(path string) (*os.File, error) {
	fh, err := os.OpenFile(path, os.O_RDONLY|noFollow, 0)
	if err != nil && (isLoop(err) || isSymlink(path)) {
		return nil, pathError(path, ErrSymlink)
	}
	if err == nil && isSymlink(path) {
		fh.Close()
		return nil, pathError(path, ErrSymlink)
	}
	return fh, err
}

// SumBytes returns the FileSum of b.
func SumBytes(b []byte) FileSum {
	s := newSummer()
	s.Write(b)
	return s.sum()
}
