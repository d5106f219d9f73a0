package solver

import (
	"unsafe"

	"github.com/patience-gym/patience/solver/internal/prefetch"
)

// table is the transposition table: the set of positions the search has
// visited, keyed by the game's 64-bit full-state hash. Memory is bounded: the
// table has a fixed number of buckets of four entries, and a full bucket
// makes room by evicting its least recently used entry (the LRU replacement
// of Solvitaire's cache, approximated per bucket). Positions on the current
// search path are pinned and never evicted, so cycles are always detected; a
// position evicted once fully searched may be searched again, which costs
// time but never correctness.
//
// An entry stores the whole 64-bit hash and, as a second check, the
// position's progress, so two positions are taken for one only if both
// agree.
type table struct {
	buckets []bucket
	mask    uint64 // len(buckets) - 1
	gen     uint8  // entries of another generation are empty
	clock   uint32 // advances at every insert and hit, for LRU
	// overflow holds pinned keys that found no room in their bucket (all
	// four entries pinned): a path position is never forgotten. It is
	// almost always empty.
	overflow map[uint64]struct{}
	// pathOnly makes unpin forget the position (the search without a
	// table, where only the path is remembered).
	pathOnly bool
	used     int // entries filled in this generation
}

type entry struct {
	key   uint64
	stamp uint32
	check uint16
	gen   uint8
	// allow packs the pin flag (bit 7) and the slack the position was
	// searched with (bits 0-6; see Solver).
	allow uint8
}

const pinBit = 0x80

type bucket [4]entry

// TableBytes returns the bytes of a transposition table of 2^bits entries
// (Options.TableBits), as New allocates it.
func TableBytes(bits int) uint64 { return tableBytes(bits) }

// tableBytes returns the bytes newTable(bits) allocates.
func tableBytes(bits int) uint64 {
	return uint64(1) << max(bits-2, 0) * uint64(unsafe.Sizeof(bucket{}))
}

// newTable returns a table of 2^bits entries (at least one bucket).
func newTable(bits int) *table {
	n := 1 << max(bits-2, 0)
	b := make([]bucket, n)
	adviseHugePages(b)
	return &table{buckets: b, mask: uint64(n - 1), gen: 1}
}

// reset empties the table for a new search without touching its memory
// (a new generation), clearing it only when the generations wrap.
func (t *table) reset() {
	t.gen++
	if t.gen == 0 {
		clear(t.buckets)
		t.gen = 1
	}
	clear(t.overflow)
	t.used = 0
}

// prefetch asks for the bucket of key to be brought into the cache, ahead
// of a has or insert of that key.
func (t *table) prefetch(key uint64) {
	prefetch.Line(unsafe.Pointer(&t.buckets[key&t.mask]))
}

// has reports whether the position (key, check) is in the table, searched
// with a slack of at least slack (or pinned: on the path), and marks it
// recently used.
func (t *table) has(key uint64, check uint16, slack uint8) bool {
	b := &t.buckets[key&t.mask]
	for i := range b {
		e := &b[i]
		if e.gen == t.gen && e.key == key && e.check == check {
			t.clock++
			e.stamp = t.clock
			return e.allow&pinBit != 0 || e.allow >= slack
		}
	}
	if len(t.overflow) > 0 {
		_, ok := t.overflow[key]
		return ok
	}
	return false
}

// insert adds a position searched with the given slack, pinned if pin is
// set, and returns false if it was there already with at least that slack
// (or pinned).
func (t *table) insert(key uint64, check uint16, slack uint8, pin bool) bool {
	b := &t.buckets[key&t.mask]
	t.clock++
	victim := -1
	var age uint32
	for i := range b {
		e := &b[i]
		if e.gen != t.gen {
			if victim < 0 || age != ^uint32(0) {
				victim, age = i, ^uint32(0) // an empty entry beats any
			}
			continue
		}
		if e.key == key && e.check == check {
			e.stamp = t.clock
			if e.allow&pinBit != 0 || e.allow >= slack {
				return false
			}
			e.allow = slack
			if pin {
				e.allow |= pinBit
			}
			return true
		}
		if e.allow&pinBit == 0 {
			if a := t.clock - e.stamp; victim < 0 || a > age {
				victim, age = i, a
			}
		}
	}
	if victim < 0 {
		if pin {
			if t.overflow == nil {
				t.overflow = map[uint64]struct{}{}
			}
			t.overflow[key] = struct{}{}
		}
		return true
	}
	e := &b[victim]
	if e.gen != t.gen {
		t.used++
	}
	a := slack
	if pin {
		a |= pinBit
	}
	*e = entry{key: key, stamp: t.clock, check: check, gen: t.gen, allow: a}
	return true
}

// unpin releases a path position: it may now be evicted, or, in a
// path-only table, it is forgotten.
func (t *table) unpin(key uint64, check uint16) {
	b := &t.buckets[key&t.mask]
	for i := range b {
		e := &b[i]
		if e.gen == t.gen && e.key == key && e.check == check {
			e.allow &^= pinBit
			if t.pathOnly {
				e.gen = 0
				t.used--
			}
			return
		}
	}
	delete(t.overflow, key)
}
