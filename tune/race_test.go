//go:build race

package tune

func init() { raceEnabled = true }
