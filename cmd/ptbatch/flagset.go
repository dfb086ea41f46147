package main

import (
	"errors"
	"flag"
	"io"

	"github.com/ptbatch/ptbatch/internal/cliflag"
)

// cmdFlags is a subcommand's flag set (cliflag.Set, whose String, Int,
// Int64, Uint64, Float64, Bool and Size it promotes), whose refusals are
// usage errors (exit status 2).
//
// The fields fs, given and err are what the files that parse
// positional arguments read (merge, reproduce, study): fs is the Set's
// flag.FlagSet; given and err are refreshed by parse and
// finishParse. err stays nil until finishParse; a refused value also makes
// fs.Parse fail, so a test of err next to fs.Parse's error needs it no
// earlier.
type cmdFlags struct {
	*cliflag.Set
	fs    *flag.FlagSet
	given []string // the names given, in command-line order
	err   error    // the first refusal of a flag's value
}

// newCmdFlags returns an empty flag set for subcommand cmd.
func newCmdFlags(cmd string) *cmdFlags {
	s := cliflag.New("ptbatch", cmd)
	return &cmdFlags{Set: s, fs: s.FlagSet()}
}

// usage turns cliflag's refusals into usage errors.
func usage(err error) error {
	var fe *cliflag.Error
	if errors.As(err, &fe) {
		return &usageError{fe.Error()}
	}
	return err
}

// sync copies the Set's record of the flags given into given and err.
func (c *cmdFlags) sync() { c.given, c.err = c.Given(), usage(c.Err()) }

// parse is cliflag.Set.Parse with usage errors.
func (c *cmdFlags) parse(args []string, stdout io.Writer, intro string) error {
	defer c.sync()
	return usage(c.Parse(args, stdout, intro))
}

// finishParse is cliflag.Set.Finish with usage errors.
func (c *cmdFlags) finishParse(err error, stdout io.Writer, intro string) error {
	defer c.sync()
	return usage(c.Finish(err, stdout, intro))
}

func (c *cmdFlags) bad(name, format string, args ...any) error {
	return usage(c.Bad(name, format, args...))
}
func (c *cmdFlags) checkFinite() error             { return usage(c.CheckFinite()) }
func checkOut(c *cmdFlags, name, dir string) error { return usage(c.CheckDir(name, dir)) }
func unwrapPath(err error) error                   { return cliflag.PathReason(err) }
