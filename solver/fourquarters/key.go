package fourquarters

import (
	"github.com/patience-gym/patience/env/cards"
	rules "github.com/patience-gym/patience/env/fourquarters"
)

// rankKeys are the keys of a rank in each cell, and stockKeys of each
// number of stock cards left, in Key.
var rankKeys, stockKeys = func() (k [rules.NumCells][14]uint64, s [rules.StockSize + 1]uint64) {
	r := cards.NewRand(0xf04a_5eed)
	for i := range k {
		for x := 1; x < 14; x++ {
			k[i][x] = r.Uint64()
		}
	}
	for i := range s {
		s[i] = r.Uint64()
	}
	return k, s
}()

// Key returns the key of g's class (solver.Keyer): the ranks in the cells
// and the number of stock cards left, the suits left out. Without the
// technique RankKeys it is Hash.
//
// Why positions of equal Key play alike: pairs join cards of one rank
// whatever their suits, and nothing else in the rules reads a suit. The
// stock of a search is the stock of its start, drawn from the same end,
// so the number of cards left tells which remain, in which order. Two
// positions with the same ranks in the same cells and the same stock are
// one position with some cards of a rank given other suits, and every
// move of one is a move of the other that leads to positions alike again.
func (g *Position) Key() uint64 {
	if g.use&RankKeys == 0 {
		return g.Hash()
	}
	h := stockKeys[g.StockLeft()]
	for i, c := range g.Cells() {
		if c != cards.None {
			h ^= rankKeys[i][c.Rank()]
		}
	}
	return h
}
