//go:build !pathstep

package batch

type sklWorkspace struct{}

func (b *block) pathStep(cfg *Config, j, iters int) {}
