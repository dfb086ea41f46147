package batch

import (
	"cmp"
	"slices"
)

// sortByReplicate sorts a statistic's observers by their block's first
// replicate, for output in replicate order that does not depend on the
// order in which the workers created them.
func sortByReplicate[T any](obs []T, info func(T) BlockInfo) {
	slices.SortFunc(obs, func(a, b T) int {
		return cmp.Compare(info(a).FirstReplicate, info(b).FirstReplicate)
	})
}

// numReplicates returns the number of the run's replicates the observers
// hold: one past the last replicate of the last block.
func numReplicates[T any](obs []T, info func(T) BlockInfo) int {
	r := 0
	for _, o := range obs {
		r = max(r, info(o).FirstReplicate+info(o).Replicates)
	}
	return r
}
