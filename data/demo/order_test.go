package demo

import "testing"

// verbose is package state that TestOrderSetsVerbose leaves behind.
var verbose bool

// TestOrderQuietByDefault passes only if it runs before
// TestOrderSetsVerbose: in source order always, shuffled half the time.
func TestOrderQuietByDefault(t *testing.T) {
	if verbose {
		t.Fatal("output is verbose: an earlier test left verbose=true")
	}
}

// TestOrderSetsVerbose changes package state and never restores it.
func TestOrderSetsVerbose(t *testing.T) {
	verbose = true
}
