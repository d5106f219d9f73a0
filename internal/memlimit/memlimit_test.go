package memlimit

import (
	"errors"
	"math"
	"runtime/debug"
	"strings"
	"testing"
)

func TestCheckRefusesOverTheLimitAndNamesIt(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "1GiB")
	l := Available()
	if l.Bytes > 1<<30 || l.Source == "" {
		t.Fatalf("Available with GOMEMLIMIT 1 GiB: %+v", l)
	}
	// A limit the program sets itself (patience solve does) is not the machine's.
	t.Setenv("GOMEMLIMIT", "")
	old := debug.SetMemoryLimit(1 << 20)
	l = Available()
	debug.SetMemoryLimit(old)
	if l.Bytes <= 1<<20 {
		t.Errorf("Available took debug.SetMemoryLimit's 1 MiB: %+v", l)
	}
	t.Setenv("GOMEMLIMIT", "1GiB")
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

func TestSetLimitAndGOMEMLIMIT(t *testing.T) {
	restore := SetLimit(5 << 20)
	if l := Available(); l.Bytes != 5<<20 || l.Source != "memlimit.SetLimit" {
		t.Errorf("under SetLimit(5 MiB): %+v", l)
	}
	restore()
	if l := Available(); l.Source == "memlimit.SetLimit" {
		t.Errorf("after restore: %+v", l)
	}
	for v, want := range map[string]uint64{"123": 123, "2KiB": 2048, "3MiB": 3 << 20, "1GiB": 1 << 30, "2TiB": 2 << 40, "7B": 7} {
		if got, ok := goMemLimit(v); !ok || got != want {
			t.Errorf("goMemLimit(%q) = %d, %v", v, got, ok)
		}
	}
	for _, v := range []string{"", "off", "x", "-1MiB"} {
		if _, ok := goMemLimit(v); ok {
			t.Errorf("goMemLimit(%q) is a limit", v)
		}
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
