package sweep

import (
	"fmt"
	"strconv"
	"strings"
)

// ListError refuses an element of a comma-separated list (Lists): Part,
// as written (spaces trimmed), is not a whole number of its kind
// (NotNumber), or its Value is below Least.
type ListError struct {
	Part      string
	Value     int
	Least     int
	NotNumber bool
}

// Error says what is wrong with the element.
func (e *ListError) Error() string {
	if e.NotNumber {
		return fmt.Sprintf("sweep: %q is not a whole number", e.Part)
	}
	return fmt.Sprintf("sweep: %d is below %d", e.Value, e.Least)
}

// ParseInts parses a comma-separated list of integers of at least least
// each (Lists.Dims, Chains and Knots), and returns them with their texts
// as written, spaces trimmed; a *ListError refuses the first bad one.
func ParseInts(text string, least int) ([]int, []string, error) {
	var out []int
	var texts []string
	for _, part := range strings.Split(text, ",") {
		part = strings.TrimSpace(part)
		v, err := strconv.Atoi(part)
		switch {
		case err != nil:
			return nil, nil, &ListError{Part: part, Least: least, NotNumber: true}
		case v < least:
			return nil, nil, &ListError{Part: part, Value: v, Least: least}
		}
		out, texts = append(out, v), append(texts, part)
	}
	return out, texts, nil
}

// ParseSeeds parses a comma-separated list of seeds (Lists.Seeds), each
// from 0 to 2⁶⁴−1; a *ListError (NotNumber) refuses the first bad one.
func ParseSeeds(text string) ([]uint64, error) {
	var out []uint64
	for _, part := range strings.Split(text, ",") {
		v, err := strconv.ParseUint(strings.TrimSpace(part), 10, 64)
		if err != nil {
			return nil, &ListError{Part: strings.TrimSpace(part), NotNumber: true}
		}
		out = append(out, v)
	}
	return out, nil
}
