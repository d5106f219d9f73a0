package cromwell

import (
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	rules "github.com/patience-gym/patience/env/cromwell"
	"github.com/patience-gym/patience/env/zobrist"
)

// Hooked swaps: in a deal whose allowed swaps all exchange two intact
// places (swapAllow.pairsOnly), a search need not play the game before the
// swap at all. It makes the swap at the start, and plays the game after it
// with one more kind of move, for as long as the swap could still have been
// made later instead.
//
// Before the swap of an allowed pair, the cards of its two places p and q
// never move: each is a king still in the fans or lies beneath one (see
// swapAllow.intact). The only moves of that game that involve them are
// builds on a king of the pair, once it is uncovered: the run from a queen
// of its suit down, moved onto it. Every other move commutes with the
// swap. So take any line that plays moves m, then swaps p and q, then goes
// on: swapping first and then replaying m reaches the same position,
// provided each build of m onto a king of the pair is made onto the card
// that the swap put in the king's place instead. That card is on top of its
// fan exactly when the king would have been (the cards above the place are
// the same), so the build is legal there whenever it was on the king.
//
// The search therefore swaps at the start, and while none of its moves has
// yet involved the cards at p or q (built on one of them, moved one, or
// sent one home), the hook is on: the card at a place that held a king of
// the pair also takes, when it is on top, a run from that king's queen
// down, as the king would have. The first move that involves p or q turns
// the hook off for good (the swap must have been made by then). A line of
// this game maps back to the rules' game: play its moves up to the last
// build on a hook, with those builds made on the kings themselves, then the
// swap, then the rest (RulesLine); no move before the swap in that line
// involves p or q except those builds, so each is legal where it stands.
// Conversely every line of the rules' game that makes the swap maps to a
// line of this game, as above. So the position after the hooked swap can
// be won exactly when some line of the rules' game that makes that swap
// wins, and a search of the hooked swaps from the start decides the deal:
// every winning line makes an allowed swap (DeadAtStart), and the game
// without the swap is never searched (Prune keeps nothing else before the
// swap).
//
// One thing needs care: the hook's run and a run the card at the place
// takes by the rules must not be the same action (a move from fan to fan
// is named by its two fans). Both start from a card of the source fan's
// top run, which is one suit; so a deal is hooked only when every card
// swapped into a king's place is of another suit than that king
// (swapAllow.hooked), and an action onto a hook place is then a build on
// the hook exactly when the source's top run holds the hook king's queen.

// hookState is the hooked swap's part of a position.
type hookState struct {
	// on says the hook is on: the position is one of the game after a
	// hooked swap in which no move has involved the swapped places yet.
	on bool
	// arm marks the position DeadAtStart looked at, with no move made
	// since: a swap of an allowed pair made here is hooked. It is not part
	// of the position (Hash leaves it out).
	arm bool
	// last says the latest move was a build on a hook (RulesLine reads it).
	last bool
	// n is the number of hooks: the places of the pair that held a king.
	n uint8
	// at holds the hooks: the place, and the king that was there.
	at [2]hookPlace
	// pair holds the two swapped places.
	pair [2]hookPlace
}

// hookPlace is a place of the layout, and the king a hook there stands for.
type hookPlace struct {
	f, k uint8
	king cards.Card
}

// hookKey is the key mixed into the hash while the hook is on: the key of
// the rules' swap table (seed 0xc401_0003) that the rules leave unused, so
// that hashes, and with them a search's jittered move order, are those of
// the searches measured when the hook lived in the rules' game.
var hookKey = zobrist.Table(0xc401_0003, 3)[2]

// Hash returns the hash of the position: the rules' hash, with hookKey
// mixed in while the hook is on.
func (g *Position) Hash() uint64 {
	if g.hook.on {
		return g.Game.Hash() ^ hookKey
	}
	return g.Game.Hash()
}

// Legal writes the legal actions into m: the rules' actions, and while the
// hook is on, the builds on a hook (the run from the hook king's queen
// down, onto the card in the king's place when it is on top).
func (g *Position) Legal(m *env.Mask) {
	g.Game.Legal(m)
	if !g.hook.on {
		return
	}
	for i := range g.hook.n {
		p := &g.hook.at[i]
		if g.FanLen(int(p.f)) != int(p.k)+1 {
			continue
		}
		for x := range rules.NumFans {
			if x != int(p.f) && g.FanLen(x) > 0 && g.onHook(x, p.king-1) {
				m.Set(rules.ActMove + x*rules.NumFans + int(p.f))
			}
		}
	}
}

// onHook reports whether the run on top of fan x (not empty) holds the
// queen q, so that it can be built on q's king.
func (g *Position) onHook(x int, q cards.Card) bool {
	top := g.Fans()[x][g.FanLen(x)-1]
	return top.Suit() == q.Suit() && top.Rank() <= q.Rank() && int(q.Rank()) < int(top.Rank())+g.RunLen(x)
}

// Explain says why action a is illegal, or returns nil: a build on a hook
// is legal (see Legal), and every other action as the rules say.
func (g *Position) Explain(a int) error {
	if kind, x, y := rules.Decode(a); kind == rules.ActMove && g.hook.on && x != y && g.FanLen(x) > 0 {
		if _, ok := g.hookBuild(x, y); ok {
			return nil
		}
	}
	return g.Game.Explain(a)
}

// Apply plays legal action a: as the rules do, but for a build on a hook,
// which builds on the card in the king's place as on the king; and it
// keeps the hook (turned off by the first move that involves a swapped
// place, armed by a swap of an allowed pair at the armed start) and built.
func (g *Position) Apply(a int) {
	kind, x, y := rules.Decode(a)
	h := &g.hook
	h.last = false
	switch kind {
	case rules.ActFoundation:
		h.arm = false
		if h.on && g.touches(x, g.FanLen(x)-1, g.FanLen(x)-1) {
			h.on = false
		}
	case rules.ActMove:
		h.arm = false
		nx, ny := g.FanLen(x), g.FanLen(y)
		g.built = uint8(ny - 1)
		if !h.on {
			break
		}
		fans := g.Fans()
		target, top := fans[y][ny-1], fans[x][nx-1]
		i, build := g.hookBuild(x, y)
		if build {
			target = h.at[i].king
			h.last = true
		}
		k := int(target.Rank()) - int(top.Rank()) // the cards that move
		if !build && g.touches(y, ny-1, ny-1) || g.touches(x, nx-k, nx-1) {
			h.on = false
		}
		if build {
			g.MoveCards(x, y, k)
			return
		}
	case rules.ActSwap:
		if g.Stage() != rules.SwapSecond {
			break
		}
		f1, k1 := g.FirstPick()/rules.SwapDepth, g.FirstPick()%rules.SwapDepth
		fans := g.Fans()
		c1, c2 := fans[f1][k1], fans[x][y]
		g.Game.Apply(a)
		g.armHook(f1, k1, c1, x, y, c2)
		return
	}
	g.Game.Apply(a)
}

// armHook completes a swap of the places (f1, k1) and (f2, k2), whose cards
// before it were c1 and c2, as a hooked swap where it may be one: the
// position is the armed start, and the pair is allowed in a hooked deal.
func (g *Position) armHook(f1, k1 int, c1 cards.Card, f2, k2 int, c2 cards.Card) {
	arm := g.hook.arm
	g.hook.arm = false
	a := g.allow
	if !arm || a == nil || !a.hooked || !a.pairs[f1*rules.SwapDepth+k1].has(f2*rules.SwapDepth+k2) {
		return
	}
	h := &g.hook
	h.pair = [2]hookPlace{{uint8(f1), uint8(k1), c1}, {uint8(f2), uint8(k2), c2}}
	h.n = 0
	for _, p := range h.pair {
		if p.king.Rank() == cards.King {
			h.at[h.n] = p
			h.n++
		}
	}
	h.on = h.n > 0
}

// hookBuild reports whether moving from fan x onto fan y is a build on a
// hook (the hook on), and returns that hook's index in hook.at.
func (g *Position) hookBuild(x, y int) (int, bool) {
	h := &g.hook
	for i := range h.n {
		if p := &h.at[i]; int(p.f) == y && g.FanLen(y) == int(p.k)+1 && g.onHook(x, p.king-1) {
			return int(i), true
		}
	}
	return -1, false
}

// touches reports whether the cards of fan f from depth lo to hi hold one
// of the swapped places.
func (g *Position) touches(f, lo, hi int) bool {
	for _, p := range g.hook.pair {
		if int(p.f) == f && lo <= int(p.k) && int(p.k) <= hi {
			return true
		}
	}
	return false
}

// hookRelax adds the hooks to the relaxed game r: the king a hook stands
// for counts as seen once its place is uncovered, as in pairsDead.
func (g *Position) hookRelax(r *relaxation) {
	if !g.hook.on {
		return
	}
	for i := range g.hook.n {
		p := g.hook.at[i]
		r.hooks[r.nhooks] = relaxHook{int8(p.f), int8(p.k), p.king}
		r.nhooks++
	}
}

// hookTop reports whether the top card of fan f lies in a swapped place
// while the hook is on (no move may treat it as free of the hook: see
// SafeMove).
func (g *Position) hookTop(f int) bool {
	return g.hook.on && g.touches(f, g.FanLen(f)-1, g.FanLen(f)-1)
}

// RulesLine returns line, which a search found from this position, as a
// line of the rules (solver.LineMapper): where the line begins with a hooked
// swap and builds on a hook, the swap moves to just after the last such
// build, whose builds are then on the kings themselves. Any other line is
// returned as it is.
func (g *Position) RulesLine(line []int) []int {
	if !g.hook.arm || len(line) < 3 || line[0] != rules.ActSwapBegin {
		return line
	}
	st := *g
	last := -1
	for i, a := range line {
		st.Apply(a)
		if i == 2 && !st.hook.on {
			return line // not a hooked swap
		}
		if st.hook.last {
			last = i
		}
	}
	if last < 0 {
		return line
	}
	out := make([]int, 0, len(line))
	out = append(out, line[3:last+1]...)
	out = append(out, line[:3]...)
	return append(out, line[last+1:]...)
}
