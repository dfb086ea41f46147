package rundir

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
)

// ManifestName is the manifest of every output directory.
const ManifestName = "manifest.json"

// ManifestFormat is the version of manifest.json's layout: 2 records a
// FileSum per file (format 1 recorded the lengths of appended files).
const ManifestFormat = 2

// Manifest describes what an output directory holds: which command and
// configuration, which build, which share of the work's units, how far
// it got, and the length and SHA-256 of every file written. A merge reads
// it to refuse shards that do not belong together, are not complete, or
// whose files were changed after they were written.
type Manifest struct {
	Format      int    `json:"format"`
	Command     string `json:"command"`
	Version     string `json:"version"`
	Fingerprint string `json:"fingerprint"`
	// Config is the command's configuration as data (SetConfig), when
	// the command records it: the fingerprint is its hash, and a merge
	// checks shards by it. Settings and Args are the settings and the
	// arguments given, for the record.
	Config   json.RawMessage   `json:"config,omitempty"`
	Settings map[string]string `json:"settings"`
	Args     []string          `json:"args"`
	// Shard i of Shards, chosen by ShardSource, computes the units
	// [First, End) of Units; Done of them are written.
	Shard       int    `json:"shard"`
	Shards      int    `json:"shards"`
	ShardSource string `json:"shard_source,omitempty"`
	Unit        string `json:"unit"`
	Units       int    `json:"units"`
	First       int    `json:"first"`
	End         int    `json:"end"`
	Done        int    `json:"done"`
	Complete    bool   `json:"complete"`
	Interrupted bool   `json:"interrupted"`
	// Files are the files written, by name relative to the directory
	// (slash-separated), each as far as it is complete.
	Files          map[string]FileSum `json:"files,omitempty"`
	ElapsedSeconds float64            `json:"elapsed_seconds"`
}

// WriteManifest writes m into the held directory d atomically, with
// every file d recorded since Open added to m.Files (replacing an entry
// of the same name: a resumed command's manifest keeps the files of the
// run it continues until it writes them again).
func (d *Dir) WriteManifest(m *Manifest) error {
	files := d.Files()
	if len(files) > 0 && m.Files == nil {
		m.Files = map[string]FileSum{}
	}
	for name, s := range files {
		m.Files[name] = s
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	_, err = writeAtomic(d.File(ManifestName), func(w io.Writer) error {
		_, err := w.Write(append(b, '\n'))
		return err
	})
	return err
}

// maxManifest bounds what ReadManifest reads: a manifest is a few
// kilobytes, and a large file is not one.
const maxManifest = 64 << 20

// ReadManifest reads dir's manifest, without following a link; the error
// wraps os.ErrNotExist when there is none.
func ReadManifest(dir string) (*Manifest, error) {
	path := filepath.Join(dir, ManifestName)
	fh, err := openRead(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	b, err := io.ReadAll(io.LimitReader(fh, maxManifest+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxManifest {
		return nil, fmt.Errorf("%s: larger than %d bytes, not a manifest", path, maxManifest)
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return &m, nil
}

// VerifyFiles checks every file m records in dir (Verify); the first
// mismatch is returned.
func VerifyFiles(dir string, m *Manifest) error {
	for _, name := range sortedNames(m.Files) {
		if !filepath.IsLocal(filepath.FromSlash(name)) {
			return fmt.Errorf("%s: records the file %q, outside the directory", filepath.Join(dir, ManifestName), name)
		}
		if err := Verify(dir, name, m.Files[name]); err != nil {
			return err
		}
	}
	return nil
}
