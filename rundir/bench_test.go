package rundir

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkVerify measures what a merge adds per shard file: reading it
// and checking its SHA-256 against the manifest's record (16 MiB, the
// size of a run's samples.csv at a few hundred thousand rows).
func BenchmarkVerify(b *testing.B) {
	dir := b.TempDir()
	data := make([]byte, 16<<20)
	for i := range data {
		data[i] = byte(i * 7)
	}
	if err := os.WriteFile(filepath.Join(dir, "samples.csv"), data, 0o644); err != nil {
		b.Fatal(err)
	}
	want := SumBytes(data)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if err := Verify(dir, "samples.csv", want); err != nil {
			b.Fatal(err)
		}
	}
}
