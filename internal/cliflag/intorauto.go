package cliflag

import (
	"fmt"
	"strconv"
)

// IntOrAuto is the flag.Value of a flag that takes a whole number
// (decimal, as every integer flag) or the word auto: Set stores the
// number in *N and clears *Auto, or sets *Auto and leaves *N; String
// shows "auto" or the number.
type IntOrAuto struct {
	N    *int
	Auto *bool
}

// Set reads "auto" or a decimal whole number.
func (v IntOrAuto) Set(s string) error {
	if s == "auto" {
		*v.Auto = true
		return nil
	}
	x, err := strconv.ParseInt(s, 10, strconv.IntSize)
	if err != nil {
		return fmt.Errorf("want a whole number or auto")
	}
	*v.N, *v.Auto = int(x), false
	return nil
}

// String shows the value: auto, or the number ("" for the zero IntOrAuto).
func (v IntOrAuto) String() string {
	if v.Auto == nil || v.N == nil {
		return ""
	}
	if *v.Auto {
		return "auto"
	}
	return strconv.Itoa(*v.N)
}

// Get returns String's text (flag.Getter).
func (v IntOrAuto) Get() any { return v.String() }
