package solver

import (
	"errors"
	"strings"
	"testing"

	"github.com/patience-gym/patience/internal/memlimit"
)

// A transposition table too large for the memory available is refused
// before it is allocated, with an error naming the bytes and the limit.
func TestTableTooLargeIsRefused(t *testing.T) {
	defer memlimit.SetLimit(64 << 20)()
	if _, err := New(Options{TableBits: 24}); !errors.Is(err, memlimit.ErrTooBig) || !strings.Contains(err.Error(), "2^24 entries") {
		t.Errorf("a table of 2^24 entries (%d bytes) under a 64 MiB limit: %v", tableBytes(24), err)
	}
	if _, err := New(Options{TableBits: 16}); err != nil {
		t.Errorf("a table of 2^16 entries under a 64 MiB limit: %v", err)
	}
}
