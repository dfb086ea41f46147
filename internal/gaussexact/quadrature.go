package gaussexact

import (
	"math"

	"gonum.org/v1/gonum/integrate/quad"
)

// glOrder is the order of the Gauss–Legendre rule of adaptiveIntegrate.
const glOrder = 12

// glNodes and glWeights are the Gauss–Legendre rule of order glOrder on
// [-1, 1].
var glNodes, glWeights = func() ([]float64, []float64) {
	x := make([]float64, glOrder)
	w := make([]float64, glOrder)
	quad.Legendre{}.FixedLocations(x, w, -1, 1)
	return x, w
}()

// gaussLegendre returns the glOrder-point Gauss–Legendre estimate of
// ∫_a^b f.
func gaussLegendre(f func(float64) float64, a, b float64) float64 {
	c, h := 0.5*(a+b), 0.5*(b-a)
	s := 0.0
	for i, x := range glNodes {
		s += glWeights[i] * f(c+h*x)
	}
	return s * h
}

// Integrate returns ∫_a^b f by adaptiveIntegrate with panels pieces and
// absolute tolerance tol, for the other exact families of internal/.
func Integrate(f func(float64) float64, a, b float64, panels int, tol float64) float64 {
	return adaptiveIntegrate(f, a, b, panels, tol)
}

// adaptiveIntegrate returns ∫_a^b f by adaptive bisection with a
// glOrder-point Gauss–Legendre rule: [a, b] is first cut into panels equal
// pieces, then each piece is halved until the rule on the piece and the sum
// of the rule on its halves agree within the piece's share of tol
// (absolute) or within 1e-12 relative (the rounding noise of the
// integrands here), or the depth limit or the budget of maxRules rule
// applications is reached.
func adaptiveIntegrate(f func(float64) float64, a, b float64, panels int, tol float64) float64 {
	if !(b > a) {
		return 0
	}
	q := adaptive{f: f, budget: maxRules}
	h := (b - a) / float64(panels)
	total := 0.0
	for i := 0; i < panels; i++ {
		lo := a + float64(i)*h
		hi := a + float64(i+1)*h
		if i == panels-1 {
			hi = b
		}
		total += q.step(lo, hi, gaussLegendre(f, lo, hi), tol/float64(panels), 0)
	}
	return total
}

const (
	maxDepth = 48      // bisections of one piece
	maxRules = 1 << 16 // rule applications of one integral
)

type adaptive struct {
	f      func(float64) float64
	budget int
}

func (q *adaptive) step(a, b, whole, tol float64, depth int) float64 {
	m := 0.5 * (a + b)
	left := gaussLegendre(q.f, a, m)
	right := gaussLegendre(q.f, m, b)
	q.budget -= 2
	sum := left + right
	diff := math.Abs(sum - whole)
	if diff <= tol || diff <= 1e-12*(math.Abs(left)+math.Abs(right)) ||
		depth >= maxDepth || q.budget <= 0 || !(m > a && m < b) || math.IsNaN(sum) {
		return sum
	}
	return q.step(a, m, left, 0.5*tol, depth+1) + q.step(m, b, right, 0.5*tol, depth+1)
}
