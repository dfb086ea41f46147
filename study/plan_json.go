package study

import (
	"encoding/json"
	"io"
)

// WritePlan writes the plan as indented JSON: the data from which a
// merge checks that shards belong to one study, and reads their cells.
func WritePlan(w io.Writer, p *Plan) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(p)
}

// ReadPlan reads a plan that WritePlan wrote.
func ReadPlan(r io.Reader) (*Plan, error) {
	p := new(Plan)
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(p); err != nil {
		return nil, err
	}
	return p, nil
}
