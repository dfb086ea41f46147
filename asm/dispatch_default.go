//go:build purego || !amd64

package asm

// HasAVX512 and HasAVX2 are false: this build has no assembly.
const (
	HasAVX512 = false
	HasAVX2   = false
)

var impls = []Impl{Generic}
