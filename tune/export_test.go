package tune

// Exported for the external tests (package tune_test), which cannot be in
// package tune because they import internal/gaussexact, which imports tune.
var (
	Laplacian    = laplacian
	ProjectKnots = projectKnots
)
