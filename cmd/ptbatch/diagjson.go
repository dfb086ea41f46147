package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strconv"

	"github.com/ptbatch/ptbatch/diag"
)

// essNote says how the per-replicate ESS ("ess") and the multi-chain one
// ("ess_bulk") differ.
const essNote = "ess is each replicate's batch-means estimate from its own draws; it cannot see a replicate that is stuck and overstates the ESS when the draws mix slowly. ess_bulk and ess_tail are over all replicates, with the replicates as the chains (Vehtari et al. 2021): trust them."

// addJSON adds the diagnostics' fields to the JSON object of `ptbatch run`.
func (r *diagReport) addJSON(out map[string]any) {
	k := len(r.sums)
	rhat, bulk, tail, mcse := make([]any, k), make([]any, k), make([]any, k), make([]any, k)
	quant, errs := make([]any, k), make([]any, k)
	for i, s := range r.sums {
		errs[i] = errText(r.errs[i])
		if r.errs[i] != nil {
			continue
		}
		rhat[i], bulk[i], tail[i], mcse[i] = num(s.Rhat), num(s.ESSBulk), num(s.ESSTail), num(s.MCSE)
		quant[i] = nums(s.Quantiles[:])
	}
	out["rhat"], out["ess_bulk"], out["ess_tail"], out["mcse"], out["quantiles"] = rhat, bulk, tail, mcse, quant
	out["quantile_levels"] = nums(diag.Probabilities[:])
	out["diagnostics_errors"] = errs
	out["se_per_replicate"], out["se_between_replicates"] = nums(r.perRep), nums(r.between)
	out["warnings"] = append([]string{}, r.warnings...)
	out["ess_note"] = essNote
}

// jsonLead are the fields the JSON of `ptbatch run` opens with: the
// headline figures and the warnings; the others follow in the order of
// their names.
var jsonLead = []string{"tail_round_trip_rate", "tail_round_trip_rate_se", "log_z", "log_z_se", "warnings"}

// encodeJSON writes out as one indented JSON object, the fields of lead
// first (those present), then the others by name, as encoding/json would
// with SetIndent("", "  ").
func encodeJSON(w io.Writer, out map[string]any, lead []string) error {
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

// writeCSV writes diagnostics.csv into dir: one row per observable.
func (r *diagReport) writeCSV(path string) error {
	rows := [][]string{{"observable", "rhat", "rhat_bulk", "rhat_tail", "ess_bulk", "ess_tail", "mean", "sd", "mcse",
		"q05", "q50", "q95", "se_per_replicate", "se_between_replicates", "replicates", "draws_per_replicate", "error"}}
	for k, s := range r.sums {
		row := []string{r.names[k]}
		if r.errs[k] != nil {
			row = append(row, "", "", "", "", "", "", "", "", "", "", "")
		} else {
			for _, x := range []float64{s.Rhat, s.BulkRhat, s.TailRhat, s.ESSBulk, s.ESSTail, s.Mean, s.SD, s.MCSE,
				s.Quantiles[0], s.Quantiles[1], s.Quantiles[2]} {
				row = append(row, fullFloat(x))
			}
		}
		n := 0
		if len(r.draws[k]) > 0 {
			n = len(r.draws[k][0])
		}
		msg, _ := errText(r.errs[k]).(string)
		row = append(row, fullFloat(r.perRep[k]), fullFloat(r.between[k]), strconv.Itoa(len(r.draws[k])), strconv.Itoa(n), msg)
		rows = append(rows, row)
	}
	return writeCSV(path, rows)
}

// readSampleDraws reads samples.csv (`replicate,iteration,x0,…`) into
// draws per observable (the first max) and replicate, replicates in
// increasing order.
func readSampleDraws(path string, max int) ([][][]float64, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	rd := csv.NewReader(fh)
	rd.ReuseRecord = true
	head, err := rd.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	k := min(len(head)-2, max)
	byRep := map[int][][]float64{}
	for {
		rec, err := rd.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		b, err := strconv.Atoi(rec[0])
		if err != nil {
			return nil, fmt.Errorf("%s: replicate %q: %w", path, rec[0], err)
		}
		if byRep[b] == nil {
			byRep[b] = make([][]float64, k)
		}
		for i := 0; i < k; i++ {
			x, err := strconv.ParseFloat(rec[2+i], 64)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
			byRep[b][i] = append(byRep[b][i], x)
		}
	}
	reps := make([]int, 0, len(byRep))
	for b := range byRep {
		reps = append(reps, b)
	}
	sort.Ints(reps)
	draws := make([][][]float64, k)
	for i := range draws {
		for _, b := range reps {
			draws[i] = append(draws[i], byRep[b][i])
		}
	}
	return draws, nil
}

// addTable adds the diagnostics' lines to the human table: per observable
// R-hat, bulk- and tail-ESS, the mean ± MCSE and the quantiles, then the
// number of warnings.
func (r *diagReport) addTable(tw io.Writer) {
	for k, s := range r.sums {
		if r.errs[k] != nil {
			fmt.Fprintf(tw, "diagnostics of %s\t%s\n", r.names[k], errText(r.errs[k]))
			continue
		}
		fmt.Fprintf(tw, "diagnostics of %s (%d replicates as chains)\tR-hat %.4f, bulk-ESS %.4g, tail-ESS %.4g of %d draws; mean %.6g ± %.2g (MCSE); 5/50/95%% quantiles %.4g, %.4g, %.4g\n",
			r.names[k], s.Chains, s.Rhat, s.ESSBulk, s.ESSTail, s.Chains*s.Draws, s.Mean, s.MCSE, s.Quantiles[0], s.Quantiles[1], s.Quantiles[2])
	}
	switch n := len(r.warnings); n {
	case 0:
		fmt.Fprintf(tw, "warnings\tnone\n")
	default:
		fmt.Fprintf(tw, "warnings\t%d, on stderr\n", n)
	}
}
