// Package memlimit refuses an allocation sized by a caller's number (a
// vector's environments, a table's bits, a batch) that cannot fit, before
// anything is allocated: a typo such as 10^8 environments is an error
// naming the bytes and the limit, not a machine driven out of memory.
//
// The limit is the least of the memory the kernel says is available
// (MemAvailable in /proc/meminfo), the room left under the process's
// cgroup limit (memory.max less memory.current, cgroup v2), its
// address-space limit (RLIMIT_AS, ulimit -v) and the Go soft memory limit
// (the GOMEMLIMIT environment variable: a limit the program sets itself
// with debug.SetMemoryLimit, as patience solve does, is its own bound, not
// the machine's) when one is set. Where none of these can be read, the
// limit is Ceiling.
package memlimit

import (
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
)

// Ceiling is the limit where the machine's memory cannot be read (no
// /proc/meminfo, no cgroup, no address-space or Go limit): 64 GiB.
const Ceiling uint64 = 64 << 30

// ErrTooBig is returned (wrapped) by Check for a size over the limit.
var ErrTooBig = errors.New("more memory than is available")

// Limit is a limit and where it comes from.
type Limit struct {
	Bytes  uint64
	Source string // "MemAvailable in /proc/meminfo", "the cgroup's memory.max", ...
}

// Available returns the bytes an allocation may take now: the least of
// the limits the package doc lists.
func Available() Limit {
	best := Limit{Bytes: math.MaxUint64}
	take := func(b uint64, src string) {
		if b < best.Bytes {
			best = Limit{Bytes: b, Source: src}
		}
	}
	if kb, ok := meminfo("MemAvailable"); ok {
		take(kb*1024, "MemAvailable in /proc/meminfo")
	}
	if max, ok := readUint("/sys/fs/cgroup/memory.max"); ok {
		cur, _ := readUint("/sys/fs/cgroup/memory.current")
		room := uint64(0)
		if max > cur {
			room = max - cur
		}
		take(room, "the cgroup's memory.max less memory.current")
	}
	if as, ok := addressSpace(); ok {
		take(as, "the address-space limit (ulimit -v)")
	}
	if gl, ok := goMemLimit(os.Getenv("GOMEMLIMIT")); ok {
		take(gl, "the Go memory limit (GOMEMLIMIT)")
	}
	if o := override.Load(); o > 0 {
		take(o, "memlimit.SetLimit")
	}
	if best.Bytes == math.MaxUint64 {
		best = Limit{Bytes: Ceiling, Source: "memlimit.Ceiling (this machine's memory cannot be read)"}
	}
	return best
}

// override, when not 0, bounds Available (SetLimit).
var override atomic.Uint64

// SetLimit makes Available return at most b bytes until restore is called:
// for a test that needs a machine smaller than the one it runs on.
func SetLimit(b uint64) (restore func()) {
	old := override.Swap(b)
	return func() { override.Store(old) }
}

// goMemLimit parses a GOMEMLIMIT value as the Go runtime does: a number of
// bytes with an optional unit (B, KiB, MiB, GiB, TiB); "off" or "" is none.
func goMemLimit(v string) (uint64, bool) {
	v = strings.TrimSpace(v)
	if v == "" || v == "off" {
		return 0, false
	}
	mult := uint64(1)
	for _, u := range []struct {
		suffix string
		m      uint64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"B", 1}} {
		if strings.HasSuffix(v, u.suffix) {
			v, mult = strings.TrimSuffix(v, u.suffix), u.m
			break
		}
	}
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return 0, false
	}
	return Mul(n, mult), true
}

// Check returns an error wrapping ErrTooBig, naming what, the bytes and
// the limit, when need bytes are more than Available.
func Check(what string, need uint64) error {
	l := Available()
	if need <= l.Bytes {
		return nil
	}
	return fmt.Errorf("%s: %w: it needs %s, and %s are available (%s)", what, ErrTooBig, Size(need), Size(l.Bytes), l.Source)
}

// Mul returns a*b, or math.MaxUint64 when the product overflows (a size
// that large is refused by Check).
func Mul(a, b uint64) uint64 {
	if a != 0 && b > math.MaxUint64/a {
		return math.MaxUint64
	}
	return a * b
}

// Add returns a+b, or math.MaxUint64 when the sum overflows.
func Add(a, b uint64) uint64 {
	if a > math.MaxUint64-b {
		return math.MaxUint64
	}
	return a + b
}

// Size writes a number of bytes for a person: "1,234,567,890 bytes (1.1 GiB)".
func Size(b uint64) string {
	units := []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	human := ""
	f := float64(b)
	for _, u := range units {
		if f < 1024 {
			break
		}
		f /= 1024
		human = fmt.Sprintf(" (%.1f %s)", f, u)
	}
	return group(b) + " bytes" + human
}

// group writes n with a comma every three digits.
func group(n uint64) string {
	s := strconv.FormatUint(n, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// meminfo returns a field of /proc/meminfo, in kB.
func meminfo(field string) (uint64, bool) {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(data), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok || k != field {
			continue
		}
		n, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		return n, err == nil
	}
	return 0, false
}

// readUint reads a file holding one number ("max" is no number).
func readUint(path string) (uint64, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	n, err := strconv.ParseUint(strings.TrimSpace(string(data)), 10, 64)
	return n, err == nil
}
