package ladder

import (
	"errors"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
)

// buildsOn reports whether c may lie on on in a row: one rank lower and of the
// other colour (rule 4).
func buildsOn(c, on cards.Card) bool { return c.Rank()+1 == on.Rank() && c.Red() != on.Red() }

// runLen returns the length of the run at the outer end of row r: the
// longest outer stretch descending by one in alternating colours (0 for an
// empty row).
func (g *Game) runLen(r int) int {
	n := int(g.rn[r])
	if n == 0 {
		return 0
	}
	k := 1
	for k < n && buildsOn(g.rows[r][n-k], g.rows[r][n-k-1]) {
		k++
	}
	return k
}

// Legal writes the legal actions into m.
func (g *Game) Legal(m *env.Mask) {
	m.Clear()
	g.legal(m)
}

// AnyLegal reports whether any action is legal (env.AnyLegaler): nearly
// always at once, by the stock.
func (g *Game) AnyLegal() bool { return g.legal(nil) }

// legal sets the legal actions in m, or, when m is nil, returns true as
// soon as it finds one (and false if there is none).
func (g *Game) legal(m *env.Mask) bool {
	if m == nil && (g.sn > 0 || g.ln == 0 && g.wn > 0 && !g.redealt) {
		return true // turning the stock or the redeal, checked last below
	}
	var top [NumRows]cards.Card
	var run, free [NumRows]int // run length; cards that may go into an empty row
	for r := range NumRows {
		n := g.rn[r]
		if n == 0 {
			continue
		}
		c := g.rows[r][n-1]
		top[r] = c
		run[r] = int(g.run[r])
		free[r] = run[r]
		// A whole row never moves into an empty row: that changes nothing
		// but the row's number (and a locked king, rule 6, never moves
		// with its run anyway).
		if run[r] == int(n) {
			free[r]--
		}
		if g.found.Fits(c) {
			if m.Found(ActRowHome + r) {
				return true
			}
		}
	}
	var wtop, ltop cards.Card
	if g.wn > 0 {
		wtop = g.waste[g.wn-1]
		if g.found.Fits(wtop) {
			if m.Found(ActWasteHome) {
				return true
			}
		}
	}
	if g.ln > 0 {
		ltop = g.ladder[g.ln-1]
		if g.found.Fits(ltop) {
			if m.Found(ActLadderHome) {
				return true
			}
		}
	}
	for d := range NumRows {
		t := top[d]
		if t == cards.None {
			for s := range NumRows {
				if free[s] > 0 {
					if m.FoundRange(ActEmpty+MaxRun*(NumRows*s+d), free[s]) {
						return true
					}
				}
			}
			if wtop != cards.None {
				if m.Found(ActWaste + d) {
					return true
				}
			}
			if ltop != cards.None {
				if m.Found(ActLadder + d) {
					return true
				}
			}
			continue
		}
		need := int(t.Rank()) - 1
		for s := range NumRows {
			if s == d || top[s] == cards.None {
				continue
			}
			// The run of s holds the ranks top..top+len-1, colours
			// alternating from the top card's.
			j := need - int(top[s].Rank())
			if j < 0 || j >= run[s] {
				continue
			}
			if (top[s].Red() != (j&1 == 1)) != t.Red() {
				if m.Found(ActBuild + NumRows*s + d) {
					return true
				}
			}
		}
		if wtop != cards.None && buildsOn(wtop, t) {
			if m.Found(ActWaste + d) {
				return true
			}
		}
	}
	if g.sn > 0 {
		if m.Found(ActTurn) {
			return true
		}
	} else if g.ln == 0 && g.wn > 0 && !g.redealt {
		if m.Found(ActRedeal) {
			return true
		}
	}
	return false
}

// decode splits an action id into its first id of range (the kind) and
// operands: a source row s, a destination row d and a card count k.
func decode(a int) (kind, s, d, k int) {
	switch {
	case a < ActWasteHome:
		return ActRowHome, a - ActRowHome, 0, 1
	case a < ActBuild:
		return a, 0, 0, 1
	case a < ActEmpty:
		return ActBuild, (a - ActBuild) / NumRows, (a - ActBuild) % NumRows, 0
	case a < ActWaste:
		p := (a - ActEmpty) / MaxRun
		return ActEmpty, p / NumRows, p % NumRows, (a-ActEmpty)%MaxRun + 1
	case a < ActLadder:
		return ActWaste, 0, a - ActWaste, 1
	case a < ActTurn:
		return ActLadder, 0, a - ActLadder, 1
	}
	return a, 0, 0, 0
}

// Explain says why action a is illegal, or returns nil. It follows the rules
// of docs/rules/ladder.md directly.
func (g *Game) Explain(a int) error {
	if a < 0 || a >= NumActions {
		return env.Reasonf("no such action (the ids are 0..%d)", NumActions-1)
	}
	kind, s, d, k := decode(a)
	switch kind {
	case ActRowHome:
		if g.rn[s] == 0 {
			return env.Reasonf("row %d is empty", s+1)
		}
		return g.found.Why(g.rows[s][g.rn[s]-1])
	case ActWasteHome:
		if g.wn == 0 {
			return errors.New("the waste is empty")
		}
		return g.found.Why(g.waste[g.wn-1])
	case ActLadderHome:
		if g.ln == 0 {
			return errors.New("the ladder is empty")
		}
		return g.found.Why(g.ladder[g.ln-1])
	case ActBuild:
		if s == d {
			return errors.New("a row cannot move onto itself")
		}
		if g.rn[s] == 0 {
			return env.Reasonf("row %d is empty", s+1)
		}
		if g.rn[d] == 0 {
			return env.Reasonf("row %d is empty: say how many cards go into it, like %d>%d:1", d+1, s+1, d+1)
		}
		target := g.rows[d][g.rn[d]-1]
		if target.Rank() == cards.Ace {
			return env.Reasonf("nothing goes on %v: no card ranks below an ace", target)
		}
		// Walk the run at the outer end of s, from the outer card inwards.
		for i := int(g.rn[s]) - 1; i >= 0; i-- {
			c := g.rows[s][i]
			if c.Rank()+1 == target.Rank() && c.Red() != target.Red() {
				return nil
			}
			if i == 0 || !buildsOn(c, g.rows[s][i-1]) {
				break
			}
		}
		return env.Reasonf("no card of the run at the end of row %d goes on %v: it needs a %v of the other colour", s+1, target, target.Rank()-1)
	case ActEmpty:
		if s == d {
			return errors.New("a row cannot move into itself")
		}
		if g.rn[s] == 0 {
			return env.Reasonf("row %d is empty", s+1)
		}
		if g.rn[d] != 0 {
			return env.Reasonf("row %d is not empty: a number of cards is named only for an empty row (play %d>%d)", d+1, s+1, d+1)
		}
		n := int(g.rn[s])
		if k > n {
			return env.Reasonf("row %d has only %d card(s), not %d", s+1, n, k)
		}
		for i := n - k + 1; i < n; i++ {
			if !buildsOn(g.rows[s][i], g.rows[s][i-1]) {
				return env.Reasonf("the last %d cards of row %d are not a run: %v does not go on %v", k, s+1, g.rows[s][i], g.rows[s][i-1])
			}
		}
		if k == n && g.rows[s][0].Rank() == cards.King {
			return env.Reasonf("%v lies at the inner end of row %d: a king there moves only to its foundation", g.rows[s][0], s+1)
		}
		if k == n {
			return env.Reasonf("moving all of row %d into the empty row %d would change nothing but its number", s+1, d+1)
		}
		return nil
	case ActWaste:
		if g.wn == 0 {
			return errors.New("the waste is empty")
		}
		if g.rn[d] == 0 {
			return nil
		}
		return notOn(g.waste[g.wn-1], g.rows[d][g.rn[d]-1])
	case ActLadder:
		if g.ln == 0 {
			return errors.New("the ladder is empty")
		}
		if g.rn[d] != 0 {
			return env.Reasonf("the ladder card goes only to a foundation or into an empty row, and row %d is not empty", d+1)
		}
		return nil
	case ActTurn:
		if g.sn == 0 {
			return errors.New("the stock is empty")
		}
		return nil
	}
	// ActRedeal.
	switch {
	case g.redealt:
		return errors.New("the redeal has been made: the waste is dealt again only once")
	case g.sn > 0:
		return env.Reasonf("the stock still has %d card(s): turn them first", g.sn)
	case g.ln > 0:
		return env.Reasonf("the ladder still has %d card(s): the waste is dealt again only when the stock and the ladder are both exhausted", g.ln)
	case g.wn == 0:
		return errors.New("the waste is empty: there is nothing to deal again")
	}
	return nil
}

// notOn says why c does not go on the outer card on, or returns nil.
func notOn(c, on cards.Card) error {
	if on.Rank() == cards.Ace {
		return env.Reasonf("nothing goes on %v: no card ranks below an ace", on)
	}
	if c.Rank()+1 != on.Rank() || c.Red() == on.Red() {
		return env.Reasonf("%v does not go on %v: it needs a %v of the other colour", c, on, on.Rank()-1)
	}
	return nil
}

// Apply plays legal action a.
func (g *Game) Apply(a int) {
	kind, s, d, k := decode(a)
	switch kind {
	case ActRowHome:
		g.toFoundation(g.popRow(s))
	case ActWasteHome:
		g.toFoundation(g.popWaste())
	case ActLadderHome:
		g.toFoundation(g.popLadder())
	case ActBuild:
		// The destination fixes the run's part that moves.
		k = int(g.rows[d][g.rn[d]-1].Rank()) - int(g.rows[s][g.rn[s]-1].Rank())
		g.moveRun(s, d, k)
	case ActEmpty:
		g.moveRun(s, d, k)
	case ActWaste:
		g.pushRow(d, g.popWaste())
	case ActLadder:
		// The next ladder card is face up as soon as it is the last one
		// (rule 7): nothing else changes.
		g.pushRow(d, g.popLadder())
	case ActTurn:
		c, key := keysStock.Pop(g.stock[:], &g.sn, 0)
		g.hash ^= key ^ keysWaste.Push(g.waste[:], &g.wn, 0, c)
	default: // ActRedeal: the waste turned over, its first card on top.
		for i := range int(g.wn) {
			g.stock[i] = g.waste[int(g.wn)-1-i]
		}
		g.sn, g.wn = g.wn, 0
		clear(g.waste[:])
		g.redealt = true
		g.hash = g.fullHash()
	}
}

// moveRun moves the last k cards of row s to the outer end of row d.
func (g *Game) moveRun(s, d, k int) {
	n := int(g.rn[s])
	for i := n - k; i < n; i++ {
		c := g.rows[s][i]
		g.hash ^= rowKey(s, i, c)
		g.rows[s][i] = cards.None
		g.pushRow(d, c)
	}
	g.rn[s] -= uint8(k)
	g.run[s] = uint8(g.runLen(s))
}

// pushRow lays c at the outer end of row r, keeping the hash and the run.
func (g *Game) pushRow(r int, c cards.Card) {
	if n := g.rn[r]; n > 0 && buildsOn(c, g.rows[r][n-1]) {
		g.run[r]++
	} else {
		g.run[r] = 1
	}
	g.hash ^= keysRow.Push(g.rows[r][:], &g.rn[r], r*MaxRow, c)
}

// popRow takes the outer card off row r, keeping the hash and the run.
func (g *Game) popRow(r int) cards.Card {
	c, key := keysRow.Pop(g.rows[r][:], &g.rn[r], r*MaxRow)
	g.hash ^= key
	if g.run[r] > 1 {
		g.run[r]--
	} else {
		g.run[r] = uint8(g.runLen(r))
	}
	return c
}

// popWaste takes the waste's top card, keeping the hash.
func (g *Game) popWaste() cards.Card {
	c, key := keysWaste.Pop(g.waste[:], &g.wn, 0)
	g.hash ^= key
	return c
}

// popLadder takes the ladder's face-up card, keeping the hash.
func (g *Game) popLadder() cards.Card {
	c, key := keysLadder.Pop(g.ladder[:], &g.ln, 0)
	g.hash ^= key
	return c
}

// toFoundation puts c on its foundation.
func (g *Game) toFoundation(c cards.Card) {
	g.hash ^= g.found.PutKey(c, keysFound)
	g.home++
}
