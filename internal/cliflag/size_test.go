package cliflag

import "testing"

// TestParseSize checks the units (powers of 1000 for kB…TB, of 1024 for
// KiB…TiB and K…T) and the refusals.
func TestParseSize(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
	}{
		{"1", 1}, {"512B", 512}, {"2kB", 2000}, {"2KB", 2000}, {"3MB", 3e6}, {"1GB", 1e9}, {"1TB", 1e12},
		{"1KiB", 1 << 10}, {"512MiB", 512 << 20}, {"4GiB", 4 << 30}, {"2TiB", 2 << 40},
		{"1.5G", 3 << 29}, {" 8 M ", 8 << 20}, {"1K", 1024}, {"1T", 1 << 40},
	} {
		if got, err := ParseSize(c.in); err != nil || got != c.want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
	for _, c := range []struct{ in, why string }{
		{"", "want a size such as 512MiB or 4GiB"},
		{"0x10", "want a size such as 512MiB or 4GiB"},
		{"inf", "want a size such as 512MiB or 4GiB"},
		{"NaN", "want a size such as 512MiB or 4GiB"},
		{"1_000", "want a size such as 512MiB or 4GiB"},
		{"0.5", "must be at least 1 byte"},
		{"-4GiB", "must be at least 1 byte"},
		{"8EB", "want a size such as 512MiB or 4GiB"}, // E is not a unit
		{"8192P", "want a size such as 512MiB or 4GiB"},
		{"8388608TiB", "must be below 8 EiB"}, // 2^23 × 2^40 = 2^63
	} {
		if _, err := ParseSize(c.in); err == nil || err.Error() != c.why {
			t.Errorf("ParseSize(%q): %v, want %q", c.in, err, c.why)
		}
	}
}

// TestFormatBytes checks the binary units and the one decimal.
func TestFormatBytes(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{
		{0, "0 B"}, {1023, "1023 B"}, {1024, "1.0 KiB"}, {3<<20 + 1<<19, "3.5 MiB"},
		{3 << 29, "1.5 GiB"}, {1 << 40, "1.0 TiB"}, {1<<63 - 1, "8.0 EiB"},
	} {
		if got := FormatBytes(c.n); got != c.want {
			t.Errorf("FormatBytes(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}
