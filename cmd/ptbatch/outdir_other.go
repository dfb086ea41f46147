//go:build !unix

package main

import "os"

// lockFile does nothing where flock is not available: the output
// directory is not protected against a second writer there.
func lockFile(*os.File) error { return nil }

// lockFileShared does nothing where flock is not available.
func lockFileShared(*os.File) error { return nil }
