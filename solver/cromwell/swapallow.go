package cromwell

import (
	"math/bits"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	rules "github.com/patience-gym/patience/env/cromwell"
)

// The swaps the king-lock test lets through. Where the kings lock cards
// that only the swap can free (the position is king-locked without it),
// eachSwap finds the few swaps, each with the sets of kings home when it
// may be made, after which the kings can still all go home (swapLocked
// gives the argument). Every other swap, made at any time, leads to a
// position that the king-lock test of Dead calls lost: the test there
// knows more of the position than eachSwap does. swapAllow lists them, so
// that a search offers only those (Prune, LatePick) and gives up a
// position, with the swap unused, where none of them can be made any more
// (Dead). On the 24 deals of 500,000 to 500,999 that a search of 1M nodes
// leaves unknown, the median deal allows 10 of the 5,304 swaps at the
// start, and a search of 10 s runs a median 1.4 times as many nodes.

// numPlaces is the number of places a swap can pick from: 16 a fan.
const numPlaces = rules.NumFans * rules.SwapDepth

// placeSet is a set of places (bit f*rules.SwapDepth+k).
type placeSet [(numPlaces + 63) / 64]uint64

func (p *placeSet) add(i int)      { p[i>>6] |= 1 << (i & 63) }
func (p *placeSet) has(i int) bool { return p[i>>6]&(1<<(i&63)) != 0 }
func (p *placeSet) remove(i int)   { p[i>>6] &^= 1 << (i & 63) }

// meets reports whether p and q share a place.
func (p *placeSet) meets(q *placeSet) bool {
	for i := range p {
		if p[i]&q[i] != 0 {
			return true
		}
	}
	return false
}

// codeSet is a set of card codes (bit c).
type codeSet uint64

// swapAllow lists the swaps that get past the king-lock test from the
// position it was built from (the start of a search) on.
type swapAllow struct {
	locks kingLocks
	reach kingSets // the sets of kings that can go home without the swap
	kings [8]cards.Card
	// n holds the fans' sizes at the start: intact places lie below.
	n     [rules.NumFans]uint8
	king  [rules.NumFans][rules.SwapDepth]int8  // the king at each place (-1 none)
	above [rules.NumFans][rules.SwapDepth]uint8 // the kings above each place
	// pairs[p] has the places q such that the cards at p and q, both in
	// intact places, may be swapped (tried with no king home: see
	// swapLocked).
	pairs [numPlaces]placeSet
	// with[S] lists, for a set S of kings home, the codes each intact
	// place may take from a card elsewhere (nil: none).
	with [256]*withTable
	// pairsAt[S] says that some swap of two intact places is allowed with
	// the kings of S home, and intactAt[S][c] counts the copies of code c
	// in places intact then (the others are elsewhere or home).
	pairsAt  [256]bool
	intactAt [256]*[cards.NumCodes]uint8
	// pairsOnly says that every allowed swap is of two intact places (no
	// set of kings home lists a swap with a card elsewhere), and pairList
	// lists those pairs once each (the lower place first).
	pairsOnly bool
	pairList  [][2]place
	// hooked says the search makes the swap at the start, hooked
	// (hook.go): every allowed swap is of two intact places, and no card
	// of a pair is of the suit of a king it is swapped with.
	hooked bool
}

// withTable is one set's list of swaps with a card elsewhere.
type withTable struct {
	at  [numPlaces]codeSet // codes the card at each intact place may swap with
	any codeSet            // the union of at
}

// buildAllow returns the swaps of the position (swap unused) that pass the
// king-lock test, or nil when every swap may be needed: the kings lock
// nothing that needs the swap, or a fan is deeper than a fan can be while
// the swap is unused (a position set up by hand). empty reports that no
// swap passes: the position is lost.
func (g *Position) buildAllow() (a *swapAllow, empty bool) {
	for f := range rules.NumFans {
		if g.FanLen(f) > rules.SwapDepth {
			return nil, false // not from a real game: the swap is spent by then
		}
	}
	a = &swapAllow{}
	l := &a.locks
	if !g.locks(l) {
		return nil, false
	}
	if l.reach(&a.reach, false) {
		return nil, false
	}
	a.n = g.FanLens()
	for f := range rules.NumFans {
		for k := range g.FanLen(f) {
			a.king[f][k] = -1
		}
	}
	for i := range l.n {
		f, d := int(l.at[i][0]), int(l.at[i][1])
		a.king[f][d] = int8(i)
		a.kings[i] = g.Fans()[f][d]
		for k := range d {
			a.above[f][k] |= 1 << i
		}
	}
	empty = true
	a.eachSwap(g, func(set uint32, p, q place, y cards.Card) {
		empty = false
		if q.f >= 0 {
			a.pairs[p.f*rules.SwapDepth+p.k].add(q.f*rules.SwapDepth + q.k)
			a.pairs[q.f*rules.SwapDepth+q.k].add(p.f*rules.SwapDepth + p.k)
			return
		}
		t := a.with[set]
		if t == nil {
			t = &withTable{}
			a.with[set] = t
		}
		t.at[p.f*rules.SwapDepth+p.k] |= 1 << y
		t.any |= 1 << y
	})
	a.pairsOnly = true
	for set := range a.with {
		if a.with[set] != nil {
			a.pairsOnly = false
		}
	}
	for i := range numPlaces {
		for j := i + 1; j < numPlaces; j++ {
			if a.pairs[i].has(j) {
				a.pairList = append(a.pairList, [2]place{{i / rules.SwapDepth, i % rules.SwapDepth}, {j / rules.SwapDepth, j % rules.SwapDepth}})
			}
		}
	}
	a.hooked = a.pairsOnly && len(a.pairList) > 0
	for _, pq := range a.pairList {
		x, y := g.Fans()[pq[0].f][pq[0].k], g.Fans()[pq[1].f][pq[1].k]
		if x.Suit() == y.Suit() && (x.Rank() == cards.King || y.Rank() == cards.King) {
			a.hooked = false
		}
	}
	a.countIntact(g)
	return a, empty
}

// countIntact fills intactAt and pairsAt from pairs, for g's position (the
// one a was built from).
func (a *swapAllow) countIntact(g *Position) {
	for set := range uint32(256) {
		a.pairsAt[set] = false
		if !a.reach.has(set) {
			continue
		}
		var in placeSet
		cnt := new([cards.NumCodes]uint8)
		for f := range rules.NumFans {
			for k := range g.FanLen(f) {
				if a.intact(f, k, set) {
					in.add(f*rules.SwapDepth + k)
					cnt[g.Fans()[f][k]]++
				}
			}
		}
		a.intactAt[set] = cnt
		for i := range numPlaces {
			if in.has(i) && a.pairs[i].meets(&in) {
				a.pairsAt[set] = true
				break
			}
		}
	}
}

// dropPinned takes out of a (hooked, built from g's position) the swaps
// after which the hooked game fails the pin test (pinlock.go), and reports
// that none is left: the position is lost. The hooked game after a swap
// can be won exactly when a line of the rules that makes the swap can.
func (a *swapAllow) dropPinned(g *Position) (empty bool) {
	kept := a.pairList[:0:0]
	var drop [][2]place
	for _, pq := range a.pairList {
		c := g.Clone().(*Position)
		c.Apply(rules.ActSwapBegin)
		c.Apply(rules.ActSwap + pq[0].f*rules.SwapDepth + pq[0].k)
		c.Apply(rules.ActSwap + pq[1].f*rules.SwapDepth + pq[1].k)
		if c.pinLocked() {
			drop = append(drop, pq)
		} else {
			kept = append(kept, pq)
		}
	}
	if len(drop) == 0 {
		return false
	}
	for _, pq := range drop {
		i, j := pq[0].f*rules.SwapDepth+pq[0].k, pq[1].f*rules.SwapDepth+pq[1].k
		a.pairs[i].remove(j)
		a.pairs[j].remove(i)
	}
	a.pairList = kept
	a.countIntact(g)
	return len(kept) == 0
}

// place is a card's place: fan and depth.
type place struct{ f, k int }

// eachSwap calls pass for every swap of g's position (the one a was built
// from) that gets past the king-lock test (see swapLocked): with set the
// kings home when it is made, p an intact place, and either q another
// intact place (y None), or q.f = -1 and y the code of the card elsewhere
// that p's card is swapped with. Swaps of two intact places are tried with
// no king home only: see swapLocked for why that loses none.
func (a *swapAllow) eachSwap(g *Position, pass func(set uint32, p, q place, y cards.Card)) {
	l := &a.locks
	full := uint32(1)<<l.n - 1
	n := g.FanLens()
	var intact []place
	for set := uint32(0); set <= full; set++ {
		if !a.reach.has(set) {
			continue
		}
		// The position at the swap, as far as it is known: intact places
		// hold their cards, the others None; free[c] counts the copies of
		// c elsewhere in the fans.
		var base [rules.NumFans][rules.MaxDepth]cards.Card
		var free [cards.NumCodes]uint8
		intact = intact[:0]
		for f := range rules.NumFans {
			for k := range g.FanLen(f) {
				c := g.Fans()[f][k]
				switch i := a.king[f][k]; {
				case i >= 0 && set&(1<<i) != 0:
					// a king home
				case a.intact(f, k, set):
					base[f][k] = c
					intact = append(intact, place{f, k})
				default:
					free[c]++
				}
			}
		}
		home := l.home
		for j := range l.n {
			if set&(1<<j) != 0 {
				home[l.suit[j]]++
			}
		}
		try := func(p place, y cards.Card, q place, elsewhere bool) bool {
			post := base
			x := post[p.f][p.k]
			post[p.f][p.k] = y
			var m kingLocks
			m.home = home
			if !elsewhere {
				post[q.f][q.k] = x
			}
			m.build(&post, &n)
			if elsewhere && x.Rank() == cards.King {
				m.suit[m.n] = uint8(x.Suit())
				m.ofSuit[x.Suit()] |= 1 << m.n
				m.n++
			}
			return m.feasible()
		}
		for n, p := range intact {
			x := g.Fans()[p.f][p.k]
			if set == 0 {
				for _, q := range intact[n+1:] {
					if y := g.Fans()[q.f][q.k]; y != x && try(p, y, q, false) {
						pass(set, p, q, cards.None)
					}
				}
			}
			for y := cards.Card(1); y < cards.NumCodes; y++ {
				if free[y] > 0 && y != x && try(p, y, place{}, true) {
					pass(set, p, place{-1, -1}, y)
				}
			}
		}
	}
}

// homeKings returns the set of the kings of a that are home in g (gone
// from their places: before the swap a king leaves its place only for
// home).
func (a *swapAllow) homeKings(g *Position) uint32 {
	var h uint32
	for i := range a.locks.n {
		f, d := a.locks.at[i][0], a.locks.at[i][1]
		if g.FanLen(int(f)) <= int(d) || g.Fans()[f][d] != a.kings[i] {
			h |= 1 << i
		}
	}
	return h
}

// intact reports whether place (f, k) of the start is intact with the
// kings of h home: it holds a king still in the fans, or lies beneath one.
func (a *swapAllow) intact(f, k int, h uint32) bool {
	if k >= int(a.n[f]) {
		return false
	}
	if i := a.king[f][k]; i >= 0 {
		return h&(1<<i) == 0
	}
	return uint32(a.above[f][k])&^h != 0
}

// pairIntact reports whether both places of an allowed pair are intact
// with the kings of h home (the pair can still be swapped).
func (a *swapAllow) pairIntact(pq [2]place, h uint32) bool {
	return a.intact(pq[0].f, pq[0].k, h) && a.intact(pq[1].f, pq[1].k, h)
}

// view is what the allowed swaps need of a position: the kings home, the
// intact places, and the codes of the cards elsewhere.
type view struct {
	home   uint32
	intact placeSet
	away   codeSet
	with   *withTable
}

// look fills v from g. It reports false when the kings home could not have
// gone home without the swap (no swap helps then).
func (a *swapAllow) look(g *Position, v *view) bool {
	v.home = a.homeKings(g)
	if !a.reach.has(v.home) {
		return false
	}
	v.with = a.with[v.home]
	for f := range rules.NumFans {
		for k := range g.FanLen(f) {
			if a.intact(f, k, v.home) {
				v.intact.add(f*rules.SwapDepth + k)
			} else {
				v.away |= 1 << g.Fans()[f][k]
			}
		}
	}
	return true
}

// canPick reports whether the card at place (f, k) can be one of an allowed
// swap's two cards.
func (a *swapAllow) canPick(g *Position, v *view, f, k int) bool {
	i := f*rules.SwapDepth + k
	if v.intact.has(i) {
		return a.pairs[i].meets(&v.intact) || v.with != nil && v.with.at[i]&v.away != 0
	}
	return v.with != nil && v.with.any&(1<<g.Fans()[f][k]) != 0
}

// canSwap reports whether the cards at places i and j (f*rules.SwapDepth+k) make
// an allowed swap.
func (a *swapAllow) canSwap(g *Position, v *view, i, j int) bool {
	ii, ji := v.intact.has(i), v.intact.has(j)
	switch {
	case ii && ji:
		return a.pairs[i].has(j)
	case ii:
		return v.with != nil && v.with.at[i]&(1<<g.Fans()[j/rules.SwapDepth][j%rules.SwapDepth]) != 0
	case ji:
		return v.with != nil && v.with.at[j]&(1<<g.Fans()[i/rules.SwapDepth][i%rules.SwapDepth]) != 0
	}
	return false
}

// anyAllowed reports whether some allowed swap can still be made in g: a
// swap of two intact places, or of an intact place with a card elsewhere
// that is still in the fans (a copy neither home nor intact).
func (a *swapAllow) anyAllowed(g *Position) bool {
	h := a.homeKings(g)
	if !a.reach.has(h) {
		return false
	}
	if a.pairsAt[h] {
		return true
	}
	t := a.with[h]
	if t == nil {
		return false
	}
	in := a.intactAt[h]
	found := g.Foundations()
	for want := uint64(t.any); want != 0; want &= want - 1 {
		c := cards.Card(bits.TrailingZeros64(want))
		s, r := 2*int(c.Suit()), uint8(c.Rank())
		home := uint8(0)
		if found[s] >= r {
			home++
		}
		if found[s+1] >= r {
			home++
		}
		if home+in[c] < 2 {
			return true
		}
	}
	return false
}

// swapsGone reports a position, with the swap unused, in which none of the
// swaps DeadAtStart listed can be made any more: it cannot be won.
func (g *Position) swapsGone() bool {
	return g.Stage() == rules.SwapUnused && g.allow != nil && !g.allow.anyAllowed(g)
}

// pairsDead reports a position, with the swap unused, that the relaxed game
// of Dead proves lost whenever the swap is made: where every allowed swap
// is of two intact places (pairsOnly), the relaxed game, played from the
// position with the cards of each such pair still intact exchanged now,
// cannot get every card home.
//
// Why that covers a swap made later, after moves m: a card in an intact
// place is a king not home or lies beneath one, so until the swap no move
// takes it or lays a card on it, except that cards may be built on a king
// once it is uncovered (a run of its suit, from the queen down). Exchange
// the pair now and play the relaxed game, in which the king, once the
// place it left is uncovered, also counts as seen there (a hook): every
// move of m is then a move of the relaxed game too (a run built on the
// king moves away in it, as onto a seen target), so it reaches the
// position after m with the pair exchanged, or one that holds less back:
// the cards built on the king lie free instead of on the card that took
// its place. Every move after the swap is a move of the relaxed game as
// for Dead. So if the relaxed game cannot get every card home, no line that
// makes this swap, now or later, wins.
func (g *Position) pairsDead() bool {
	a := g.allow
	if g.Stage() != rules.SwapUnused || a == nil || !a.pairsOnly {
		return false
	}
	h := a.homeKings(g)
	fans := *g.Fans() // a copy, with each pair exchanged in turn
	for _, pq := range a.pairList {
		if !a.pairIntact(pq, h) {
			continue
		}
		p, q := pq[0], pq[1]
		x, y := fans[p.f][p.k], fans[q.f][q.k]
		fans[p.f][p.k], fans[q.f][q.k] = y, x
		var r relaxation
		r.fans = &fans
		for _, pl := range pq {
			// The king that left pl counts as seen there once it is
			// uncovered.
			if c := g.Fans()[pl.f][pl.k]; c.Rank() == cards.King {
				r.hooks[r.nhooks] = relaxHook{int8(pl.f), int8(pl.k), c}
				r.nhooks++
			}
		}
		g.relaxOn(&r)
		fans[p.f][p.k], fans[q.f][q.k] = x, y
		if r.left == 0 {
			return false
		}
	}
	return true
}

// restrictSwap clears from m the swap actions that lead to no allowed swap:
// the swap's beginning when none can be made, and the picks that make
// none.
func (g *Position) restrictSwap(m *env.Mask) {
	a := g.allow
	if a == nil {
		return
	}
	switch g.Stage() {
	case rules.SwapUnused:
		if m.Has(rules.ActSwapBegin) && !a.anyAllowed(g) {
			m.Unset(rules.ActSwapBegin)
		}
	case rules.SwapFirst:
		var v view
		ok := a.look(g, &v)
		for f := range rules.NumFans {
			for k := 0; k < g.FanLen(f) && k < rules.SwapDepth; k++ {
				if !ok || !a.canPick(g, &v, f, k) {
					m.Unset(rules.ActSwap + f*rules.SwapDepth + k)
				}
			}
		}
	case rules.SwapSecond:
		var v view
		ok := a.look(g, &v)
		first := g.FirstPick()
		for f := range rules.NumFans {
			for k := 0; k < g.FanLen(f) && k < rules.SwapDepth; k++ {
				if !ok || !a.canSwap(g, &v, first, f*rules.SwapDepth+k) {
					m.Unset(rules.ActSwap + f*rules.SwapDepth + k)
				}
			}
		}
	}
}
