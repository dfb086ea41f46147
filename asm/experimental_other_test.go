//go:build purego || !amd64

package asm

// experimentalImpl: no experimental kernels outside amd64 assembly builds.
func experimentalImpl() (Impl, bool) { return Impl{}, false }
