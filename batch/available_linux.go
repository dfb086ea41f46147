//go:build linux

package batch

import "syscall"

// readHead reads the start of the file at path into buf, up to len(buf)
// bytes, with open, read and close and nothing else (no os.File, no
// stat): /proc and /sys files are written whole at the first read. A
// file that does not exist is an error that errors.Is fs.ErrNotExist.
func readHead(path string, buf []byte) (int, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return 0, err
	}
	defer syscall.Close(fd)
	n := 0
	for n < len(buf) {
		k, err := syscall.Read(fd, buf[n:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return 0, err
		}
		if k == 0 {
			break
		}
		n += k
	}
	return n, nil
}
