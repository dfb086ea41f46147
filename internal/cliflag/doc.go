// Package cliflag is the flag set of ptbatch's subcommands: a flag.FlagSet
// that remembers the text of every flag as the user typed it (so that
// messages show "1e-400", not the 0 it parses to), refuses a flag given
// twice, turns the flag package's errors into one-line refusals that name
// the flag with two dashes (*Error), reads integers in decimal only, reads
// memory sizes such as 4GiB, and prints help in definition order under
// section headings, with --flag and each default once.
//
// It is internal (STYLE.md's internal/ row) because only the project's
// commands use it: a Go program that imports the library configures runs
// with batch.Config and the study packages, not with command-line text.
package cliflag
