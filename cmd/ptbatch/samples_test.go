package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// readCSV returns the rows of a CSV file.
func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	rows, err := csv.NewReader(fh).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestRunWritesSamples checks samples.csv of `ptbatch run --out`: the
// header, one row per kept state (the last --keep-scans scans, every
// --thin-th iteration, every replicate), in replicate then iteration order
// within a scan, and the same bytes with 1 and 2 workers.
func TestRunWritesSamples(t *testing.T) {
	var files [2][]byte
	for i, workers := range []string{"1", "2"} {
		dir := t.TempDir()
		_, errs, code := runCLI("run", "--dim", "2", "--sigma0", "0.5", "--sigma1", "0.5", "--chains", "6",
			"--iterations", "300", "--scans", "3", "--replicates", "3", "--keep-scans", "2", "--thin", "4",
			"--workers", workers, "--out", dir, "--quiet")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		path := filepath.Join(dir, "samples.csv")
		rows := readCSV(t, path)
		if got := rows[0]; len(got) != 4 || got[0] != "replicate" || got[1] != "iteration" || got[2] != "x0" || got[3] != "x1" {
			t.Fatalf("header %v", got)
		}
		// Scans 2 and 3 are iterations 101–300; multiples of 4: 50 per replicate.
		if len(rows)-1 != 3*50 {
			t.Fatalf("%d rows, want 150", len(rows)-1)
		}
		prevScan, prevB, prevM := 0, -1, 0
		for _, r := range rows[1:] {
			b, _ := strconv.Atoi(r[0])
			m, _ := strconv.Atoi(r[1])
			scan := (m-1)/100 + 1
			if m <= 100 || m%4 != 0 || scan < prevScan || (scan == prevScan && (b < prevB || (b == prevB && m <= prevM))) {
				t.Fatalf("row %v out of order after replicate %d iteration %d", r, prevB, prevM)
			}
			prevScan, prevB, prevM = scan, b, m
		}
		if files[i], _ = os.ReadFile(path); len(files[i]) == 0 {
			t.Fatal("empty samples.csv")
		}
	}
	if string(files[0]) != string(files[1]) {
		t.Error("samples.csv differs between 1 and 2 workers")
	}
}
