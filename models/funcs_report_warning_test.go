package models

import "testing"

// TestProposalWarning checks the warning line of ProposalCounts: none
// without a scan all invalid, and otherwise the totals, the count of
// (replicate, chain, scan) all invalid (those listed and those dropped)
// and the first listed, values chosen to be told apart.
func TestProposalWarning(t *testing.T) {
	if w := (ProposalCounts{Proposals: 10, Invalid: 3}).Warning(); w != "" {
		t.Errorf("no scan all invalid: %q, want none", w)
	}
	c := ProposalCounts{Proposals: 1000, Invalid: 70, Warnings: []ProposalWarning{{Replicate: 2, Chain: 5, Scan: 7}, {Replicate: 3, Chain: 1, Scan: 9}}, Dropped: 4}
	want := "warning: 70 of 1000 proposals had a NaN or -Inf log density; at 6 (replicate, chain, scan) all did, the first at replicate 2, chain 5, scan 7"
	if w := c.Warning(); w != want {
		t.Errorf("Warning() = %q, want %q", w, want)
	}
}
