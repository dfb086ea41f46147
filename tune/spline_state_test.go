package tune

import (
	"slices"
	"testing"
)

// TestSplineBinaryRoundTrip takes Adagrad steps on a spline, restores a copy
// from its binary form, and checks that both then take bit-identical steps
// (the accumulator is restored, not only the knots); a spline of another K
// refuses the data.
func TestSplineBinaryRoundTrip(t *testing.T) {
	s := NewSpline(4)
	grads := [][]float64{{0.3, -0.2, 0.1, 0.05, -0.4, 0.2}, {-0.1, 0.3, 0.2, -0.2, 0.1, 0.1}, {0.05, 0.05, -0.3, 0.2, 0.2, -0.1}}
	s.Step(grads[0], 0.3)
	s.Step(grads[1], 0.3)
	data, err := s.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	c := NewSpline(4)
	if err := c.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	fresh := NewSpline(4)
	if err := fresh.SetKnots(s.Knots()); err != nil {
		t.Fatal(err)
	}
	s.Step(grads[2], 0.3)
	c.Step(grads[2], 0.3)
	fresh.Step(grads[2], 0.3)
	if !slices.Equal(c.Knots(), s.Knots()) {
		t.Errorf("restored spline stepped to %v, the original to %v", c.Knots(), s.Knots())
	}
	if slices.Equal(fresh.Knots(), s.Knots()) {
		t.Error("a spline with the knots but not the accumulator steps the same: the test cannot see the accumulator")
	}
	if err := NewSpline(3).UnmarshalBinary(data); err == nil {
		t.Error("a 4-segment spline's data restored into a 3-segment one")
	}
	if err := NewSpline(4).UnmarshalBinary(data[:len(data)-1]); err == nil {
		t.Error("truncated data restored")
	}
}
