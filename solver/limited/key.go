package limited

import (
	"github.com/patience-gym/patience/env/cards"
	rules "github.com/patience-gym/patience/env/limited"
	"github.com/patience-gym/patience/solver/internal/hashmix"
)

// privKeys are the keys of the privileged cards in Key, by card code (0
// for an empty slot).
var privKeys = func() (k [cards.NumCodes]uint64) {
	r := cards.NewRand(0x11a1_5e1f)
	for c := 1; c < cards.NumCodes; c++ {
		k[c] = r.Uint64()
	}
	return k
}()

// columnKey returns the key of a column's contents in Key: its cards from
// the deepest up and whether the top two form a pair, mixed so that the
// sum of the keys of several columns tells their contents apart.
func columnKey(col []cards.Card, paired bool) uint64 {
	h := uint64(len(col))
	for _, c := range col {
		h = h<<8 | uint64(c)
	}
	if paired {
		h |= 1 << 63
	}
	return hashmix.Mix(h)
}

// Key returns the key of g's class (solver.Keyer): its Hash with the part
// of the columns and of the privileged row replaced by the sum of the
// keys of their contents, so that the order of the columns and of the
// privileged slots does not count.
//
// Why positions of equal Key play alike: nothing in the rules tells the
// columns apart (a card moves onto any column whose top it pairs with, or
// into any space, and the rules never name a column by its number), nor
// the privileged slots (a slot is refilled where it was emptied, and its
// card moves as any other privileged card does; the fifth card may be
// turned when none of them can move, wherever they lie). So two positions
// whose columns hold the same contents in another order, and whose
// privileged rows hold the same cards in another order, are one position
// with its columns and slots renamed, and the renaming maps every move
// onto a move of the same card to the same kind of place. The contents are
// added rather than xored, so that two equal contents do not cancel out.
func (g *Position) Key() uint64 {
	var sum uint64
	for c := range rules.NumCols {
		if col := g.Column(c); len(col) > 0 {
			sum += columnKey(col, g.Paired(c))
		}
	}
	for _, k := range g.PrivilegedRow() {
		sum += privKeys[k]
	}
	return g.Hash() ^ g.TableHash() ^ sum
}
