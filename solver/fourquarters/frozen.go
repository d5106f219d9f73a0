package fourquarters

import rules "github.com/patience-gym/patience/env/fourquarters"

// frozenDead reports an arm that holds cards and can never change: no two
// of its touching cells hold one rank, and closing up would slide none of
// its cards and bring it no card (it has no gap, and no empty cell while
// the stock has cards). With the stock empty, an arm with gaps and no pair
// is looked at as closing up will leave it, since nothing else can happen
// to it first.
//
// Why it is sound: an arm changes only by a pair removed in it (a pair
// belongs to one arm) and by closing up, which slides its own files and
// refills its own empty cells. Neither can happen to such an arm, so its
// cards stay on the cross for good and the game cannot be won. With the
// stock empty, closing up only slides the files; an arm without a pair
// waits for it, and then is as compact() makes it. In the variant hub,
// where the cells next to the hub pair across arms, the test proves
// nothing.
func (g *Position) frozenDead() bool {
	if g.hub() {
		return false
	}
	stock := g.StockLeft() > 0
	for a := range rules.NumArms {
		r := g.ranksOf(a)
		if r.count() == 0 || r.hasPair() {
			continue
		}
		if r.gaps() == 0 {
			if !stock || r.empties() == 0 {
				return true
			}
			continue
		}
		if !stock {
			if c := r.compact(); !c.hasPair() {
				return true
			}
		}
	}
	return false
}
