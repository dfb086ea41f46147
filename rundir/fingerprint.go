package rundir

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
)

// ErrFingerprint is wrapped by the error of a manifest whose fingerprint
// is not that of the configuration it records (an edited manifest).
var ErrFingerprint = errors.New("its fingerprint is not that of its configuration")

// Canonical returns the canonical JSON of a command's configuration: what
// encoding/json writes for it (struct fields in declaration order, map
// keys sorted, floats in their shortest exact form), so that equal
// configurations give equal bytes whatever flags or code built them. It
// fails for a value JSON cannot hold (a NaN, a channel).
func Canonical(config any) (json.RawMessage, error) {
	b, err := json.Marshal(config)
	if err != nil {
		return nil, fmt.Errorf("rundir: configuration: %w", err)
	}
	return b, nil
}

// Fingerprint returns the SHA-256 (hex) of command and the canonical
// JSON of its configuration (Canonical; whitespace, such as a manifest's
// indentation, is removed first): what Manifest.Fingerprint holds for a
// manifest that records its configuration.
func Fingerprint(command string, config json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, config); err != nil {
		b.Reset()
		b.Write(config) // not JSON: hashed as it is, and so refused by CheckFingerprint
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\n", command)
	h.Write(b.Bytes())
	return hex.EncodeToString(h.Sum(nil))
}

// SetConfig records config in m as data (Manifest.Config, its canonical
// JSON) and sets m.Fingerprint from it and m.Command: the fingerprint then
// comes from the configuration itself, not from the text of the
// arguments that chose it.
func (m *Manifest) SetConfig(config any) error {
	c, err := Canonical(config)
	if err != nil {
		return err
	}
	m.Config, m.Fingerprint = c, Fingerprint(m.Command, c)
	return nil
}

// CheckFingerprint returns an error wrapping ErrFingerprint when m
// records a configuration whose fingerprint is not m.Fingerprint, and nil
// when it records none (a manifest fingerprinted otherwise, such as a
// study's by its plan.json).
func (m *Manifest) CheckFingerprint() error {
	if m.Config == nil {
		return nil
	}
	if Fingerprint(m.Command, m.Config) != m.Fingerprint {
		return ErrFingerprint
	}
	return nil
}

// SettingsAreConfig reports whether m records no Settings, or Settings
// whose canonical form is its configuration: the fingerprint of a
// configuration that is a map of settings, which a command records as
// both (Settings for the record, Config as data).
func (m *Manifest) SettingsAreConfig() bool {
	if m.Settings == nil {
		return true
	}
	c, err := Canonical(m.Settings)
	return err == nil && Fingerprint(m.Command, c) == m.Fingerprint
}
