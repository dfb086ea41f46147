//go:build race

package batch

func init() { raceEnabled = true }
