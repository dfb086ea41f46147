package runout

import (
	"encoding/json"
	"fmt"
)

// SetParams sets the model's parameters of the settings (Params), each
// JSON-encoded, replacing those there were; the map is empty, not nil,
// for a model without parameters. It fails for a value that JSON cannot
// hold, such as NaN, naming its parameter.
func (s *Settings) SetParams(params map[string]any) error {
	s.Params = make(map[string]json.RawMessage, len(params))
	for k, v := range params {
		b, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("setting %s: %w", k, err)
		}
		s.Params[k] = b
	}
	return nil
}
