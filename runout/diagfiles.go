package runout

import (
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/diag"
)

// essNote says how the per-replicate ESS ("ess") and the multi-chain one
// ("ess_bulk") differ.
const essNote = "ess is each replicate's batch-means estimate from its own draws; it cannot see a replicate that is stuck and overstates the ESS when the draws mix slowly. ess_bulk and ess_tail are over all replicates, with the replicates as the chains (Vehtari et al. 2021): trust them."

// AddJSON adds the diagnostics' fields to a run's summary object.
func (r *Diagnostics) AddJSON(out map[string]any) {
	k := len(r.Sums)
	rhat, bulk, tail, mcse := make([]any, k), make([]any, k), make([]any, k), make([]any, k)
	quant, errs := make([]any, k), make([]any, k)
	for i, s := range r.Sums {
		errs[i] = ErrText(r.Errs[i])
		if r.Errs[i] != nil {
			continue
		}
		rhat[i], bulk[i], tail[i], mcse[i] = Num(s.Rhat), Num(s.ESSBulk), Num(s.ESSTail), Num(s.MCSE)
		quant[i] = Nums(s.Quantiles[:])
	}
	out["rhat"], out["ess_bulk"], out["ess_tail"], out["mcse"], out["quantiles"] = rhat, bulk, tail, mcse, quant
	out["quantile_levels"] = Nums(diag.Probabilities[:])
	out["diagnostics_errors"] = errs
	out["se_per_replicate"], out["se_between_replicates"] = Nums(r.PerRep), Nums(r.Between)
	out["warnings"] = append([]string{}, r.Warnings...)
	out["ess_note"] = essNote
}

// WriteCSV writes diagnostics.csv to path: one row per observable.
func (r *Diagnostics) WriteCSV(path string) error {
	rows := [][]string{{"observable", "rhat", "rhat_bulk", "rhat_tail", "ess_bulk", "ess_tail", "mean", "sd", "mcse",
		"q05", "q50", "q95", "se_per_replicate", "se_between_replicates", "replicates", "draws_per_replicate", "error"}}
	for k, s := range r.Sums {
		row := []string{r.Names[k]}
		if r.Errs[k] != nil {
			row = append(row, "", "", "", "", "", "", "", "", "", "", "")
		} else {
			for _, x := range []float64{s.Rhat, s.BulkRhat, s.TailRhat, s.ESSBulk, s.ESSTail, s.Mean, s.SD, s.MCSE,
				s.Quantiles[0], s.Quantiles[1], s.Quantiles[2]} {
				row = append(row, FullFloat(x))
			}
		}
		n := 0
		if len(r.Draws[k]) > 0 {
			n = len(r.Draws[k][0])
		}
		msg, _ := ErrText(r.Errs[k]).(string)
		row = append(row, FullFloat(r.PerRep[k]), FullFloat(r.Between[k]), strconv.Itoa(len(r.Draws[k])), strconv.Itoa(n), msg)
		rows = append(rows, row)
	}
	return WriteCSV(path, rows)
}

// DrawsFromSamples reads the draws the diagnostics of a run keep from its
// samples.csv at path: the first MaxDiagObservables observables, each
// replicate's thinned to DiagMaxDraws as batch.Diagnostics thins them.
func DrawsFromSamples(path string) ([][][]float64, error) {
	draws, err := ReadSampleDraws(path, MaxDiagObservables)
	if err != nil {
		return nil, err
	}
	for k := range draws {
		for b, x := range draws[k] {
			draws[k][b] = batch.KeepDraws(x, DiagMaxDraws)
		}
	}
	return draws, nil
}

// ReadSampleDraws reads samples.csv (`replicate,iteration,x0,…`) at path
// into draws per observable (the first max) and replicate, replicates in
// increasing order.
func ReadSampleDraws(path string, max int) ([][][]float64, error) {
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
		if err := addSampleRow(byRep, rec, k); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
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

// addSampleRow appends the first k observables of the row rec to its
// replicate's draws.
func addSampleRow(byRep map[int][][]float64, rec []string, k int) error {
	b, err := strconv.Atoi(rec[0])
	if err != nil {
		return fmt.Errorf("replicate %q: %w", rec[0], err)
	}
	if byRep[b] == nil {
		byRep[b] = make([][]float64, k)
	}
	for i := 0; i < k; i++ {
		x, err := strconv.ParseFloat(rec[2+i], 64)
		if err != nil {
			return err
		}
		byRep[b][i] = append(byRep[b][i], x)
	}
	return nil
}
