package rundir

import "testing"

// TestSettingDiff checks the name SettingDiff gives of the first
// differing setting, in key order, for each way two settings differ.
func TestSettingDiff(t *testing.T) {
	for _, c := range []struct {
		a, b map[string]string
		want string
	}{
		{map[string]string{"dim": "4", "seed": "1"}, map[string]string{"dim": "8", "seed": "2"}, "--dim (4 and 8)"}, // dim sorts first
		{map[string]string{"dim": "4"}, map[string]string{"dim": "4", "chains": "9"}, "--chains (set in one only)"},
		{map[string]string{"knots": "4"}, map[string]string{}, "--knots (set in one only)"},
		{map[string]string{"dim": "4"}, map[string]string{"dim": "4"}, "their fingerprints"},
	} {
		if got := SettingDiff(c.a, c.b); got != c.want {
			t.Errorf("SettingDiff(%v, %v) = %q, want %q", c.a, c.b, got, c.want)
		}
	}
}

// TestArgDiff checks the name ArgDiff gives of the first differing
// argument for each way two argument lists differ.
func TestArgDiff(t *testing.T) {
	for _, c := range []struct {
		a, b []string
		want string
	}{
		{[]string{"--dim=4", "--seed=1"}, []string{"--dim=4", "--seed=2"}, "--seed (1 and 2)"},
		{[]string{"--dim=4"}, []string{"--chains=9"}, "--dim=4 and --chains=9"},
		{[]string{"--dim=4"}, []string{"--dim=4", "--seed=2"}, "one list is longer"},
		{[]string{"--dim=4"}, []string{"--dim=4"}, "none"},
	} {
		if got := ArgDiff(c.a, c.b); got != c.want {
			t.Errorf("ArgDiff(%q, %q) = %q, want %q", c.a, c.b, got, c.want)
		}
	}
}
