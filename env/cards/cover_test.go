package cards

import "testing"

// TestCover: the nearest copy and both copies of a card, with copies added
// in any order, a card with one copy added, and one with none.
func TestCover(t *testing.T) {
	var v Cover
	v.Reset()
	h5, s2, c9 := MustParse("5H"), MustParse("2S"), MustParse("9C")
	v.Add(h5, 4)
	v.Add(s2, 3)
	v.Add(h5, 1)
	for _, c := range []struct {
		card          Card
		nearest, both int
	}{{h5, 1, 5}, {s2, 3, 3}, {c9, 0, 0}} {
		if got := v.Nearest(c.card); got != c.nearest {
			t.Errorf("Nearest(%v) = %d, want %d", c.card, got, c.nearest)
		}
		if got := v.Both(c.card); got != c.both {
			t.Errorf("Both(%v) = %d, want %d", c.card, got, c.both)
		}
	}
	v.Reset()
	if v.Both(h5) != 0 {
		t.Error("Reset kept a copy")
	}
}
