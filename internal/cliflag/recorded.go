package cliflag

// Recorded returns the flags given, in command-line order, as
// "--name=text" with the text as typed, leaving out the names in skip:
// the command line a run's record keeps as provenance.
func (s *Set) Recorded(skip map[string]bool) []string {
	var out []string
	for _, name := range s.given {
		if !skip[name] {
			out = append(out, "--"+name+"="+s.typed[name])
		}
	}
	return out
}
