package prefetch

import (
	"testing"
	"unsafe"
)

// TestLineIsOnlyAHint: asking for lines changes no memory, and an address
// that is not mapped (nil, the end of a slice) does not fault.
func TestLineIsOnlyAHint(t *testing.T) {
	b := make([]uint64, 1<<16)
	for i := range b {
		b[i] = uint64(i) * 0x9e3779b97f4a7c15
	}
	for i := 0; i < len(b); i += 8 {
		Line(unsafe.Pointer(&b[i]))
	}
	Line(nil)
	Line(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), len(b)*8))
	for i := range b {
		if b[i] != uint64(i)*0x9e3779b97f4a7c15 {
			t.Fatalf("word %d changed", i)
		}
	}
}
