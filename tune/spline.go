package tune

// Spline is a K-knot linear spline annealing path (§4 "Spline annealing
// path family"): knots φ_0 = (1, 0), φ_1, …, φ_K = (0, 1) in the
// (η0, η1) plane and, for t in [(k-1)/K, k/K],
//
//	η(t) = (k - K t) φ_{k-1} + (K t - k + 1) φ_k.
//
// K = 1 is the linear path η(t) = (1-t, t).
type Spline struct {
	knots [][2]float64
}

// NewSpline returns the K-knot spline equal to the linear path: φ_k =
// (1 - k/K, k/K). K must be at least 1.
func NewSpline(numKnots int) *Spline {
	if numKnots < 1 {
		panic("tune: spline needs at least one segment")
	}
	s := &Spline{knots: make([][2]float64, numKnots+1)}
	for k := range s.knots {
		u := float64(k) / float64(numKnots)
		s.knots[k] = [2]float64{1 - u, u}
	}
	s.knots[0] = [2]float64{1, 0}
	s.knots[numKnots] = [2]float64{0, 1}
	return s
}

// K returns the number of segments of the spline.
func (s *Spline) K() int { return len(s.knots) - 1 }

// Knots returns a copy of the knots φ_0 … φ_K.
func (s *Spline) Knots() [][2]float64 { return append([][2]float64(nil), s.knots...) }

// segment returns k in 1..K with t in [(k-1)/K, k/K] and the weight
// w = K t - k + 1 of φ_k (φ_{k-1} has weight 1 - w).
func (s *Spline) segment(t float64) (k int, w float64) {
	numKnots := len(s.knots) - 1
	x := t * float64(numKnots)
	k = int(x) + 1
	if k > numKnots {
		k = numKnots
	}
	if k < 1 {
		k = 1
	}
	return k, x - float64(k-1)
}

// Eta returns η(t) = (η0(t), η1(t)).
func (s *Spline) Eta(t float64) (eta0, eta1 float64) {
	if t >= 1 {
		return 0, 1
	}
	if t <= 0 {
		return 1, 0
	}
	k, w := s.segment(t)
	a, b := s.knots[k-1], s.knots[k]
	return (1-w)*a[0] + w*b[0], (1-w)*a[1] + w*b[1]
}
