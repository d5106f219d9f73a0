package ladder

import (
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	rules "github.com/patience-gym/patience/env/ladder"
)

// Narrow leaves out, in the solver's limited passes, the moves of a row's
// cards onto or into another row that uncover nothing of use: the row
// they leave keeps cards, and its new outer card neither goes home nor
// takes a card that could move onto it now (from another row's run or
// the waste). Such a move only shifts a run from one row to another, and
// a search that tries every one of them wanders among positions that
// differ only in where the runs lie. A win may still need one (to make
// room for a card that comes later), so the unlimited pass, which proves
// a deal lost, tries them all (solver.Narrower).
func (g *Position) Narrow(line []int, m *env.Mask) {
	if g.use&Shifts == 0 {
		return
	}
	found := g.Foundations()
	var wtop cards.Card
	if w := g.Waste(); len(w) > 0 {
		wtop = w[len(w)-1]
	}
	for a := m.Next(rules.ActBuild); a >= 0 && a < rules.ActWaste; a = m.Next(a + 1) {
		s, k := g.source(a)
		row := g.Row(s)
		if k >= len(row) {
			continue // the row empties
		}
		u := row[len(row)-1-k]
		if found.Fits(u) || g.canTake(u, s, wtop) {
			continue
		}
		m.Unset(a)
	}
}

// source returns the row a move of a row's cards onto or into another row
// takes its cards from, and how many it takes.
func (g *Position) source(a int) (s, k int) {
	if a < rules.ActEmpty {
		s, d := (a-rules.ActBuild)/rules.NumRows, (a-rules.ActBuild)%rules.NumRows
		row, dest := g.Row(s), g.Row(d)
		return s, int(dest[len(dest)-1].Rank()) - int(row[len(row)-1].Rank())
	}
	p := (a - rules.ActEmpty) / rules.MaxRun
	return p / rules.NumRows, (a-rules.ActEmpty)%rules.MaxRun + 1
}

// canTake reports whether a card that could move now (the waste's top, or
// a card of the run at the outer end of a row other than s) goes onto u.
func (g *Position) canTake(u cards.Card, s int, wtop cards.Card) bool {
	if u.Rank() == cards.Ace {
		return false
	}
	fits := func(c cards.Card) bool { return c.Rank()+1 == u.Rank() && c.Red() != u.Red() }
	if wtop != cards.None && fits(wtop) {
		return true
	}
	for r := range rules.NumRows {
		if r == s {
			continue
		}
		row := g.Row(r)
		for i := len(row) - 1; i >= 0; i-- {
			if fits(row[i]) {
				return true
			}
			if i == 0 || !(row[i].Rank()+1 == row[i-1].Rank() && row[i].Red() != row[i-1].Red()) {
				break
			}
		}
	}
	return false
}
