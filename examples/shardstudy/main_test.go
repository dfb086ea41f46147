package main

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"

	"github.com/ptbatch/ptbatch/study"
)

// TestThreeShardsMergeToOneProcess runs the example's study as 3 shards
// through the library alone, merges their files, and checks that
// cells.csv and summary.csv are the bytes of one process, with a row per
// run × replicate (2 separations × 2 methods × 2 seeds × 6 replicates =
// 48, and the header).
func TestThreeShardsMergeToOneProcess(t *testing.T) {
	merged, one, err := shardAndMerge(context.Background(), t.TempDir(), 3)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(merged[0], one[0]) || !bytes.Equal(merged[1], one[1]) {
		t.Error("the merged shards' files differ from one process's")
	}
	if n := strings.Count(string(merged[0]), "\n"); n != 49 {
		t.Errorf("cells.csv has %d lines, want 49", n)
	}
}

// TestLogZIsZero checks the study's log Z against its closed form: the
// target's exp(W1) = exp(−2(x+s)²) + exp(−2(x−s)²) (the log-sum-exp is
// exact) integrates to 2·√(π/2) = √(2π) for every s, the integral of the
// reference's exp(−x²/2), so log(Z_1/Z_0) = 0. Every run's mean over its
// 6 replicates must hold 0 within twice its 95 % half-width (about 4
// standard errors; the stepping-stone bias is O(1/M) for M iterations).
func TestLogZIsZero(t *testing.T) {
	p := plan()
	cells, err := study.Execute(context.Background(), &p, p.Pieces(), study.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range study.Summarize(cells) {
		if h := s.LogZ.Hi - s.LogZ.Mean; !(math.Abs(s.LogZ.Mean) <= 2*h) {
			t.Errorf("run %d: log Z = %.4f ± %.4f, want 0", s.Run, s.LogZ.Mean, h)
		}
	}
}
