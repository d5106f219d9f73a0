package cards

import (
	"fmt"
	"strings"
)

// Foundations are the eight foundations of a double deck that are built up
// in suit from ace to king, two per suit (Cromwell, Limited, Ladder). Entry
// 2s and 2s+1 hold the top ranks of suit s's two foundations (0 for empty);
// the two of a suit are interchangeable, so the higher is always kept first,
// which makes equal positions equal values.
type Foundations [8]uint8

// Fits reports whether c goes onto one of its suit's foundations: one shows
// the rank below c's (an empty one takes an ace).
func (f *Foundations) Fits(c Card) bool {
	s, r := 2*suitOf[c], rankOf[c]-1
	return f[s] == r || f[s+1] == r
}

// Why says why c does not go onto a foundation, or returns nil if it does.
// The reason is formatted only when its Error method is called: a property
// checker asks about every action id and reads few of the answers.
func (f *Foundations) Why(c Card) error {
	if f.Fits(c) {
		return nil
	}
	return &misfit{f: *f, c: c}
}

// misfit is the reason a card does not fit the foundations f.
type misfit struct {
	f Foundations
	c Card
}

// Error says why the card does not fit.
func (e *misfit) Error() string {
	c, s := e.c, e.c.Suit()
	hi, lo := e.f[2*s], e.f[2*s+1]
	switch {
	case c.Rank() == Ace:
		return fmt.Sprintf("%v cannot go home: both %v foundations are already started", c, s)
	case hi == 0:
		return fmt.Sprintf("%v cannot start a foundation: only an ace can", c)
	}
	return fmt.Sprintf("%v does not fit: the %v foundations show %s and %s", c, s, rankWord(hi), rankWord(lo))
}

func rankWord(r uint8) string {
	if r == 0 {
		return "nothing"
	}
	return Rank(r).String()
}

// Put places c, which must fit, on its suit's foundation.
func (f *Foundations) Put(c Card) {
	s, r := 2*suitOf[c], rankOf[c]
	if f[s] == r-1 {
		f[s] = r
	} else {
		f[s+1] = r
	}
	if f[s] < f[s+1] {
		f[s], f[s+1] = f[s+1], f[s]
	}
}

// Set sets suit s's two foundations to top ranks a and b (0 for empty), for
// tests and tools.
func (f *Foundations) Set(s Suit, a, b Rank) {
	f[2*s], f[2*s+1] = uint8(max(a, b)), uint8(min(a, b))
}

// Count returns the number of cards on the foundations.
func (f *Foundations) Count() int {
	n := 0
	for _, r := range f {
		n += int(r)
	}
	return n
}

// Top returns the top card of foundation i (0..7), or None.
func (f *Foundations) Top(i int) Card {
	if f[i] == 0 {
		return None
	}
	return New(Suit(i/2), Rank(f[i]))
}

// Observe writes the eight top cards as card codes into dst[:8].
func (f *Foundations) Observe(dst []uint8) {
	for i := range f {
		dst[i] = uint8(f.Top(i))
	}
}

// AppendCards appends every card on the foundations to dst.
func (f *Foundations) AppendCards(dst []Card) []Card {
	for i, r := range f {
		for k := Rank(1); k <= Rank(r); k++ {
			dst = append(dst, New(Suit(i/2), k))
		}
	}
	return dst
}

// SuitKey returns the XOR of keys[i*14 + top] over suit s's two foundations:
// games keep a Zobrist hash up to date by XORing it out before Put and in
// after. keys must hold 8*14 entries.
func (f *Foundations) SuitKey(keys []uint64, s Suit) uint64 {
	i := 2 * int(s)
	return keys[i*14+int(f[i])] ^ keys[(i+1)*14+int(f[i+1])]
}

// PutKey places c, which must fit, on its suit's foundation (Put), and
// returns how the foundations' key changed (SuitKey before XOR after), for
// a game to XOR into its Zobrist hash.
func (f *Foundations) PutKey(c Card, keys []uint64) uint64 {
	s := c.Suit()
	before := f.SuitKey(keys, s)
	f.Put(c)
	return before ^ f.SuitKey(keys, s)
}

// Key returns the XOR of SuitKey over the four suits.
func (f *Foundations) Key(keys []uint64) uint64 {
	var h uint64
	for s := range NumSuits {
		h ^= f.SuitKey(keys, Suit(s))
	}
	return h
}

// String draws the foundations on one line, suit by suit: " 3♣  A♣   --♦ --♦ ...".
func (f *Foundations) String() string {
	var sb strings.Builder
	for s := range NumSuits {
		if s > 0 {
			sb.WriteString("  ")
		}
		for k := range 2 {
			if top := f.Top(2*s + k); top == None {
				sb.WriteString(" --" + Suit(s).Symbol())
			} else {
				fmt.Fprintf(&sb, " %3s", top)
			}
		}
	}
	return sb.String()
}
