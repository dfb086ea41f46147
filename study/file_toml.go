package study

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// A study file is read with go-toml/v2's parser (package unstable), the
// one TOML library that gives the line of every key, also inside arrays of
// tables, so that a refused key is reported at its line.

// tomlValue is one scalar of a study file.
type tomlValue struct {
	kind unstable.Kind // String, Integer, Float or Bool
	text string        // the string, or the number or bool as written
}

// tomlKey is one key of a table with its value, a list for a grid axis.
type tomlKey struct {
	name string
	line int
	vals []tomlValue
	list bool
}

// tomlTable is the [study] table or one [[model]] or [[method]] entry.
type tomlTable struct {
	name string
	line int
	keys []tomlKey
}

// key returns the table's key called name, or nil.
func (t *tomlTable) key(name string) *tomlKey {
	for i := range t.keys {
		if t.keys[i].name == name {
			return &t.keys[i]
		}
	}
	return nil
}

// FileError is a study file refused: the file, the line of the key or
// table at fault (0: the file as a whole), the key ("" when the fault is
// a table's or the file's) and why. ParseFile and Load return it for
// every fault of the file's text.
type FileError struct {
	File string
	Line int
	Key  string
	Why  string
}

// Error returns "FILE:LINE: why", or "FILE: why" without a line.
func (e *FileError) Error() string {
	if e.Line == 0 {
		return e.File + ": " + e.Why
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Why)
}

// fileError is a study file's error at a line (0: none).
func fileError(file string, line int, format string, args ...any) error {
	return &FileError{File: file, Line: line, Why: fmt.Sprintf(format, args...)}
}

// keyError is a study file's error about key at a line.
func keyError(file string, line int, key, format string, args ...any) error {
	return &FileError{File: file, Line: line, Key: key, Why: fmt.Sprintf(format, args...)}
}

// parseStudyTOML reads the tables of a study file: [study] once, and
// [[model]] and [[method]] entries, each a list of keys with scalar or
// list values.
func parseStudyTOML(file string, doc []byte) ([]tomlTable, error) {
	var p unstable.Parser
	p.Reset(doc)
	var tables []tomlTable
	line := func(r unstable.Range) int { return p.Shape(r).Start.Line }
	for p.NextExpression() {
		e := p.Expression()
		keys, kline := dottedKey(e)
		if len(keys) == 0 {
			continue // a comment
		}
		kl := line(kline)
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			name := strings.Join(keys, ".")
			want := map[string]unstable.Kind{"study": unstable.Table, "model": unstable.ArrayTable, "method": unstable.ArrayTable}
			if k, ok := want[name]; !ok || k != e.Kind {
				return nil, fileError(file, kl, "unknown table %q (want [study], [[model]] and [[method]])", name)
			}
			if name == "study" && hasTable(tables, "study") {
				return nil, fileError(file, kl, "a second [study] table")
			}
			tables = append(tables, tomlTable{name: name, line: kl})
		case unstable.KeyValue:
			if len(tables) == 0 {
				return nil, keyError(file, kl, strings.Join(keys, "."), "key %q before any table (start with [study])", strings.Join(keys, "."))
			}
			k, err := keyValue(file, kl, keys, e.Value(), &tables[len(tables)-1])
			if err != nil {
				return nil, err
			}
			t := &tables[len(tables)-1]
			t.keys = append(t.keys, k)
		}
	}
	if err := p.Error(); err != nil {
		return nil, fileError(file, errorLine(doc, err), "%v", oneLine(err.Error()))
	}
	return tables, nil
}

// errorLine returns the line of doc that a parser error highlights, or 0
// when it highlights none of doc.
func errorLine(doc []byte, err error) int {
	var pe *unstable.ParserError
	if !errors.As(err, &pe) || len(pe.Highlight) == 0 {
		return 0
	}
	off := cap(doc) - cap(pe.Highlight)
	if off < 0 || off+len(pe.Highlight) > len(doc) || &doc[off] != &pe.Highlight[0] {
		return 0
	}
	return 1 + bytes.Count(doc[:off], []byte("\n"))
}

// dottedKey returns the parts of an expression's key and the range of its
// first part.
func dottedKey(e *unstable.Node) ([]string, unstable.Range) {
	var parts []string
	var first unstable.Range
	it := e.Key()
	for it.Next() {
		if len(parts) == 0 {
			first = it.Node().Raw
		}
		parts = append(parts, string(it.Node().Data))
	}
	return parts, first
}

// keyValue reads one key = value line of table t.
func keyValue(file string, kl int, keys []string, v *unstable.Node, t *tomlTable) (tomlKey, error) {
	name := strings.Join(keys, ".")
	k := tomlKey{name: name, line: kl}
	if len(keys) > 1 {
		return k, keyError(file, kl, name, "dotted key %q: keys of a study file are plain names", name)
	}
	if t.key(name) != nil {
		return k, keyError(file, kl, name, "key %q given twice in one table", name)
	}
	if v.Kind != unstable.Array {
		s, err := scalar(file, kl, name, v)
		k.vals = []tomlValue{s}
		return k, err
	}
	k.list = true
	it := v.Children()
	for it.Next() {
		s, err := scalar(file, kl, name, it.Node())
		if err != nil {
			return k, err
		}
		k.vals = append(k.vals, s)
	}
	if len(k.vals) == 0 {
		return k, keyError(file, kl, name, "key %q: an empty list", name)
	}
	return k, nil
}

// scalar reads a string, number or bool.
func scalar(file string, kl int, name string, v *unstable.Node) (tomlValue, error) {
	switch v.Kind {
	case unstable.String, unstable.Integer, unstable.Float, unstable.Bool:
		return tomlValue{v.Kind, string(v.Data)}, nil
	}
	return tomlValue{}, keyError(file, kl, name, "key %q: want a string, a number, a bool or a list of them, not a %s", name, v.Kind)
}

// hasTable reports whether tables holds one called name.
func hasTable(tables []tomlTable, name string) bool {
	for _, t := range tables {
		if t.name == name {
			return true
		}
	}
	return false
}

// oneLine joins the lines of an error message.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// number returns a numeric value as float64.
func (v tomlValue) number() (float64, bool) {
	switch v.kind {
	case unstable.Integer:
		n, err := strconv.ParseInt(v.text, 0, 64)
		return float64(n), err == nil
	case unstable.Float:
		x, err := strconv.ParseFloat(strings.ReplaceAll(v.text, "_", ""), 64)
		return x, err == nil && !math.IsNaN(x) && !math.IsInf(x, 0)
	}
	return 0, false
}

// integer returns an integer value.
func (v tomlValue) integer() (int, bool) {
	if v.kind != unstable.Integer {
		return 0, false
	}
	n, err := strconv.ParseInt(v.text, 0, 64)
	return int(n), err == nil && n == int64(int(n))
}
