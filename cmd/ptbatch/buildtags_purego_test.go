//go:build purego

package main

// buildTags are the tags of this test binary that the command the tests
// build must have too: under -tags purego the signal and checkpoint tests
// test the purego command, not the assembly one (issue 26, cause 10).
var buildTags = []string{"-tags", "purego"}
