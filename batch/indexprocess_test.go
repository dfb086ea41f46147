package batch

import (
	"errors"
	"testing"

	"github.com/ptbatch/ptbatch/models"
)

// replicaRecorder is a test Statistic that records View.Replica of every
// chain and replicate after every iteration: rows[b][m-1][n] is the replica
// at chain n of replicate b after iteration m.
type replicaRecorder struct{ rows [][][]int }

func (s *replicaRecorder) NewObserver(info BlockInfo) Observer {
	return &replicaRecObserver{s: s, info: info}
}

type replicaRecObserver struct {
	s    *replicaRecorder
	info BlockInfo
}

func (o *replicaRecObserver) Iterate(v *View) {
	for j := 0; j < o.info.Replicates; j++ {
		row := make([]int, v.Chains())
		for n := range row {
			row[n] = v.Replica(n, j)
		}
		b := o.info.FirstReplicate + j
		o.s.rows[b] = append(o.s.rows[b], row)
	}
}

func (o *replicaRecObserver) EndScan(*View) {}

// TestIndexProcessRecords checks, on a tiny run (7 chains, 11 replicates
// in two blocks, 4 scans of 30 iterations), that IndexProcess writes the
// chain of each followed replica — the position of the replica in
// View.Replica — for exactly the iterations in its window that are
// multiples of Thin, scan by scan and in replicate order, and that what it
// holds in memory when a scan is written is that scan's records only,
// within the bound ⌈min(Window, M)/Thin⌉ per replicate.
func TestIndexProcessRecords(t *testing.T) {
	const chains, reps, iters, scans = 7, 11, 120, 4
	type record struct{ b, m int }
	var got []record
	var chainsOf [][]int
	followed := []int{0, 6, 3}
	ip := &IndexProcess{Replicas: followed, Thin: 3, From: 20, Window: 70}
	rec := &replicaRecorder{rows: make([][][]int, reps)}
	scanOf := func(m int) int { return (m-1)/(iters/scans) + 1 }
	lastScan, flushes := 0, 0
	ip.Write = func(b, m int, c []int) error {
		if s := scanOf(m); s != lastScan {
			// The first record of a scan: everything buffered is this
			// scan's, at most ⌈30/3⌉ = 10 iterations per replicate.
			for _, o := range ip.observers {
				for j := range o.iters {
					for _, mm := range o.iters[j] {
						if scanOf(mm) != s {
							t.Errorf("scan %d: iteration %d still buffered", s, mm)
						}
					}
					if len(o.iters[j]) > 10 || len(o.rows[j]) != len(followed)*len(o.iters[j]) {
						t.Errorf("scan %d: %d iterations, %d chains buffered in a lane", s, len(o.iters[j]), len(o.rows[j]))
					}
				}
			}
			lastScan = s
		}
		got = append(got, record{b, m})
		chainsOf = append(chainsOf, append([]int(nil), c...))
		return nil
	}
	ip.Flush = func() error { flushes++; return nil }
	g, _ := models.NewGaussian(1, -1, 1, 0.3, 0.3)
	cfg := Config{Model: g, Chains: chains, Replicates: reps, Iterations: iters, Scans: scans, TuneSchedule: true, Knots: 1, Seed: 8,
		Statistics: []Statistic{rec, ip}}
	mustRun(t, cfg)
	if flushes != scans {
		t.Errorf("%d flushes, want %d", flushes, scans)
	}
	// Expected order: scan by scan, replicate by replicate, iteration by
	// iteration; iterations 20 ≤ m < 90, multiples of 3.
	var want []record
	for s := 1; s <= scans; s++ {
		for b := 0; b < reps; b++ {
			for m := (s-1)*30 + 1; m <= s*30; m++ {
				if m >= 20 && m < 90 && m%3 == 0 {
					want = append(want, record{b, m})
				}
			}
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d records, want %d", len(got), len(want))
	}
	for i, r := range got {
		if r != want[i] {
			t.Fatalf("record %d: replicate %d iteration %d, want %d, %d", i, r.b, r.m, want[i].b, want[i].m)
		}
		row := rec.rows[r.b][r.m-1]
		for k, replica := range followed {
			if n := chainsOf[i][k]; row[n] != replica {
				t.Fatalf("replicate %d iteration %d: replica %d reported at chain %d, where View.Replica is %d", r.b, r.m, replica, n, row[n])
			}
		}
	}
}

// TestIndexProcessAllReplicasAndErrors checks that nil Replicas follows
// every replica (each chain holds exactly one), and that a replica out of
// range or a missing Write stops the run with an error.
func TestIndexProcessAllReplicasAndErrors(t *testing.T) {
	g, _ := models.NewGaussian(1, -1, 1, 0.3, 0.3)
	const chains = 5
	records := 0
	ip := &IndexProcess{Write: func(b, m int, c []int) error {
		seen := make([]bool, chains)
		for _, n := range c {
			seen[n] = true
		}
		for n, ok := range seen {
			if !ok || len(c) != chains {
				t.Fatalf("replicate %d iteration %d: chains %v, chain %d holds no replica", b, m, c, n)
			}
		}
		records++
		return nil
	}}
	cfg := Config{Model: g, Chains: chains, Replicates: 3, Iterations: 20, Scans: 2, Knots: 1, Seed: 1, Statistics: []Statistic{ip}}
	mustRun(t, cfg)
	if records != 3*20 {
		t.Errorf("%d records, want 60", records)
	}
	for _, bad := range []*IndexProcess{
		{Replicas: []int{chains}, Write: ip.Write},
		{Replicas: []int{-1}, Write: ip.Write},
		{},
	} {
		cfg.Statistics = []Statistic{bad}
		e, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := e.Step(t.Context()); err == nil || errors.Is(err, ErrConfig) {
			t.Errorf("IndexProcess %+v: error %v, want the statistic's", bad, err)
		}
	}
}
