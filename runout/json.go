package runout

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"

	"github.com/ptbatch/ptbatch/batch"
)

// Num returns x, or nil (JSON null) when x is NaN or infinite.
func Num(x float64) any {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return x
}

// Nums applies Num to every element.
func Nums(xs []float64) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = Num(x)
	}
	return out
}

// NumRows applies Nums to every row.
func NumRows(xs [][]float64) [][]any {
	out := make([][]any, len(xs))
	for i, x := range xs {
		out[i] = Nums(x)
	}
	return out
}

// jsonMeanSE returns the mean of xs and its standard error sd/√n, as JSON
// numbers (nil for NaN, and for the standard error of fewer than two).
func jsonMeanSE(xs []float64) (mean, se any) {
	m, sd := batch.MeanSD(xs)
	if len(xs) < 2 {
		return Num(m), nil
	}
	return Num(m), Num(sd / math.Sqrt(float64(len(xs))))
}

// SummaryLead are the fields a run's summary opens with: the headline
// figures and the warnings; the others follow in the order of their
// names.
var SummaryLead = []string{"tail_round_trip_rate", "tail_round_trip_rate_se", "log_z", "log_z_se", "warnings"}

// EncodeJSON writes out as one indented JSON object, the fields of lead
// first (those present), then the others by name, as encoding/json would
// with SetIndent("", "  ").
func EncodeJSON(w io.Writer, out map[string]any, lead []string) error {
	keys := make([]string, 0, len(out))
	for k := range out {
		if !slices.Contains(lead, k) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var first []string
	for _, k := range lead {
		if _, ok := out[k]; ok {
			first = append(first, k)
		}
	}
	keys = append(first, keys...)
	var b bytes.Buffer
	b.WriteString("{\n")
	for i, k := range keys {
		name, _ := json.Marshal(k)
		v, err := json.MarshalIndent(out[k], "  ", "  ")
		if err != nil {
			return fmt.Errorf("JSON field %s: %w", k, err)
		}
		fmt.Fprintf(&b, "  %s: %s", name, v)
		if i < len(keys)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("}\n")
	_, err := w.Write(b.Bytes())
	return err
}
