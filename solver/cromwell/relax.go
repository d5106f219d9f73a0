package cromwell

import (
	"math/bits"

	"github.com/patience-gym/patience/env/cards"
	rules "github.com/patience-gym/patience/env/cromwell"
)

// relaxed plays the relaxed game of Dead and returns the number of cards it
// cannot get home.
//
// It runs by events rather than by sweeps: a fan that cannot move on waits
// for the card that would let it (a copy of its top card's predecessor
// going home, or a target for a card of its top run being seen), and is
// looked at again only when that happens; a card that leaves a fan goes
// home at once when it can, and otherwise waits until the card below it
// goes home. The game's rules only ever add moves as cards go home or are
// seen, so the order in which they are made does not change which cards
// end home (relaxed_test.go compares it with a plain sweep over the fans).
func (g *Position) relaxed() int {
	var r relaxation
	g.hookRelax(&r)
	g.relax(&r)
	return r.left
}

// relax plays the relaxed game of relaxed into r, which must be zero.
func (g *Position) relax(r *relaxation) {
	r.fans = g.Fans()
	g.relaxOn(r)
}

// relaxOn plays the relaxed game into r from the position of g with the
// fans' cards read from r.fans, which must be set (the rest of r zero but
// for its hooks).
func (g *Position) relaxOn(r *relaxation) {
	found := g.Foundations()
	for s := range cards.NumSuits {
		hi, lo := found[2*s], found[2*s+1]
		for k := cards.Ace; k <= cards.King; k++ {
			c := cards.New(cards.Suit(s), k)
			if hi >= uint8(k) {
				r.home[c]++
			}
			if lo >= uint8(k) {
				r.home[c]++
			}
			if k != cards.Ace { // an ace needs nothing
				r.need[c] = r.home[c] + 1
			}
			if lim := r.limit[s]; lim != 0 && uint8(k) > lim {
				r.need[c] = 255 // never home
			}
		}
	}
	for f := range rules.NumFans {
		n := g.FanLen(f)
		r.top[f] = int8(n)
		r.left += n
		if n > 0 {
			r.seen[r.fans[f][n-1]] = true
		}
	}
	for i := range r.nhooks {
		r.exposed(int(r.hooks[i].f))
	}
	r.dirty = 1<<rules.NumFans - 1
	for r.dirty != 0 {
		f := bits.TrailingZeros32(r.dirty)
		r.dirty &^= 1 << f
		r.fan(f)
	}
}

// relaxation is the state of the relaxed game of Dead. Its tables are
// indexed by card code (a byte, so that no index is checked): the card
// one rank lower in its suit is code−1.
type relaxation struct {
	fans *[rules.NumFans][rules.MaxDepth]cards.Card // the cards of the fans
	// home[c] counts the copies of card c home; need[c] is what a copy
	// in play needs of the card one rank lower (two when its twin is home
	// at the start, else one; nothing for an ace).
	home, need [256]uint8
	top        [rules.NumFans]int8 // cards still in place in each fan
	seen       [256]bool           // codes available as targets, now or once
	free       [256]uint8          // cards moved away, not yet home
	waitSeen   [256]uint32         // fans to look at again when a code is seen
	waitHome   [256]uint32         // fans to look at again when a code goes home
	dirty      uint32              // fans to look at
	left       int                 // cards not home
	// fz[f] counts the cards at the bottom of fan f that never leave (the
	// pin test's frozen places: see pinlock.go); zero in Dead's game.
	fz [rules.NumFans]int8
	// limit[s], where not zero, is the highest rank of suit s that may go
	// home (the pin test's caps); zero in Dead's game.
	limit [cards.NumSuits]uint8
	// hooks name cards to see when a place is uncovered (see pairsDead):
	// hooks[i].c is seen once fan hooks[i].f has no more than
	// hooks[i].k+1 cards left in place.
	hooks  [2]relaxHook
	nhooks int
}

// relaxHook is a card the relaxed game sees when a place is uncovered.
type relaxHook struct {
	f, k int8
	c    cards.Card
}

// exposed sees the cards of the hooks on fan f whose places are
// uncovered.
func (r *relaxation) exposed(f int) {
	for i := range r.nhooks {
		if h := &r.hooks[i]; int(h.f) == f && r.top[f] <= h.k+1 {
			r.see(h.c)
		}
	}
}

// ready reports that a copy of card c may go home.
func (r *relaxation) ready(c cards.Card) bool { return r.home[c-1] >= r.need[c] }

// goHome sends card c home, then the free cards it lets follow.
func (r *relaxation) goHome(c cards.Card) {
	r.home[c]++
	r.left--
	r.dirty |= r.waitHome[c]
	r.waitHome[c] = 0
	if c.Rank() == cards.King {
		return
	}
	for next := c + 1; r.free[next] > 0 && r.ready(next); {
		r.free[next]--
		r.goHome(next)
	}
}

// see makes card c available as a target.
func (r *relaxation) see(c cards.Card) {
	if !r.seen[c] {
		r.seen[c] = true
		r.dirty |= r.waitSeen[c]
		r.waitSeen[c] = 0
	}
}

// fan makes the moves of fan f until it waits: its top card goes home when
// its foundation is ready, and otherwise the lowest card of its top run
// that has a target moves away with the cards above it.
func (r *relaxation) fan(f int) {
	cs := &r.fans[f]
	floor := int(r.fz[f])
	for t := int(r.top[f]); t > floor; t = int(r.top[f]) {
		c := cs[t-1]
		if r.ready(c) {
			r.top[f] = int8(t - 1)
			r.goHome(c)
			if t > 1 {
				r.see(cs[t-2])
			}
			if r.nhooks > 0 {
				r.exposed(f)
			}
			continue
		}
		lo := t - 1
		for lo > floor && cs[lo-1] == cs[lo]+1 && cs[lo].Rank() != cards.King {
			lo--
		}
		b := lo
		for ; b < t; b++ {
			if x := cs[b]; x.Rank() != cards.King && r.seen[x+1] {
				break
			}
		}
		if b == t {
			// Wait: for the top card's predecessor to go home, or for a
			// target of a card of the top run.
			r.waitHome[c-1] |= 1 << f // not an ace: those are always ready
			for k := lo; k < t; k++ {
				if x := cs[k]; x.Rank() != cards.King {
					r.waitSeen[x+1] |= 1 << f
				}
			}
			return
		}
		r.top[f] = int8(b)
		for k := b; k < t; k++ {
			x := cs[k]
			r.see(x)
			if r.ready(x) {
				r.goHome(x)
			} else {
				r.free[x]++
			}
		}
		if b > 0 {
			r.see(cs[b-1])
		}
		if r.nhooks > 0 {
			r.exposed(f)
		}
	}
}
