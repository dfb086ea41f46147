package cliflag

import (
	"errors"
	"fmt"
	"strconv"
)

// The values: like the flag package's, with messages that say what is
// wanted.

type stringValue string

// Set refuses an empty value: a job script's unset variable ("--resume
// $CKPT") must not silently mean "no file" (issue 26, cause 6).
func (v *stringValue) Set(s string) error {
	if s == "" {
		return errors.New("empty value; give a value, or leave the flag out for its default")
	}
	*v = stringValue(s)
	return nil
}
func (v *stringValue) String() string { return string(*v) }
func (v *stringValue) Get() any       { return string(*v) }

// The integer flags read decimal only, as sweep's lists do: a leading
// zero is not octal (--seed 010 is 10, not 8), and 0x… is refused.

type intValue int

func (v *intValue) Set(s string) error {
	x, err := strconv.ParseInt(s, 10, strconv.IntSize)
	if err != nil {
		return numError(err, "a whole number")
	}
	*v = intValue(x)
	return nil
}
func (v *intValue) String() string { return strconv.Itoa(int(*v)) }
func (v *intValue) Get() any       { return int(*v) }

type int64Value int64

func (v *int64Value) Set(s string) error {
	x, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return numError(err, "a whole number")
	}
	*v = int64Value(x)
	return nil
}
func (v *int64Value) String() string { return strconv.FormatInt(int64(*v), 10) }
func (v *int64Value) Get() any       { return int64(*v) }

type uint64Value uint64

func (v *uint64Value) Set(s string) error {
	x, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return numError(err, "a whole number from 0 to 18446744073709551615")
	}
	*v = uint64Value(x)
	return nil
}
func (v *uint64Value) String() string { return strconv.FormatUint(uint64(*v), 10) }
func (v *uint64Value) Get() any       { return uint64(*v) }

type float64Value float64

func (v *float64Value) Set(s string) error {
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return errors.New("beyond the range of float64 (about ±1.8e308)")
		}
		return errors.New("want a number")
	}
	*v = float64Value(x)
	return nil
}
func (v *float64Value) String() string { return strconv.FormatFloat(float64(*v), 'g', -1, 64) }
func (v *float64Value) Get() any       { return float64(*v) }

type boolValue bool

func (v *boolValue) Set(s string) error {
	x, err := strconv.ParseBool(s)
	if err != nil {
		return errors.New("want true or false")
	}
	*v = boolValue(x)
	return nil
}
func (v *boolValue) String() string   { return strconv.FormatBool(bool(*v)) }
func (v *boolValue) Get() any         { return bool(*v) }
func (v *boolValue) IsBoolFlag() bool { return true }

// numError turns a strconv error into "want <what>" or "out of range".
func numError(err error, what string) error {
	if errors.Is(err, strconv.ErrRange) {
		return fmt.Errorf("out of range (want %s that fits in 64 bits)", what)
	}
	return fmt.Errorf("want %s", what)
}
