package study

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
	"testing"
)

// TestFingerprint checks that a plan's fingerprint is the SHA-256 of its
// JSON (computed here with encoding/json and crypto/sha256), is the same
// for the plan read back from WritePlan, changes with any field of any
// run (a seed, a model parameter, a method setting, the name), and that a
// plan JSON cannot hold (a NaN parameter) is an error, not a fingerprint.
func TestFingerprint(t *testing.T) {
	p := testPlan()
	fp, err := p.Fingerprint()
	b, _ := json.Marshal(&p)
	h := sha256.Sum256(b)
	if err != nil || fp != hex.EncodeToString(h[:]) {
		t.Fatalf("Fingerprint %q, %v; want the SHA-256 of the plan's JSON %x", fp, err, h)
	}
	var w bytes.Buffer
	if err := WritePlan(&w, &p); err != nil {
		t.Fatal(err)
	}
	q, err := ReadPlan(&w)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := q.Fingerprint(); got != fp {
		t.Errorf("the plan read back has fingerprint %q, want %q", got, fp)
	}
	for name, edit := range map[string]func(*Plan){
		"seed":      func(p *Plan) { p.Runs[3].Seed++ },
		"parameter": func(p *Plan) { p.Runs[0].Model.Values = map[string]float64{"sigma0": 0.2, "sigma1": 0.1} },
		"method":    func(p *Plan) { p.Runs[5].Method.Scans = 20 },
		"name":      func(p *Plan) { p.Name = "another" },
	} {
		e := testPlan()
		edit(&e)
		if got, _ := e.Fingerprint(); got == fp {
			t.Errorf("a plan with another %s has the same fingerprint", name)
		}
	}
	bad := testPlan()
	bad.Runs[0].Model.Values = map[string]float64{"sigma0": math.NaN()}
	if _, err := bad.Fingerprint(); err == nil {
		t.Error("the fingerprint of a plan with a NaN parameter: no error")
	}
}
