package env

import (
	"fmt"
	"testing"
)

func TestReasonfReadsAsErrorf(t *testing.T) {
	for _, c := range []struct {
		format string
		args   []any
	}{
		{"row %d is empty", []any{3}},
		{"no card goes on %v: it needs a %v", []any{"Q♥", "J"}},
		{"plain", nil},
	} {
		if got, want := Reasonf(c.format, c.args...).Error(), fmt.Errorf(c.format, c.args...).Error(); got != want {
			t.Errorf("Reasonf(%q) = %q, fmt.Errorf gives %q", c.format, got, want)
		}
	}
}
