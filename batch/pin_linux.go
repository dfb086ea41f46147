//go:build linux

package batch

import (
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// pinOrder returns the CPUs to pin workers to, interleaving NUMA nodes so
// that consecutive workers (which own consecutive blocks) spread over the
// nodes evenly; it reads /sys/devices/system/node and falls back to the
// process's allowed CPUs as one node.
func pinOrder() []int {
	var allowed unix.CPUSet
	if err := unix.SchedGetaffinity(0, &allowed); err != nil {
		return nil
	}
	nodes := numaNodes()
	if len(nodes) == 0 {
		nodes = [][]int{nil}
		for c := 0; c < 1024; c++ {
			nodes[0] = append(nodes[0], c)
		}
	}
	var perNode [][]int
	for _, cpus := range nodes {
		var ok []int
		for _, c := range cpus {
			if allowed.IsSet(c) {
				ok = append(ok, c)
			}
		}
		if len(ok) > 0 {
			perNode = append(perNode, ok)
		}
	}
	var out []int
	for i := 0; ; i++ {
		added := false
		for _, cpus := range perNode {
			if i < len(cpus) {
				out = append(out, cpus[i])
				added = true
			}
		}
		if !added {
			return out
		}
	}
}

// numaNodes reads the CPU list of every NUMA node.
func numaNodes() [][]int {
	dirs, _ := filepath.Glob("/sys/devices/system/node/node[0-9]*")
	sort.Strings(dirs)
	var nodes [][]int
	for _, d := range dirs {
		data, err := os.ReadFile(filepath.Join(d, "cpulist"))
		if err != nil {
			continue
		}
		nodes = append(nodes, parseCPUList(strings.TrimSpace(string(data))))
	}
	return nodes
}

// parseCPUList parses a kernel CPU list such as "0-3,8,10-11".
func parseCPUList(s string) []int {
	var out []int
	for _, part := range strings.Split(s, ",") {
		if part == "" {
			continue
		}
		lo, hi, found := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			continue
		}
		b := a
		if found {
			if b, err = strconv.Atoi(hi); err != nil {
				continue
			}
		}
		for c := a; c <= b; c++ {
			out = append(out, c)
		}
	}
	return out
}

// pinThread locks the calling goroutine to its OS thread and that thread
// to cpu. The goroutine stays locked until it exits.
func pinThread(cpu int) error {
	runtime.LockOSThread()
	var set unix.CPUSet
	set.Set(cpu)
	return unix.SchedSetaffinity(0, &set)
}
