//go:build !linux

package batch

import "errors"

func pinOrder() []int { return []int{0} }

func pinThread(int) error { return errors.New("CPU pinning is supported on Linux only") }
