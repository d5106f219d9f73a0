package main

import (
	"strings"
	"testing"

	"github.com/patience-gym/patience/internal/memlimit"
)

// solve works out its workers' tables before it makes any and refuses
// them when they do not fit, naming the bytes and the limit.
func TestSolveRefusesTablesOverTheMemory(t *testing.T) {
	defer memlimit.SetLimit(1 << 30)()
	code, _, errs := runCLI(t, "solve", "cromwell", "--workers", "64", "--deals", "100", "--memory", "1024")
	if code == 0 || !strings.Contains(errs, "64 workers × (--memory 1024 + 8) MiB: more memory than is available") || !strings.Contains(errs, "bytes") {
		t.Errorf("64 workers of 1 GiB under a 1 GiB limit: exit %d, %q", code, errs)
	}
}
