package main

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestSolveLimitsMemory: solve sets the runtime's soft memory limit to the
// tables --memory promises plus the stated overhead, unless GOMEMLIMIT is
// set.
func TestSolveLimitsMemory(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	t.Setenv("GOMEMLIMIT", "")
	limitMemory(2, 64)
	if got, want := debug.SetMemoryLimit(-1), int64(2*(64+8)+solveOverheadMiB-solveProgramMiB)<<20; got != want {
		t.Errorf("limit %d, want %d", got, want)
	}
	debug.SetMemoryLimit(math.MaxInt64)
	t.Setenv("GOMEMLIMIT", "1GiB")
	limitMemory(2, 64)
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("with GOMEMLIMIT set, the limit became %d", got)
	}
}
