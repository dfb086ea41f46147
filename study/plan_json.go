package study

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
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

// Fingerprint returns the SHA-256 (hex) of the plan's canonical JSON
// (encoding/json of the value: fields in declaration order, map keys
// sorted): a manifest records it, and a merge refuses shards whose plans
// differ in anything, whatever produced them. It fails only for a plan
// that JSON cannot hold (a parameter that is NaN or infinite).
func (p *Plan) Fingerprint() (string, error) {
	b, err := json.Marshal(p)
	if err != nil {
		return "", fmt.Errorf("study: plan %q: %w", p.Name, err)
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:]), nil
}
