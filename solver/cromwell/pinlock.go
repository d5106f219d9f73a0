package cromwell

import (
	"github.com/patience-gym/patience/env/cards"
	rules "github.com/patience-gym/patience/env/cromwell"
)

// The pin test: a third dead test, costlier than the other two, which
// DeadAtStart runs once at the start of a search (and on the game after
// each hooked swap).
//
// It orders the kings as the king-lock test does, but checks each step
// with the relaxed game of Dead rather than by counting cards. Take a
// winning line, the set S of kings it sends home first, and the king K it
// sends home next. Until K goes home, the kings not in S stay where they
// are (a king leaves only to go home), K included, and so do the cards
// beneath them: they are frozen. The relaxed game played from the position
// with those places frozen must then clear the cards above K and get home
// one copy (two, for the suit's second king) of every lower card of K's
// suit. That is the king-order game; it already catches a card whose only
// ways out lie beneath kings, which the king-lock test misses.
//
// The pins come on top. Where a copy of some card of a suit is frozen, at
// most one copy of that rank gets home before K, and so at most one copy
// of every higher rank of the suit (a foundation cannot pass a rank whose
// copy it has not had). Now take a rank r of such a suit with both copies
// in play and not frozen, and a copy T' of the card one rank higher that
// lies beneath a frozen card (so it is never uncovered before K). A copy
// of r that does not get home may leave its place only onto a copy of the
// next rank, which can then only be the other copy T; and it lies there
// still when K goes home, so T does not get home before K either, nor
// does any higher card of the suit. Every winning line therefore takes one
// of three branches: one copy of r never leaves its place (freeze it), the
// other never does (freeze that), or no card of the suit above r gets home
// before K (cap the suit at r, impossible if a king of the suit is in S).
// Where both copies of the next rank are covered, a copy of r can only
// leave to go home, so one of the two stays: the first two branches. The
// test follows the branches, each a relaxed game with more frozen or less
// allowed home, and a king may go next after S if it passes in one of
// them. Where no order of the kings gets them all home, the position is
// lost. While a hook is on (hook.go), a queen may also be built on the card
// in a king's place, so no queen is taken as pinned.
//
// The test plays a few hundred to some tens of thousands of relaxed games
// on a Cromwell deal (a few milliseconds, a tenth of a second at most):
// past pinBudget it gives up (not proved lost), so its cost stays
// bounded.

// pinBudget bounds the relaxed games one pin test plays.
const pinBudget = 50000

// pinTest is the state of one pin test.
type pinTest struct {
	g      *Position
	n      int           // kings in the fans
	kf, kk [8]int8       // each king's fan and depth
	ks     [8]cards.Card // each king
	places [cards.NumCodes][2]place
	copies [cards.NumCodes]uint8 // copies of each code in the fans
	games  int                   // relaxed games played
	noPins bool                  // the king-order game alone (for tests)
	r      relaxation
}

// pinFrozen is a branch of the pin test: the places frozen (the bottom
// fz[f] cards of each fan) and the caps (limit, as in relaxation).
type pinFrozen struct {
	fz    [rules.NumFans]int8
	limit [cards.NumSuits]uint8
}

// frozen reports that the card at p never leaves its place.
func (b *pinFrozen) frozen(p place) bool { return p.k < int(b.fz[p.f]) }

// covered reports that the card at p is never uncovered: a frozen card
// lies on it.
func (b *pinFrozen) covered(p place) bool { return p.k < int(b.fz[p.f])-1 }

// pinLocked reports that no order of the kings passes the pin test, so that
// the position (the swap spent, or hooked) cannot be won.
func (g *Position) pinLocked() bool { return g.pinTest(true) }

// pinTest runs the pin test, or with pins false the king-order game alone.
func (g *Position) pinTest(pins bool) bool {
	t := &pinTest{g: g, noPins: !pins}
	for f := range rules.NumFans {
		for k := range g.FanLen(f) {
			c := g.Fans()[f][k]
			if c.Rank() == cards.King {
				if t.n == len(t.ks) {
					return false // not from a real game
				}
				t.kf[t.n], t.kk[t.n], t.ks[t.n] = int8(f), int8(k), c
				t.n++
			}
			if t.copies[c] < 2 {
				t.places[c][t.copies[c]] = place{f, k}
			}
			t.copies[c]++
		}
	}
	if t.n == 0 {
		return false
	}
	// A depth-first search over the sets of kings home, which stops as
	// soon as it has them all: most positions that are not lost show an
	// order at once.
	all := uint32(1)<<t.n - 1
	var seen [256]bool
	var stack [256]uint32
	stack[0], seen[0] = 0, true
	for sp := 1; sp > 0; {
		sp--
		set := stack[sp]
		var b pinFrozen
		for i := range t.n {
			if set&(1<<i) == 0 {
				b.fz[t.kf[i]] = max(b.fz[t.kf[i]], t.kk[i]+1)
			}
		}
		next := t.explore(set, &b)
		if t.games > pinBudget {
			return false
		}
		for i := t.n - 1; i >= 0; i-- {
			if s := set | 1<<i; next&(1<<i) != 0 && !seen[s] {
				if s == all {
					return false
				}
				seen[s] = true
				stack[sp] = s
				sp++
			}
		}
	}
	return true
}

// explore returns the kings that may go home next after the set home, in
// branch b or one of its sub-branches.
func (t *pinTest) explore(set uint32, b *pinFrozen) uint32 {
	t.games++
	if t.games > pinBudget {
		return 0
	}
	pass := t.pass(set, b)
	if pass == 0 {
		return 0 // the sub-branches only take moves away
	}
	su, r, nf := t.trigger(b)
	if nf == 0 || t.noPins {
		return pass
	}
	var out uint32
	for _, p := range t.places[cards.New(su, r)] {
		sub := *b
		sub.fz[p.f] = max(sub.fz[p.f], int8(p.k+1))
		if out |= t.explore(set, &sub); out == pass {
			return out
		}
	}
	if nf == 1 {
		for i := range t.n {
			if set&(1<<i) != 0 && t.ks[i].Suit() == su {
				return out // a king of the suit goes home in this phase
			}
		}
		sub := *b
		sub.limit[su] = uint8(r)
		out |= t.explore(set, &sub)
	}
	return out
}

// pass plays the relaxed game of branch b and returns the kings not in set
// that it lets go home next: every card above the king cleared, and one
// copy (two, for the suit's second king) of each lower card of its suit
// home.
func (t *pinTest) pass(set uint32, b *pinFrozen) uint32 {
	g := t.g
	r := &t.r
	*r = relaxation{fz: b.fz, limit: b.limit}
	g.hookRelax(r)
	g.relax(r)
	var out uint32
	for i := range t.n {
		if set&(1<<i) != 0 || int(r.top[t.kf[i]]) != int(t.kk[i])+1 {
			continue
		}
		k := t.ks[i]
		s := int(k.Suit())
		need := uint8(1)
		if found := g.Foundations(); found[2*s] == uint8(cards.King) || found[2*s+1] == uint8(cards.King) {
			need = 2
		}
		for j := range t.n {
			if j != i && t.ks[j] == k && set&(1<<j) != 0 {
				need = 2
			}
		}
		ok := true
		for x := cards.New(k.Suit(), cards.Ace); x < k; x++ {
			if r.home[x] < need {
				ok = false
				break
			}
		}
		if ok {
			out |= 1 << i
		}
	}
	return out
}

// trigger finds a rank r of a suit su where branch b splits: the suit has
// a frozen copy at rank r or below, both copies of r are in the fans and
// not frozen, both copies of the next rank are in the fans and nf (1 or 2)
// of them covered, and the suit is not capped at r or below. nf is 0 where
// there is none.
func (t *pinTest) trigger(b *pinFrozen) (su cards.Suit, r cards.Rank, nf int) {
	for s := range cards.NumSuits {
		capped := false
		for r := cards.Ace; r < cards.King; r++ {
			c := cards.New(cards.Suit(s), r)
			for i := range min(int(t.copies[c]), 2) {
				if b.frozen(t.places[c][i]) {
					capped = true
				}
			}
			if !capped || (b.limit[s] != 0 && uint8(r) >= b.limit[s]) {
				continue
			}
			if r == cards.Queen && t.g.hook.on {
				continue // a queen may go on a hook
			}
			up := c + 1
			if t.copies[c] != 2 || t.copies[up] != 2 || b.frozen(t.places[c][0]) || b.frozen(t.places[c][1]) {
				continue
			}
			n := 0
			for _, p := range t.places[up] {
				if b.covered(p) {
					n++
				}
			}
			if n > 0 {
				return cards.Suit(s), r, n
			}
		}
	}
	return 0, 0, 0
}
