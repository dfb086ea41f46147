package tune

import (
	"math"
	"math/rand/v2"
	"testing"
)

func mustSetKnots(t *testing.T, s *Spline, knots [][2]float64) {
	t.Helper()
	if err := s.SetKnots(knots); err != nil {
		t.Fatal(err)
	}
}

func TestNewSplineLinear(t *testing.T) {
	for _, numKnots := range []int{1, 2, 3, 7} {
		s := NewSpline(numKnots)
		for _, x := range []float64{-0.5, 0, 0.1, 1.0 / 3, 0.5, 0.99, 1, 2} {
			e0, e1 := s.Eta(x)
			u := math.Min(math.Max(x, 0), 1)
			if math.Abs(e0-(1-u)) > 1e-15 || math.Abs(e1-u) > 1e-15 {
				t.Errorf("K=%d Eta(%v) = (%v, %v), want (%v, %v)", numKnots, x, e0, e1, 1-u, u)
			}
		}
	}
}

// TestSegmentMatchesEta checks that Segment's weights reproduce Eta, the
// property the gradient's chain rule ∂η(t)/∂φ relies on.
func TestSegmentMatchesEta(t *testing.T) {
	s := NewSpline(4)
	mustSetKnots(t, s, [][2]float64{{1, 0}, {0.4, 0.05}, {0.1, 0.2}, {0.05, 0.6}, {0, 1}})
	knots := s.Knots()
	for i := -2; i <= 42; i++ {
		x := float64(i) / 40
		k, w := s.Segment(x)
		e0, e1 := s.Eta(x)
		f0 := (1-w)*knots[k-1][0] + w*knots[k][0]
		f1 := (1-w)*knots[k-1][1] + w*knots[k][1]
		if k < 1 || k > 4 || w < 0 || w > 1 || math.Abs(e0-f0) > 1e-15 || math.Abs(e1-f1) > 1e-15 {
			t.Errorf("t=%v: Segment (%d, %v) gives (%v, %v), Eta (%v, %v)", x, k, w, f0, f1, e0, e1)
		}
	}
}

func TestSetKnotsValidation(t *testing.T) {
	s := NewSpline(2)
	bad := [][][2]float64{
		{{1, 0}, {0, 1}},                         // count
		{{1, 0.1}, {0.5, 0.5}, {0, 1}},           // first endpoint
		{{1, 0}, {0.5, 0.5}, {0, 0.9}},           // last endpoint
		{{1, 0}, {0, 0.5}, {0, 1}},               // zero component
		{{1, 0}, {-0.1, 0.5}, {0, 1}},            // negative
		{{1, 0}, {math.NaN(), 0.5}, {0, 1}},      // NaN
		{{1, 0}, {0.5, math.Inf(1)}, {0, 1}},     // Inf
		{{1, 0}, {0.5, 0.5}, {0.2, 0.8}, {0, 1}}, // count
	}
	for _, k := range bad {
		if err := s.SetKnots(k); err == nil {
			t.Errorf("SetKnots(%v) accepted", k)
		}
	}
	if err := s.SetKnots([][2]float64{{1, 0}, {2, 0.5}, {0, 1}}); err != nil {
		t.Errorf("non-monotone but positive knots rejected: %v", err)
	}
}

// TestStepAdagradArithmetic checks the scaled Adagrad step on a hand
// example (K = 3, lr = 0.1). First step, G = 0:
//
//	g = (0.5, -0.2, 0, 1),  φ = (0.6, 0.3, 0.3, 0.6)
//	g̃ = g/(|g|+φ) = (0.5/1.1, -0.4, 0, 0.625)
//	G = g̃²,  θ' = log φ - 0.1 g̃/sqrt(g̃² + 1e-8)
//
// and the second step adds to G.
func TestStepAdagradArithmetic(t *testing.T) {
	s := NewSpline(3)
	mustSetKnots(t, s, [][2]float64{{1, 0}, {0.6, 0.3}, {0.3, 0.6}, {0, 1}})
	phi := []float64{0.6, 0.3, 0.3, 0.6}
	g1 := []float64{0.5, -0.2, 0, 1}
	gt1 := []float64{0.5 / 1.1, -0.4, 0, 0.625}
	want := make([]float64, 4)
	acc := make([]float64, 4)
	for c := range want {
		acc[c] = gt1[c] * gt1[c]
		want[c] = phi[c] * math.Exp(-0.1*gt1[c]/math.Sqrt(acc[c]+1e-8))
	}
	s.Step(g1, 0.1)
	got := flatInterior(s)
	for c := range want {
		if math.Abs(got[c]-want[c]) > 1e-15*want[c] {
			t.Fatalf("step 1 component %d: got %v, want %v", c, got[c], want[c])
		}
	}
	// Hand values of the first step: 0.6 e^{-0.1}, 0.3 e^{0.1}, 0.3, 0.6 e^{-0.1}
	// (|g̃|/sqrt(g̃² + 1e-8) = 1 up to 1e-7).
	hand := []float64{0.6 * math.Exp(-0.1), 0.3 * math.Exp(0.1), 0.3, 0.6 * math.Exp(-0.1)}
	for c := range hand {
		if math.Abs(got[c]-hand[c]) > 1e-7 {
			t.Errorf("step 1 component %d: got %v, hand value %v", c, got[c], hand[c])
		}
	}
	g2 := []float64{-0.1, 0.3, 0.2, 0}
	for c := range want {
		gt := g2[c] / (math.Abs(g2[c]) + want[c])
		acc[c] += gt * gt
		want[c] *= math.Exp(-0.1 * gt / math.Sqrt(acc[c]+1e-8))
	}
	s.Step(g2, 0.1)
	got = flatInterior(s)
	for c := range want {
		if math.Abs(got[c]-want[c]) > 1e-14*want[c] {
			t.Errorf("step 2 component %d: got %v, want %v", c, got[c], want[c])
		}
	}
	// SetKnots clears the accumulator: the same first step again.
	mustSetKnots(t, s, [][2]float64{{1, 0}, {0.6, 0.3}, {0.3, 0.6}, {0, 1}})
	s.Step(g1, 0.1)
	if got := flatInterior(s); math.Abs(got[0]-hand[0]) > 1e-7 {
		t.Errorf("after SetKnots: %v, want %v", got[0], hand[0])
	}
}

func flatInterior(s *Spline) []float64 {
	var out []float64
	k := s.Knots()
	for _, p := range k[1 : len(k)-1] {
		out = append(out, p[0], p[1])
	}
	return out
}

// TestStepRepairCrafted checks the monotone repair on crafted knots (a zero
// gradient leaves θ unchanged, so Step only repairs). Component η0 is
// 1, 0.8, 0.9, 0.4, 0.5, 0: the greedy walk keeps 1, 0.8, 0.4, 0 and puts
// the dropped 0.9 and 0.5 back at 0.6 and 0.2, evenly between their kept
// neighbours. Component η1 is 0, 0.1, 0.3, 0.2, 0.9, 1: it keeps 0, 0.1,
// 0.3, 0.9, 1 and puts 0.2 back at 0.6.
func TestStepRepairCrafted(t *testing.T) {
	s := NewSpline(5)
	mustSetKnots(t, s, [][2]float64{{1, 0}, {0.8, 0.1}, {0.9, 0.3}, {0.4, 0.2}, {0.5, 0.9}, {0, 1}})
	s.Step(make([]float64, 8), 0.2)
	want := [][2]float64{{1, 0}, {0.8, 0.1}, {0.6, 0.3}, {0.4, 0.6}, {0.2, 0.9}, {0, 1}}
	checkKnots(t, s, want, 1e-15)

	// Out of the endpoint bounds: η0 = 1.5 > 1 and η1 = 1.2 > 1 are
	// dropped; two dropped in a row are spaced evenly (thirds).
	mustSetKnots(t, s, [][2]float64{{1, 0}, {1.5, 0.3}, {0.6, 1.2}, {0.7, 1.1}, {0.3, 0.9}, {0, 1}})
	s.Step(make([]float64, 8), 0.2)
	want = [][2]float64{{1, 0}, {0.8, 0.3}, {0.6, 0.5}, {0.45, 0.7}, {0.3, 0.9}, {0, 1}}
	checkKnots(t, s, want, 1e-15)

	// Everything dropped: the linear path.
	mustSetKnots(t, s, [][2]float64{{1, 0}, {2, 3}, {2, 3}, {2, 3}, {2, 3}, {0, 1}})
	s.Step(make([]float64, 8), 0.2)
	checkKnots(t, s, NewSpline(5).Knots(), 1e-15)
}

func checkKnots(t *testing.T, s *Spline, want [][2]float64, tol float64) {
	t.Helper()
	got := s.Knots()
	for k := range want {
		for i := 0; i < 2; i++ {
			if math.Abs(got[k][i]-want[k][i]) > tol {
				t.Fatalf("knots %v, want %v", got, want)
			}
		}
	}
}

// TestStepRandomInvariants runs random large steps and checks after each:
// endpoints fixed, components in (0, 1], η0 non-increasing, η1
// non-decreasing, and no two consecutive knots equal.
func TestStepRandomInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		numKnots := 2 + rng.IntN(9)
		s := NewSpline(numKnots)
		grad := make([]float64, 2*(numKnots-1))
		for step := 0; step < 20; step++ {
			for c := range grad {
				grad[c] = rng.NormFloat64() * math.Pow(10, 4*rng.Float64()-2)
			}
			s.Step(grad, 0.2+2*rng.Float64())
			k := s.Knots()
			if k[0] != [2]float64{1, 0} || k[numKnots] != [2]float64{0, 1} {
				t.Fatalf("endpoints moved: %v", k)
			}
			for j := 1; j <= numKnots; j++ {
				if j < numKnots && !(k[j][0] > 0 && k[j][0] <= 1 && k[j][1] > 0 && k[j][1] <= 1) {
					t.Fatalf("knot %d out of (0, 1]: %v", j, k)
				}
				if k[j][0] > k[j-1][0] || k[j][1] < k[j-1][1] {
					t.Fatalf("not monotone at %d: %v", j, k)
				}
				if k[j] == k[j-1] {
					t.Fatalf("knots %d and %d coincide: %v", j-1, j, k)
				}
			}
		}
	}
}

func TestStepKOneAndNonFinite(t *testing.T) {
	s := NewSpline(1)
	s.Step(nil, 0.2)
	checkKnots(t, s, [][2]float64{{1, 0}, {0, 1}}, 0)

	s = NewSpline(3)
	before := s.Knots()
	s.Step([]float64{1, math.NaN(), 0, 0}, 0.2)
	s.Step([]float64{1, math.Inf(-1), 0, 0}, 0.2)
	checkKnots(t, s, before, 0)
	// The Adagrad state is untouched too: the next finite step is a first
	// step (|Δθ| = lr).
	s.Step([]float64{1, 0, 0, 0}, 0.2)
	if got, want := s.Knots()[1][0], before[1][0]*math.Exp(-0.2); math.Abs(got-want) > 1e-8 {
		t.Errorf("after ignored steps: %v, want %v", got, want)
	}
}

func TestStepAllocs(t *testing.T) {
	s := NewSpline(4)
	grad := []float64{0.1, -0.2, 0.3, -0.1, 0.2, 0.05}
	if n := testing.AllocsPerRun(100, func() { s.Step(grad, 0.01) }); n != 0 {
		t.Errorf("Step allocates %v times", n)
	}
}

// TestEtaSegmentsMatchesEtaSegment checks that etaSegmentsStrided writes
// Eta's and Segment's bits, and EtaStrided Eta's (and nothing between its
// strides),
// for every t: random ones in and beyond [0, 1], the knots, the ends, NaN
// and the infinities.
func TestEtaSegmentsMatchesEtaSegment(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 6))
	for trial := range 200 {
		s := NewSpline(1 + trial%6)
		for k := 1; k < s.K(); k++ {
			s.knots[k] = [2]float64{rng.Float64(), rng.Float64()}
		}
		sched := []float64{0, 1, math.Copysign(0, -1), -0.5, 1.5, math.NaN(), math.Inf(1), math.Inf(-1), math.Nextafter(1, 0)}
		for k := 0; k <= s.K(); k++ {
			sched = append(sched, float64(k)/float64(s.K()))
		}
		for range 20 {
			sched = append(sched, rng.Float64()*1.2-0.1)
		}
		const stride = 3
		eta, seg, w := make([]float64, 2*stride*len(sched)), make([]int, stride*len(sched)), make([]float64, stride*len(sched))
		s.etaSegmentsStrided(eta[1:], eta[stride*len(sched):], seg[2:], w[2:], stride, sched)
		eta0, eta1 := make([]float64, stride*len(sched)), make([]float64, stride*len(sched))
		s.EtaStrided(eta0[1:], eta1[1:], stride, sched)
		for n, x := range sched {
			e0, e1 := s.Eta(x)
			k, wk := s.Segment(x)
			i := n * stride
			if !sameBits(eta[i+1], e0) || !sameBits(eta[stride*len(sched)+i], e1) || seg[i+2] != k || !sameBits(w[i+2], wk) {
				t.Fatalf("K=%d, t=%v: etaSegmentsStrided (%v, %v, %d, %v), Eta and Segment (%v, %v, %d, %v)",
					s.K(), x, eta[i+1], eta[stride*len(sched)+i], seg[i+2], w[i+2], e0, e1, k, wk)
			}
			if i := n*stride + 1; !sameBits(eta0[i], e0) || !sameBits(eta1[i], e1) || eta0[i-1] != 0 || eta1[i+1] != 0 {
				t.Fatalf("K=%d, t=%v: EtaStrided (%v, %v), Eta (%v, %v)", s.K(), x, eta0[i], eta1[i], e0, e1)
			}
		}
	}
}

// TestStepLanesIsStep checks that StepLanes leaves every spline as Step
// on its own gradient leaves it, bit for bit (knots and Adagrad sums),
// over 30 steps of 1 to 8 splines with K = 1 … 6: gradients of many scales,
// now and then a lane's with a non-finite component (that spline must be
// left alone), learning rates from 0.01 to ones whose steps overflow, and
// knots pushed to the repair's cases.
func TestStepLanesIsStep(t *testing.T) {
	const L = 8
	rng := rand.New(rand.NewPCG(71, 72))
	for trial := range 60 {
		numKnots, n := 1+trial%6, 1+trial%L
		free := 2 * (numKnots - 1)
		lanes, alone := make([]*Spline, n), make([]*Spline, n)
		for j := range lanes {
			lanes[j] = NewSpline(numKnots)
			alone[j] = NewSpline(numKnots)
		}
		lr := []float64{0.01, 0.2, 1, 5, 800}[trial%5]
		grad := make([]float64, free*L)
		scratch := make([]float64, 2*free*L)
		skipped := 0
		for step := 0; step < 30; step++ {
			for i := range grad {
				grad[i] = math.Ldexp(rng.NormFloat64(), rng.IntN(16)-8)
			}
			if free > 0 && rng.IntN(4) == 0 {
				grad[rng.IntN(free)*L+rng.IntN(n)] = []float64{math.NaN(), math.Inf(1), math.Inf(-1)}[rng.IntN(3)]
				skipped++
			}
			StepLanes(lanes, grad, lr, scratch)
			for j, s := range alone {
				g := make([]float64, free)
				for c := range g {
					g[c] = grad[c*L+j]
				}
				s.Step(g, lr)
			}
			for j := range lanes {
				got, want := lanes[j], alone[j]
				for k := range want.knots {
					for i := 0; i < 2; i++ {
						if math.Float64bits(got.knots[k][i]) != math.Float64bits(want.knots[k][i]) {
							t.Fatalf("trial %d step %d spline %d: knot %d[%d] = %v, Step's %v", trial, step, j, k, i, got.knots[k][i], want.knots[k][i])
						}
					}
				}
				for c := range want.accum {
					if math.Float64bits(got.accum[c]) != math.Float64bits(want.accum[c]) {
						t.Fatalf("trial %d step %d spline %d: sum %d = %v, Step's %v", trial, step, j, c, got.accum[c], want.accum[c])
					}
				}
			}
		}
		if numKnots > 1 && skipped == 0 {
			t.Errorf("trial %d: no lane's gradient was non-finite", trial)
		}
	}
}

// TestStepLanesRefusesBadInput checks StepLanes' panics: more splines
// than lanes, splines of different K, and rows or scratch of the wrong
// size; and that it does not allocate.
func TestStepLanesRefusesBadInput(t *testing.T) {
	const L = 8
	four := func() *Spline { return NewSpline(4) }
	grad, scratch := make([]float64, 6*L), make([]float64, 12*L)
	cases := []struct {
		name    string
		splines []*Spline
		grad    []float64
		scratch []float64
	}{
		{"nine splines", []*Spline{four(), four(), four(), four(), four(), four(), four(), four(), four()}, grad, scratch},
		{"mixed K", []*Spline{four(), NewSpline(3)}, grad, scratch},
		{"short gradient", []*Spline{four()}, grad[:6*L-1], scratch},
		{"short scratch", []*Spline{four()}, grad, scratch[:12*L-1]},
	}
	for _, c := range cases {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", c.name)
				}
			}()
			StepLanes(c.splines, c.grad, 0.2, c.scratch)
		}()
	}
	splines := []*Spline{four(), four(), four()}
	if a := testing.AllocsPerRun(100, func() { StepLanes(splines, grad, 0.2, scratch) }); a != 0 {
		t.Errorf("StepLanes allocates %v times", a)
	}
}
