package cliflag

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ParseSize parses a memory size: a number with an optional unit B, kB,
// MB, GB, TB (powers of 1000), KiB, MiB, GiB, TiB (powers of 1024) or K, M,
// G, T (powers of 1024), such as 512MiB, 4GiB or 1.5G. It refuses sizes
// below 1 byte and from 8 EiB up.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	units := []struct {
		suffix string
		mult   float64
	}{
		{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
		{"kB", 1e3}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12},
		{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"T", 1 << 40}, {"B", 1},
	}
	mult := 1.0
	for _, u := range units {
		if rest, ok := strings.CutSuffix(t, u.suffix); ok {
			t, mult = strings.TrimSpace(rest), u.mult
			break
		}
	}
	x, err := strconv.ParseFloat(t, 64)
	switch {
	case err != nil || math.IsNaN(x) || strings.ContainsAny(t, "xXpP_") || strings.EqualFold(t, "inf") || strings.EqualFold(t, "+inf"):
		return 0, errors.New("want a size such as 512MiB or 4GiB")
	case !(x*mult >= 1):
		return 0, errors.New("must be at least 1 byte")
	case x*mult >= 1<<63:
		return 0, errors.New("must be below 8 EiB")
	}
	return int64(x * mult), nil
}

// FormatBytes returns n in binary units with one decimal: "512 B",
// "3.2 MiB", "1.5 TiB".
func FormatBytes(n int64) string {
	const units = "KMGTPE"
	if n < 1024 {
		return fmt.Sprintf("%d B", n)
	}
	x, i := float64(n)/1024, 0
	for x >= 1024 && i < len(units)-1 {
		x /= 1024
		i++
	}
	return fmt.Sprintf("%.1f %ciB", x, units[i])
}

// sizeValue is a size flag's value: 0 means not given.
type sizeValue int64

func (v *sizeValue) Set(s string) error {
	n, err := ParseSize(s)
	if err != nil {
		return err
	}
	*v = sizeValue(n)
	return nil
}
func (v *sizeValue) String() string {
	if *v == 0 {
		return ""
	}
	return FormatBytes(int64(*v))
}
func (v *sizeValue) Get() any { return int64(*v) }
