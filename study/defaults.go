package study

// DefaultTuning returns the tuning of a method that names none, as a
// study file's [[method]] and `ptbatch run` resolve it: "paper" when the
// method asks for the paper's settings (the reversible algorithm, a
// number of scans or a learning rate given, or the full gradient), which
// only the paper's Algorithm 2 takes, else "auto".
func DefaultTuning(algorithm string, scansGiven, lrGiven bool, gradient string) string {
	if algorithm == "reversible" || scansGiven || lrGiven || gradient == "full" {
		return "paper"
	}
	return "auto"
}

// DefaultPath returns the annealing path of a method that names none:
// the tuned spline with the automatic tuner, the linear path with the
// paper's tuning (its experiments' default).
func DefaultPath(tuning string) string {
	if tuning == "auto" {
		return "spline"
	}
	return "linear"
}
