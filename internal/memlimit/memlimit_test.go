package memlimit

import (
	"errors"
	"math"
	"runtime/debug"
	"strings"
	"testing"
)

func TestCheckRefusesOverTheLimitAndNamesIt(t *testing.T) {
	old := debug.SetMemoryLimit(1 << 30)
	defer debug.SetMemoryLimit(old)
	l := Available()
	if l.Bytes > 1<<30 || l.Source == "" {
		t.Fatalf("Available with GOMEMLIMIT 1 GiB: %+v", l)
	}
	if err := Check("a test", 1<<20); err != nil {
		t.Errorf("1 MiB under a 1 GiB limit: %v", err)
	}
	err := Check("a vector of 9 things", 3<<30)
	if !errors.Is(err, ErrTooBig) {
		t.Fatalf("3 GiB under a 1 GiB limit: %v", err)
	}
	for _, want := range []string{"a vector of 9 things", "3,221,225,472 bytes (3.0 GiB)", "available"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q lacks %q", err, want)
		}
	}
	if err := Check("overflow", Mul(math.MaxUint64/2, 3)); !errors.Is(err, ErrTooBig) {
		t.Errorf("an overflowing size: %v", err)
	}
}

func TestArithmeticSaturates(t *testing.T) {
	if Mul(1<<40, 1<<30) != math.MaxUint64 || Mul(0, math.MaxUint64) != 0 || Mul(3, 7) != 21 {
		t.Error("Mul")
	}
	if Add(math.MaxUint64, 1) != math.MaxUint64 || Add(2, 3) != 5 {
		t.Error("Add")
	}
	if got := Size(999); got != "999 bytes" {
		t.Errorf("Size(999) = %q", got)
	}
	if got := Size(1536); got != "1,536 bytes (1.5 KiB)" {
		t.Errorf("Size(1536) = %q", got)
	}
}
