package rundir

import (
	"errors"
	"testing"
)

// runConfig stands for a command's configuration as data.
type runConfig struct {
	Model      string
	Chains     int
	Iterations int
	Sigma      float64
	Params     map[string]float64
}

// TestFingerprintFromConfiguration checks that a manifest's fingerprint
// comes from its configuration: two configurations equal as values (maps
// filled in another order) give one fingerprint, any changed field
// another; the fingerprint survives WriteManifest and ReadManifest (whose
// indentation of Config it ignores); editing the recorded arguments and
// settings changes nothing CheckFingerprint sees, and editing the
// configuration or the command is refused with ErrFingerprint.
func TestFingerprintFromConfiguration(t *testing.T) {
	a := runConfig{"gaussian", 8, 400, 0.1, map[string]float64{"mu0": -1, "mu1": 1}}
	b := runConfig{"gaussian", 8, 400, 0.1, map[string]float64{"mu1": 1, "mu0": -1}}
	c := a
	c.Chains = 9
	fp := func(cfg runConfig) string {
		m := &Manifest{Command: "run"}
		if err := m.SetConfig(cfg); err != nil {
			t.Fatal(err)
		}
		return m.Fingerprint
	}
	if fp(a) != fp(b) || fp(a) == fp(c) {
		t.Errorf("fingerprints %s %s %s: want the first two equal and the third other", fp(a), fp(b), fp(c))
	}
	dir := t.TempDir()
	d, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	m := &Manifest{Format: ManifestFormat, Command: "run", Args: []string{"--chains=8"}}
	if err := m.SetConfig(a); err != nil {
		t.Fatal(err)
	}
	if err := d.WriteManifest(m); err != nil {
		t.Fatal(err)
	}
	got, err := ReadManifest(dir)
	if err != nil || got.Fingerprint != fp(a) || got.CheckFingerprint() != nil {
		t.Fatalf("read back: %v, fingerprint %s (want %s), check %v", err, got.Fingerprint, fp(a), got.CheckFingerprint())
	}
	got.Args, got.Settings = []string{"--chains=9"}, map[string]string{"chains": "9"}
	if err := got.CheckFingerprint(); err != nil {
		t.Errorf("edited arguments: %v; the configuration is unchanged", err)
	}
	edited := *got
	edited.Config = []byte(`{"Model":"gaussian","Chains":9,"Iterations":400,"Sigma":0.1,"Params":{"mu0":-1,"mu1":1}}`)
	if err := edited.CheckFingerprint(); !errors.Is(err, ErrFingerprint) {
		t.Errorf("edited configuration: %v, want ErrFingerprint", err)
	}
	edited = *got
	edited.Command = "sweep"
	if err := edited.CheckFingerprint(); !errors.Is(err, ErrFingerprint) {
		t.Errorf("edited command: %v, want ErrFingerprint", err)
	}
}

// TestSettingsAreConfig checks that a manifest whose settings are its
// configuration (both the same map, as sweep records them) passes, one
// without settings passes, and one whose settings were edited does not.
func TestSettingsAreConfig(t *testing.T) {
	set := map[string]string{"dim": "4", "seed": "1"} // a small sweep's settings
	c, err := Canonical(set)
	if err != nil {
		t.Fatal(err)
	}
	m := &Manifest{Command: "sweep", Config: c, Fingerprint: Fingerprint("sweep", c), Settings: set}
	if !m.SettingsAreConfig() {
		t.Error("settings that are the configuration refused")
	}
	if m.Settings = nil; !m.SettingsAreConfig() {
		t.Error("a manifest without settings refused")
	}
	if m.Settings = map[string]string{"dim": "8", "seed": "1"}; m.SettingsAreConfig() {
		t.Error("edited settings (dim 8 for the configuration's 4) accepted")
	}
}
