package diag

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// fixedArrays are the arrays whose diagnostics the R package posterior
// computed (TestPosteriorReference): drawn by SplitMix64, so fixed by
// their definition.
func fixedArrays() map[string][][]float64 {
	skew := ar1(12, 3, 51, 0.3, 0) // odd chains, ties, a skewed distribution
	for _, c := range skew {
		for i, x := range c {
			c[i] = math.Round(10*math.Exp(x)) / 10
		}
	}
	return map[string][][]float64{
		"shifted": ar1(11, 4, 100, 0.7, 0.3), // chains that disagree
		"skew":    skew,
		"minimal": ar1(13, 2, MinDraws, 0, 0), // the fewest draws accepted
	}
}

// TestDumpFixedArrays writes the fixed arrays as name.csv (rows chain,
// draw, value) into the directory -dump names, for the R script in
// TestPosteriorReference's comment.
func TestDumpFixedArrays(t *testing.T) {
	if *dump == "" {
		t.Skip("writes the reference arrays: -dump DIR")
	}
	for name, chains := range fixedArrays() {
		f, err := os.Create(filepath.Join(*dump, name+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintln(f, "chain,draw,value")
		for m, c := range chains {
			for i, x := range c {
				fmt.Fprintf(f, "%d,%d,%.17g\n", m+1, i+1, x)
			}
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
