package cliflag

import (
	"errors"
	"fmt"
	"os"
)

// ErrHelp is returned by Parse and Finish after the help was printed on
// request (-h, --help).
var ErrHelp = errors.New("help requested")

// Error is a refusal of the command line, one line.
type Error struct {
	// Flag is the flag refused, without dashes, or "" when the refusal
	// names no flag (an argument left over).
	Flag string
	// Value is the flag's value as the line shows it: as typed, quoted
	// for a string flag; "" when the refusal names no value.
	Value string
	// Why says what is wrong.
	Why string
	// line is the whole message.
	line string
}

// Error returns the line, such as "invalid --chains 1: need at least 2
// chains".
func (e *Error) Error() string { return e.line }

// invalid returns the refusal "invalid --name shown: why".
func invalid(name, shown, why string) *Error {
	return &Error{Flag: name, Value: shown, Why: why, line: fmt.Sprintf("invalid --%s %s: %s", name, shown, why)}
}

// refusal returns a refusal of flag name (or of no flag) whose line is
// why itself.
func refusal(name, why string) *Error { return &Error{Flag: name, Why: why, line: why} }

// PathReason returns the reason of the *os.PathError in err's chain as
// "op path: reason", without the wrapping around it, or err when there is
// none.
func PathReason(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s %s: %w", pe.Op, pe.Path, pe.Err)
	}
	return err
}
