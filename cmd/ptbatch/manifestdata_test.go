package main

import (
	"fmt"
	"io"
	"strings"
	"testing"
)

// dataShard returns shard i of 2 of a command "run" whose flags are args
// and whose configuration, as data, is config (newManifestOf), as a
// complete shard directory's manifest.
func dataShard(t *testing.T, i int, config any, args ...string) shardDir {
	t.Helper()
	var chains, workers int
	c := newCmdFlags("run")
	c.Int(&chains, "chains", 8, "chains")
	c.Int(&workers, "workers", 0, "workers")
	if err := c.parse(args, io.Discard, ""); err != nil {
		t.Fatal(err)
	}
	m, err := newManifestOf("run", config, c, nil, &shard{index: i, count: 2}, "replicate", 10)
	if err != nil {
		t.Fatal(err)
	}
	m.Done, m.Complete = m.End, true
	return shardDir{dir: fmt.Sprintf("shard%d", i), m: m}
}

// TestShardsOnDataIgnoreArguments checks merge's check of shards whose
// manifests record their configuration as data (newManifestOf): shards of
// one configuration agree whatever arguments they record (the flags that
// chose it, here --chains 8 given or left to its default, or an argument
// list edited afterwards); a shard of another configuration is refused as
// such; and a shard whose recorded configuration was edited, so that its
// fingerprint is no longer the configuration's, is refused as edited.
func TestShardsOnDataIgnoreArguments(t *testing.T) {
	type config struct {
		Chains int
		Seed   uint64
	}
	a := dataShard(t, 1, config{8, 1}, "--chains", "8")
	b := dataShard(t, 2, config{8, 1})
	b.m.Args = append(b.m.Args, "--chains=64") // edited: not read
	if err := checkShardPair(a, b); err != nil {
		t.Errorf("one configuration, other arguments: %v", err)
	}
	other := dataShard(t, 2, config{8, 2})
	if err := checkShardPair(a, other); err == nil || !strings.Contains(err.Error(), "different configurations") {
		t.Errorf("another configuration: %v, want a refusal of different configurations", err)
	}
	edited := dataShard(t, 2, config{8, 1})
	edited.m.Config = []byte(`{"Chains":64,"Seed":1}`)
	if err := checkShardPair(a, edited); err == nil || !strings.Contains(err.Error(), "was edited") {
		t.Errorf("an edited configuration: %v, want a refusal as edited", err)
	}
}
