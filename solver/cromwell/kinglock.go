package cromwell

import (
	"math/bits"

	"github.com/patience-gym/patience/env/cards"
	rules "github.com/patience-gym/patience/env/cromwell"
	"github.com/patience-gym/patience/env/zobrist"
)

// The king-lock test: a second dead test, which follows each copy of a card
// where the relaxed game of Dead does not.
//
// A king never leaves its fan except to go home: no card is one rank
// higher, so nothing takes it. The cards beneath a king in its fan therefore
// stay there until the king has gone home. A king goes home on a foundation
// of its suit that shows the queen, so one copy of every lower card of its
// suit is home by then; for the second king of a suit both copies are. So in
// any winning line without a swap, taking the kings in the order they go
// home, each king has every king above it in its fan home before it, and
// for each rank from ace to queen of its suit as many copies as it needs
// (one for the suit's first king, two for its second) that lie beneath no
// king still in the fans. kingLocked searches the orders for one that
// meets these conditions; when none does, the position cannot be won.
//
// The relaxed game of Dead misses this because it lets both copies of a
// card use one copy of the card below: a second king may go home on the
// first king's foundation there, and what lies beneath it is freed too
// early.

// kingLocks is the lock structure of a position: the kings still in the
// fans and, for each card of a suit, which of those kings lie above its
// copies.
type kingLocks struct {
	n     int
	suit  [8]uint8
	above [8]uint8              // the kings above king i in its fan (bit i' for king i')
	at    [8][2]uint8           // king i's fan and depth
	home  [cards.NumSuits]uint8 // kings home
	// ofSuit[s] has the kings of suit s still in the fans.
	ofSuit [cards.NumSuits]uint8
	// all[s] has the kings above some card of suit s (ace to queen): the
	// suit's second king needs all of them home.
	all [cards.NumSuits]uint8
	// pairs[s] lists, for each card of suit s both of whose copies lie
	// beneath kings, the kings above each copy: the suit's first king
	// needs, for each pair, all the kings above one of the copies home.
	pairs  [cards.NumSuits][12][2]uint8
	npairs [cards.NumSuits]uint8
	// allBy[s][r] has the kings above some copy of the card of suit s
	// and rank r.
	allBy [cards.NumSuits][cards.King + 1]uint8
	// ownRun has king i's bit when a run of its suit lies on it whose
	// cards can leave only onto the other king or home (addRuns);
	// runAll[i] then has the kings above some copy of a card of the suit
	// lower than the run's lowest: the run's way home waits for them.
	ownRun uint8
	runAll [8]uint8
	// key hashes the places and cards of the kings and of the cards
	// beneath them (see lockMemo).
	key uint64
}

// kingLocked reports that no order in which the kings still in the fans
// go home meets the conditions above, so that the position cannot be won
// without a swap.
//
// The verdict depends on the lock structure alone, which changes only when
// a king goes home (or the swap is made), so a search meets the same few
// structures again and again: where DeadAtStart left a memo, the verdicts
// are kept there by a hash of the structure.
func (g *Position) kingLocked() bool {
	var l kingLocks
	if !g.locks(&l) {
		return false
	}
	if !g.hook.on {
		l.addRuns(g)
	}
	m := g.lockMemo
	if m == nil {
		return !l.feasible()
	}
	k := l.key
	for s := range cards.NumSuits {
		k ^= lockKeysHome[3*s+int(l.home[s])]
	}
	k |= 1 // 0 marks an empty entry
	i := k & (lockMemoSize - 1)
	if m.keys[i] == k {
		return m.locked[i]
	}
	locked := !l.feasible()
	m.keys[i], m.locked[i] = k, locked
	return locked
}

// The keys of the lock memo's hash: a card in a place, and the kings home
// in each suit (0 to 2).
var (
	lockKeysCard = zobrist.NewCardKeys(0xc402_0001, rules.NumFans*rules.MaxDepth)
	lockKeysHome = zobrist.Table(0xc402_0002, cards.NumSuits*3)
	// lockKeysRun keys a king's own run (addRuns): its place and the
	// run's lowest rank.
	lockKeysRun = zobrist.Table(0xc402_0003, rules.NumFans*rules.MaxDepth*int(cards.King+1))
)

// lockMemoSize is the number of verdicts a lockMemo keeps.
const lockMemoSize = 1 << 12

// lockMemo keeps verdicts of the king-lock test, by a hash of the lock
// structure (the places of the kings and of the cards beneath them, and
// the kings home): a direct-mapped cache, an entry replaced by the next
// structure that maps to it.
type lockMemo struct {
	keys   [lockMemoSize]uint64
	locked [lockMemoSize]bool
}

// locks fills l from the position. It reports false when no card or king
// lies beneath a king, and every order then works.
func (g *Position) locks(l *kingLocks) bool {
	found, n := g.Foundations(), g.FanLens()
	l.countHome(&found)
	return l.build(g.Fans(), &n)
}

// countHome counts the kings home on the foundations.
func (l *kingLocks) countHome(found *cards.Foundations) {
	for s := range cards.NumSuits {
		if found[2*s] == uint8(cards.King) {
			l.home[s]++
		}
		if found[2*s+1] == uint8(cards.King) {
			l.home[s]++
		}
	}
}

// build adds the kings of the fans (n[f] cards each, deepest first, None
// for a place to skip) and the cards beneath them, the kings numbered fan
// by fan from the top down. It reports false when no card or king lies
// beneath a king.
func (l *kingLocks) build(fans *[rules.NumFans][rules.MaxDepth]cards.Card, n *[rules.NumFans]uint8) bool {
	// first[c] holds the kings above the first locked copy of c, so that
	// the second copy makes a pair.
	var first [cards.NumCodes]uint8
	var seen [cards.NumCodes]bool
	any := false
	for f := range rules.NumFans {
		var above uint8
		for k := int(n[f]) - 1; k >= 0; k-- {
			c := fans[f][k]
			if c == cards.None {
				continue
			}
			if c.Rank() == cards.King || above != 0 {
				l.key ^= lockKeysCard.Key(f*rules.MaxDepth+k, c)
			}
			if c.Rank() == cards.King {
				if l.n == len(l.suit) {
					return false // not from a real deal: say nothing
				}
				i := l.n
				l.n++
				l.suit[i] = uint8(c.Suit())
				l.ofSuit[c.Suit()] |= 1 << i
				l.above[i] = above
				l.at[i] = [2]uint8{uint8(f), uint8(k)}
				if above != 0 {
					any = true
				}
				above |= 1 << i
				continue
			}
			if above == 0 {
				continue
			}
			any = true
			s := c.Suit()
			l.all[s] |= above
			l.allBy[s][c.Rank()] |= above
			if seen[c] {
				p := &l.npairs[s]
				l.pairs[s][*p] = [2]uint8{first[c], above}
				*p++
			} else {
				seen[c] = true
				first[c] = above
			}
		}
	}
	return any
}

// feasible reports that some order gets every king home.
func (l *kingLocks) feasible() bool {
	// A king that lies above no card and no king can go home last of all:
	// by then every king above it and every card of its suit is home, and
	// its twin, gone first, needed only what a first king needs. Nothing
	// waits for it, so the search leaves such kings out.
	var used uint8
	for i := range l.n {
		used |= l.above[i]
	}
	for s := range cards.NumSuits {
		used |= l.all[s]
	}
	want := uint8(uint32(1)<<l.n-1) & used
	// Kings in the order they can go first: this order usually gets them
	// all home, which settles it without the search.
	set := uint8(0)
	for moved := true; moved && set != want; {
		moved = false
		for rest := want &^ set; rest != 0; rest &= rest - 1 {
			if i := bits.TrailingZeros8(rest); l.canGo(set, i) {
				set |= 1 << i
				moved = true
			}
		}
	}
	if set == want {
		return true
	}
	var reach kingSets
	return l.reachSet(&reach, uint32(want), true)
}

// kingSets is a set of sets of kings (bit i for king i).
type kingSets [4]uint64

func (k *kingSets) has(set uint32) bool { return k[set>>6]&(1<<(set&63)) != 0 }
func (k *kingSets) add(set uint32)      { k[set>>6] |= 1 << (set & 63) }

// reach fills reach with the sets of kings that can be home together, the
// kings having gone home one at a time under the conditions of canGo: a
// search over the sets, each reached at most once. It reports whether the
// set of all the kings is among them; with stop it returns as soon as it
// is.
func (l *kingLocks) reach(reach *kingSets, stop bool) bool {
	return l.reachSet(reach, uint32(1)<<l.n-1, stop)
}

// reachSet is reach over the kings of want alone (the others stay in the
// fans throughout), reporting whether want itself is reached.
func (l *kingLocks) reachSet(reach *kingSets, want uint32, stop bool) bool {
	reach.add(0)
	for set := uint32(0); set <= want; set++ {
		if set&^want != 0 || !reach.has(set) {
			continue
		}
		if set == want {
			return true
		}
		for rest := want &^ set; rest != 0; rest &= rest - 1 {
			i := bits.TrailingZeros32(rest)
			if l.canGo(uint8(set), i) {
				next := set | 1<<i
				reach.add(next)
				if stop && next == want {
					return true
				}
			}
		}
	}
	return false
}

// canGo reports that king i may go home once the kings in set are home.
func (l *kingLocks) canGo(set uint8, i int) bool {
	if l.above[i]&^set != 0 {
		return false
	}
	s := l.suit[i]
	if l.home[s] > 0 || set&l.ofSuit[s] != 0 { // the second king: both copies of every lower card
		return l.all[s]&^set == 0
	}
	for _, p := range l.pairs[s][:l.npairs[s]] {
		if p[0]&^set != 0 && p[1]&^set != 0 {
			return false
		}
	}
	if l.ownRun>>i&1 != 0 && l.runAll[i]&^set != 0 {
		// The run on the king cannot have gone home: it went onto the
		// other king, which must have been uncovered.
		j := bits.TrailingZeros8(l.ofSuit[s] &^ (1 << i))
		if j >= l.n || l.above[j]&^set != 0 {
			return false
		}
	}
	return true
}

// addRuns notes the kings on which a run of their own suit lies (the
// queen on the king, the jack on the queen, and so on down to a lowest
// card x) whose every card has its twin home already, in the position of
// g, with the swap spent and no hook on (hook.go lets a card in a king's
// place take a queen). A card of such a run leaves its place only by going
// home or onto a copy of the card one rank higher of its suit (a fan that
// empties stays empty): for every card but the queen that copy is home,
// and for the queen it is the other king. So the run leaves the king in
// one of two ways. Either it all goes home, from x up: x, whose twin is
// home, needs both copies of the card below it home, and so on down to
// the ace, so every king above a copy of a card of the suit lower than x
// has gone home first (runAll). Or, from its queen down (what is above
// having gone home), it goes onto the other king, which must then be in
// the fans and uncovered: every king above it has gone home first. A part
// of the run that went home before waits for nothing the whole run does
// not. canGo asks for one of the two before the king may go home as the
// first of its suit (the second needs all of runAll anyway).
func (l *kingLocks) addRuns(g *Position) {
	found := g.Foundations()
	home := func(c cards.Card) bool {
		s := 2 * int(c.Suit())
		return found[s] >= uint8(c.Rank()) || found[s+1] >= uint8(c.Rank())
	}
	for i := range l.n {
		f, k := int(l.at[i][0]), int(l.at[i][1])
		king, n := g.Fans()[f][k], g.FanLen(f)
		m := 0 // the run's length
		for k+m+1 < n && m < int(cards.Queen) && g.Fans()[f][k+m+1] == king-cards.Card(m+1) && home(king-cards.Card(m+1)) {
			m++
		}
		if m == 0 || k+m+1 < n && g.Fans()[f][k+m+1] == king-cards.Card(m+1) {
			continue // no run, or a card of it whose twin is in play
		}
		x := int((king - cards.Card(m)).Rank())
		s := l.suit[i]
		var below uint8
		for r := cards.Ace; int(r) < x; r++ {
			below |= l.allBy[s][r]
		}
		l.ownRun |= 1 << i
		l.runAll[i] = below
		l.key ^= lockKeysRun[(f*rules.MaxDepth+k)*int(cards.King+1)+x]
	}
}

// swapLocked reports that the position, with the swap unused, cannot be
// won with the swap made at any time, by the conditions of kingLocked: no
// swap gets past the test of eachSwap. The test costs up to about a
// second, so the solver runs it once, on the position it starts from
// (DeadAtStart), where it also lists the swaps that do get past it
// (swapallow.go).
//
// Take a winning line and the moment of its swap, when the kings of some
// set S are home. Before it, the kings of S went home under the conditions
// of kingLocked in the position now, so S is among the sets reach finds.
// At that moment every king not in S is in its place, and so is every card
// beneath one of them: call those places intact. A card elsewhere lies
// beneath no king (kings never move, so a card beneath one was beneath it
// from now on). The swap exchanges two cards x and y. In the position it
// makes, the intact places hold their cards, x and y exchanged where they
// lie in intact places; a card that goes to a place not intact lies beneath
// no king there, and a king that goes there locks nothing that this test
// knows of (what lies beneath it then is not known; counting it as nothing
// only makes the test weaker). From there the rest of the line gets every
// king home without a swap, so the conditions of kingLocked hold for that
// position, with the kings of S home. eachSwap tries every such S and
// every swap that puts a card into an intact place or takes one out (a
// swap of two cards that are both elsewhere changes none of the
// conditions, which fail already without a swap).
//
// A swap of two cards in intact places (kings or not) is tried with no
// king home only: if it passes with the kings of S home, it passes with
// none. Exchange x and y in the position now, giving the swapped layout.
// x and y each are a king not in S or lie beneath one, and neither lies
// above a king of S (that king would have waited for it). In the swapped
// layout the kings of S can go home in the order the line sent them, as
// their conditions are no harder there: the swap changes which kings lie
// above x, y and the cards beneath their two places only, and each of
// those was a king not in S or lay beneath one, out of the reach of S
// before the swap; no king comes to lie above a king of S. Once S is
// home, the conditions in the swapped layout are the ones tried with S
// home, which pass. So every king can go home in the swapped layout: the
// test with no king home passes.
func (g *Position) swapLocked() bool {
	a, empty := g.buildAllow()
	return a != nil && empty
}
