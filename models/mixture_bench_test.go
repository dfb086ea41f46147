package models

import (
	"fmt"
	"testing"

	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/layout"
)

// BenchmarkMixtureExplore times one Explore of a block (rows slots × 8
// lanes) on the linear path η = (1-t, t) with t spread over the rows, and
// reports ns per sweep per lane (all rows of one replicate) and per
// row-lane.
func BenchmarkMixtureExplore(b *testing.B) {
	benchmarkMixtureExplore(b, 0, "")
}

// BenchmarkMixtureExplorePadding is BenchmarkMixtureExplore for the last
// block of a run of 10 replicates: 2 real lanes and 6 of padding
// (BlockSpec.Padding), which the block skips; the metrics still divide by
// 8 lanes.
func BenchmarkMixtureExplorePadding(b *testing.B) {
	benchmarkMixtureExplore(b, 6, "/padding=6")
}

func benchmarkMixtureExplore(b *testing.B, padding int, suffix string) {
	const rows = 35
	for _, m := range []*Mixture{NewGalaxy(), NewMixture(1)} {
		b.Run(fmt.Sprintf("model=%s/rows=%d%s", m.Name(), rows, suffix), func(b *testing.B) {
			blk := m.NewBlock(BlockSpec{Rows: rows, Padding: padding})
			rng := kernel.NewStream(1, 0)
			n := rows * layout.Lanes
			out := Energies{W0: make([]float64, n), W1: make([]float64, n)}
			eta0, eta1 := make([]float64, n), make([]float64, n)
			for r := 0; r < rows; r++ {
				t := float64(r) / (rows - 1)
				for j := 0; j < layout.Lanes; j++ {
					eta0[r*layout.Lanes+j], eta1[r*layout.Lanes+j] = 1-t, t
				}
			}
			in := testRows(eta0, eta1)
			blk.Init(rng, initRows(rows), out)
			for i := 0; i < 20; i++ { // leave the initial state
				blk.Explore(rng, in, out)
			}
			for b.Loop() {
				blk.Explore(rng, in, out)
			}
			ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
			b.ReportMetric(ns/layout.Lanes, "ns/lane-sweep")
			b.ReportMetric(ns/float64(n), "ns/row-lane")
		})
	}
}
