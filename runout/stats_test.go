package runout

import (
	"math"
	"testing"
)

// TestFormatLogZ checks the decimals of "mean ± se": down to the se's
// second significant digit (se 0.034 has its second at 10⁻³, se 3.4 at
// 10⁻¹, se 340 at the units, clamped at zero decimals), and the mean
// alone in %.6g without a positive se (one replicate: NaN).
func TestFormatLogZ(t *testing.T) {
	for _, c := range []struct {
		mean, se float64
		want     string
	}{
		{-122772.53, 0.034, "-122772.530 ± 0.034"},
		{-10.234, 3.4, "-10.2 ± 3.4"},
		{1234.4, 340, "1234 ± 340"},
		{-122772.53, math.NaN(), "-122773"},
		{2.5, 0, "2.5"},
	} {
		if got := FormatLogZ(c.mean, c.se); got != c.want {
			t.Errorf("FormatLogZ(%v, %v) = %q, want %q", c.mean, c.se, got, c.want)
		}
	}
}
