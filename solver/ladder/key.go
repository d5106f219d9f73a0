package ladder

import (
	"github.com/patience-gym/patience/env/cards"
	rules "github.com/patience-gym/patience/env/ladder"
	"github.com/patience-gym/patience/solver/internal/hashmix"
)

// rowCardKeys are the keys of a card at each depth of a row in Key, the
// same for every row.
var rowCardKeys = func() (k [rules.MaxRow][cards.NumCodes]uint64) {
	r := cards.NewRand(0x1add_5eed)
	for i := range k {
		for c := 1; c < cards.NumCodes; c++ {
			k[i][c] = r.Uint64()
		}
	}
	return k
}()

// Key returns the key of g's class (solver.Keyer): its Hash with the rows'
// part replaced by the sum of the keys of their contents, so that the
// order of the rows does not count. Without the technique RowKeys it is
// Hash.
//
// Why positions of equal Key play alike: nothing in the rules tells the
// rows apart. A move names rows by number, but what it may do depends on
// the contents of the rows alone (a card or run goes onto any row whose
// outer card it fits, a run part or the waste or ladder card into any
// empty row; a king at a row's inner end is locked wherever the row is).
// So two positions whose rows hold the same contents in another order are
// one position with its rows renamed, and the renaming maps every move
// onto a move of the same cards to a row of the same contents. The keys
// of the rows are added rather than xored, so that equal rows (two empty
// ones) do not cancel out.
func (g *Position) Key() uint64 {
	if g.use&RowKeys == 0 {
		return g.Hash()
	}
	var sum uint64
	for r := range rules.NumRows {
		row := g.Row(r)
		h := uint64(len(row))
		for i, c := range row {
			h ^= rowCardKeys[i][c]
		}
		sum += hashmix.Mix(h)
	}
	return g.Hash() ^ g.RowsHash() ^ sum
}
