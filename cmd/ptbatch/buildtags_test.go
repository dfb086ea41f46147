//go:build !purego

package main

// buildTags are the tags of this test binary that the command the tests
// build must have too (none: the assembly build).
var buildTags []string
