package cromwell

import (
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	rules "github.com/patience-gym/patience/env/cromwell"
)

// SafeMove returns a fan-to-foundation move that never costs a win, or -1.
// Once the swap is no longer available (used, or the noswap variant), a
// fan's top card c of rank r that fits a foundation is safe to send home
// when it is an ace, or when both copies of the card one rank below it are
// home already (the suit's lower foundation shows r−1 or more).
//
// Why it is safe: nothing can ever be built on c, since only a card one rank
// below it, of its suit, could be, and both are home; so c stays on top of
// whatever fan it lies in. Take any winning line from the position and play
// it with c home at once, skipping c's own moves (a move of a run that
// carried c moves the same run without it). Every other move stays legal:
// fan tops differ only where c lay on top, and the foundations take every
// card they took in the line. For the other copy c′ of c this needs care:
// with c home early, c′ needs the suit's other foundation at r−1, and that
// is where it is, since both copies of r−1 are home and the foundation
// holding c′ would hold c otherwise. (A weaker rule, allowing c home while
// one copy of r−1 is still in play, is wrong: c′ may lie on that copy, and
// then c′ has to go home first, on the one foundation showing r−1. Aces need
// no such care: a suit has two foundations and two aces.) While the swap is
// available the argument fails (the line might swap c with a buried card),
// so no move is declared safe then.
func (g *Position) SafeMove() int {
	if g.Stage() != rules.SwapDone {
		return -1
	}
	return g.safeMove()
}

// safeMove is SafeMove as if the swap were spent.
func (g *Position) safeMove() int {
	fans, found := g.Fans(), g.Foundations()
	for f := range rules.NumFans {
		n := g.FanLen(f)
		if n == 0 {
			continue
		}
		c := fans[f][n-1]
		if !found.Fits(c) || g.hookTop(f) {
			continue
		}
		// found[2s+1] is the lower of the suit's two foundations.
		if r := uint8(c.Rank()); r == uint8(cards.Ace) || found[2*int(c.Suit())+1] >= r-1 {
			return rules.ActFoundation + f
		}
	}
	return -1
}

// Dead reports a position that can no longer be won, once the swap is no
// longer available. It plays a relaxed game in which nothing is ever lost:
// a card that has left its place stays free (it can go home whenever its
// foundation is ready, and serves as a target for building), and a card
// that was once uncovered stays available as a target. In the relaxed game
// a fan's top card goes home when its foundation is ready, and a card of
// the fan's top run moves away, with the cards above it, when a copy of the
// next higher card of its suit is available; that is all. Every move of the
// real game is possible in the relaxed game too (its conditions are
// weaker), so if even the relaxed game cannot get every card home, the real
// one cannot either.
//
// The foundations are not relaxed: a card goes home after a copy of the
// rank below it, and the second copy after both. Where neither copy of a
// card is home yet, which goes first is a choice the relaxed game does not
// make, so it asks both copies for one copy of the rank below only; a card
// whose twin is home now is the second copy and needs both.
//
// Where the relaxed game gets every card home, Dead also runs the
// king-lock test (kinglock.go), which makes that choice for the kings: it
// looks for an order in which the kings can go home, each taking one or
// both copies of every lower card of its suit from among the cards no
// king still in the fans lies on, and a king that carries its own run
// waiting for it to leave (kingLocks.addRuns).
//
// With the swap unused, Dead knows only what DeadAtStart noted: when it
// listed the swaps that get past the king-lock test, a position where none
// of them can be made any more is lost (every winning line from it makes
// one of them, at the set of kings home it was listed for); and where each
// of them exchanges two intact places, a position in which the relaxed
// game, played with each such pair exchanged, cannot get every card home
// is lost too (pairsDead).
func (g *Position) Dead() bool {
	if g.Stage() != rules.SwapDone {
		return g.swapsGone() || g.pairsDead()
	}
	return g.relaxed() > 0 || g.kingLocked()
}

// DeadAtStart reports a position that cannot be won (solver.StartDeadTester):
// Dead once the swap is spent; while it is unused, the king-lock test of
// Dead with the swap made at any time (swapLocked), which costs up to
// about a second. When the position is not proved lost, it notes in the
// Position the swaps that get past that test (swapallow.go): from then on
// Prune and LatePick offer only those, and Dead, with the swap unused,
// reports a position where none of them can be made any more. The note
// goes with every copy of the Position, until DeadAtStart looks at
// another position. So does a memo of the king-lock test's verdicts
// (kingLocked), which the copies share: a Position that DeadAtStart has
// looked at, and its copies, belong to one goroutine (a search's own).
//
// On a position no DeadAtStart has looked at before (not a copy of one),
// it also runs the pin test (pinlock.go), which costs a few milliseconds
// a position (a tenth of a second at most): once the swap is spent, on
// the position itself; in a hooked deal, on the game after each allowed
// swap, and the swaps it proves lost are taken off the list. Copies (the
// roots of the solver's opening pass, searched round after round) skip
// it.
func (g *Position) DeadAtStart() bool {
	first := g.lockMemo == nil
	if first {
		g.lockMemo = new(lockMemo)
	}
	switch g.Stage() {
	case rules.SwapDone:
		return g.Dead() || (first && g.pinLocked())
	case rules.SwapUnused:
		a, empty := g.buildAllow()
		g.allow = a // replacing any list made for an earlier position
		g.hook.arm = a != nil && a.hooked
		if !empty && first && g.hook.arm {
			empty = a.dropPinned(g)
		}
		return empty
	}
	return false
}

// LateMask clears the swap's first action from m (now false), or every
// other action (now true): see solver.LateOnceMover.
func (g *Position) LateMask(m *env.Mask, now bool) {
	if !now {
		m.Unset(rules.ActSwapBegin)
		return
	}
	swap := m.Has(rules.ActSwapBegin)
	m.Clear()
	if swap {
		m.Set(rules.ActSwapBegin)
	}
}

// LatePick clears from m the swaps that DeadAtStart found cannot win, as
// Prune does, and, while the first card of a swap is being picked, the cards
// whose swap cannot get every card home in the relaxed game of Dead
// (solver.LateOnceMover): every card but those the relaxed game leaves in
// place. A swap that moves none of those leaves them as stuck as before, and
// a position that dead is cut off as soon as the swap is made. If no card is
// left in place (the relaxed game is stuck on cards already moved), m is
// left as it is.
func (g *Position) LatePick(m *env.Mask) {
	g.restrictSwap(m)
	if g.Stage() != rules.SwapFirst {
		return
	}
	var r relaxation
	g.relax(&r)
	if r.left == 0 {
		return
	}
	stuck := false
	for f := range rules.NumFans {
		if r.top[f] > 0 {
			stuck = true
			break
		}
	}
	if !stuck {
		return
	}
	for f := range rules.NumFans {
		for k := int(r.top[f]); k < g.FanLen(f); k++ {
			m.Unset(rules.ActSwap + f*rules.SwapDepth + k)
		}
	}
}

// LateSafeMove is SafeMove as if the swap were spent (solver.LateOnceMover):
// the same moves, by the same argument, for the game without the swap. It
// returns -1 while a swap is under way.
func (g *Position) LateSafeMove() int {
	if g.Stage() == rules.SwapFirst || g.Stage() == rules.SwapSecond {
		return -1
	}
	return g.safeMove()
}

// LateDead is the relaxed game's half of Dead as if the swap were spent
// (solver.LateOnceMover): the relaxed game cannot get every card home. It is
// false while a swap is under way. It leaves out the king-lock test on
// purpose: that test fires at the start of half of all deals (their kings
// lock cards that only the swap can free), and a late pass told to swap
// there would repeat the opening pass instead of finding the wins that
// need the swap late in the game. After the swap the late pass uses Dead,
// king locks included.
func (g *Position) LateDead() bool {
	if g.Stage() == rules.SwapFirst || g.Stage() == rules.SwapSecond {
		return false
	}
	return g.relaxed() > 0
}

// OnceAvailable reports that the swap can still be made (solver.OnceMover): it
// is neither made nor under way. The solver then tries every swap at the
// start before searching lines that keep the swap for later.
func (g *Position) OnceAvailable() bool { return g.Stage() == rules.SwapUnused }

// Midway reports that the swap is under way: begun, its picks not both
// made.
func (g *Position) Midway() bool {
	return g.Stage() == rules.SwapFirst || g.Stage() == rules.SwapSecond
}

// Prune leaves out the swaps that DeadAtStart found cannot win (see
// restrictSwap: each leads to a position that the king-lock test of Dead
// proves lost), and swaps that can be made earlier to the same effect. A
// swap of two cards commutes with any earlier move that neither moves one of
// them nor builds on one of them: swapping first, then making that move,
// gives the same position. So every position a swap leads to is also reached
// by a line that swaps at the start, or right after a move that moved or was
// built on one of the two cards. Prune therefore offers the swap only at the
// start of the search or right after a move from fan to fan, never after a
// move home (no card home takes part in a swap), and offers as the first
// card of the swap only one of the cards that move moved or the card it
// built on (the Position notes that card's depth: built); a card lower in the
// same run was neither. The second card may be any card. Where none of
// those cards can be the first card of a swap DeadAtStart allows, the swap
// is not offered at all (canPickAfterMove): begun, it would leave no pick.
//
// The reason this keeps every position in reach (the solver.Pruner contract):
// take any line to a position p, every move of it offered by Prune, and a
// swap of cards x and y at p. Let m be the last move of the line that moved
// x or y or was built on one of them (or the start, if none). Right after m,
// Prune offers the swap with x or y, whichever m involved, as the first
// card; swapping there and replaying the rest of the line (no move of which
// touches x or y, and no move of which Prune leaves out, since only swaps
// are left out) reaches p with x and y swapped. Where that swap right after
// m is not one DeadAtStart allows, no line through it wins (DeadAtStart
// lists every swap a winning line makes, with the kings home when it makes
// it), so p with x and y swapped cannot be won either: the contract lets the
// search miss it.
//
// In a hooked deal (hook.go: every allowed swap exchanges two intact
// places, none a king with a card of its suit), Prune keeps at the start
// of a search only the swap, which is then hooked, and before the swap
// nothing else: the hooked game after it can be won exactly when some line
// that makes that swap, at any time, wins, and every winning line makes
// one of the allowed swaps. (At a position before the swap that a search
// proving nothing starts from, such as a root of the opening pass, it
// keeps the swap alone, where the rule above offers it.)
//
// Once the swap is spent (or in the variant without it), Prune keeps only
// the moves of a stubborn set (stubborn.go), chosen from the position
// alone: where the position can be won, one of them leads to a position
// that can be won in fewer moves (the progress rule of the contract).
// Unless a hook is on, it then also drops every move that takes the whole
// of its fan, a fan that is one run R, onto a card T: no shortest winning
// line makes such a move, so the set still holds the first move of one.
// The reason: let X be the position before the move and Y the one after.
// X can follow any line from Y move for move, with R left in its own fan
// standing in for the R on T. A move of the top of R, onto R or home is
// the same move from R's fan; a move of a run that holds T (and so what
// is left of R) is made from T down, R staying in its own fan as the
// cards that lie on T; a move onto T is one X has and Y lacks. When R
// is gone the two positions are the same, and while R lasts X has every
// move of Y. So a win from Y in k moves is a win from X in k moves,
// which is shorter than the k+1 of the line that made the move.
// Before the swap, in a deal whose allowed swaps all exchange two intact
// places (swapAllow.pairsOnly), it also keeps only the moves home and from
// fan to fan of a stubborn set that counts every swap as one of its moves
// (stubborn.swapMoves); the swap itself is offered as above.
//
// Why the mix keeps the contract. First, a position q met by the search,
// the swap unused, from which a winning line swaps x and y, and in which
// the search met q by a line L: right after the last move of L that moved
// x or y or was built on one of them, Prune offered that swap (as above),
// and the search expanded the position it makes. From there the rest of L,
// swap made, reaches q with x and y swapped, from which the winning line
// goes on: that position after the swap can be won, and from it the moves
// the stubborn sets keep lead, ever nearer, to a won position, which a
// search that expands every position it meets therefore meets. Now take a
// position p met by the search, the swap unused, that can be won, and a
// shortest winning line from it. Where Prune keeps every move home and
// from fan to fan at p, the line's first move, or the swap at p (the case
// above), is searched. Where it keeps a stubborn set's, let a be the
// line's first move in the set: if a is the swap, the moves before it
// touch neither of its cards (those moves are in the set) and the case
// above applies to p; otherwise a, made first, starts a winning line one
// move shorter from the position after it, which the search meets. Either
// way, by induction on the length of the shortest winning line, the
// search meets a won position; and a line without the swap is the case
// of a stubborn set without swaps.
func (g *Position) Prune(line []int, m *env.Mask) {
	if g.Stage() == rules.SwapDone {
		g.pruneStubborn(m)
		if !g.hook.on {
			g.pruneWholeFans(m)
		}
		return
	}
	g.restrictSwap(m)
	if a := g.allow; a != nil && a.hooked && g.Stage() == rules.SwapUnused {
		// The hooked swap at the start (hook.go), nothing else. Elsewhere
		// before the swap (where only a search that proves nothing, such
		// as the opening pass's roots, goes) the swap alone, where it may
		// be made as below.
		swap := m.Has(rules.ActSwapBegin) && (g.hook.arm || len(line) == 0 || g.swapAfterMove(line))
		m.Clear()
		if swap {
			m.Set(rules.ActSwapBegin)
		}
		return
	}
	switch {
	case g.Stage() == rules.SwapUnused:
		if len(line) > 0 && m.Has(rules.ActSwapBegin) && !g.swapAfterMove(line) {
			m.Unset(rules.ActSwapBegin)
		}
		if a := g.allow; a != nil && a.pairsOnly {
			g.pruneStubborn(m)
		}
	case g.Stage() == rules.SwapFirst && len(line) > 1:
		kind, _, d := rules.Decode(line[len(line)-2])
		if kind != rules.ActMove {
			return
		}
		// Keep the picks among the cards moved and the card built on.
		lo := int(g.built)
		for f := range rules.NumFans {
			for k := 0; k < g.FanLen(f) && k < rules.SwapDepth; k++ {
				if f != d || k < lo {
					m.Unset(rules.ActSwap + f*rules.SwapDepth + k)
				}
			}
		}
	}
}

// pruneWholeFans clears from m the moves from fan to fan that take every
// card of their fan (the fan is one run, moved whole): see Prune. Only for
// the game of rules 1-6 and 8 (the swap spent, no hook on).
func (g *Position) pruneWholeFans(m *env.Mask) {
	for a := m.Next(rules.ActMove); a >= 0 && a < rules.ActSwapBegin; a = m.Next(a + 1) {
		_, s, d := rules.Decode(a)
		fans := g.Fans()
		top, target := fans[s][g.FanLen(s)-1], fans[d][g.FanLen(d)-1]
		if int(target.Rank())-int(top.Rank()) == g.FanLen(s) {
			m.Unset(a)
		}
	}
}

// swapAfterMove reports whether the swap may begin after the last move of
// line: a move from fan to fan that leaves a first pick (canPickAfterMove).
func (g *Position) swapAfterMove(line []int) bool {
	kind, _, d := rules.Decode(line[len(line)-1])
	return kind == rules.ActMove && g.canPickAfterMove(d)
}

// canPickAfterMove reports whether one of the cards of fan d from the card
// the latest move built on up can be the first card of a swap DeadAtStart
// allows. Right after a move onto fan d, Prune offers only those as the
// first card, so it does not offer to begin the swap when there is none.
func (g *Position) canPickAfterMove(d int) bool {
	a := g.allow
	if a == nil {
		return true
	}
	var v view
	if !a.look(g, &v) {
		return false
	}
	for k := int(g.built); k < g.FanLen(d) && k < rules.SwapDepth; k++ {
		if a.canPick(g, &v, d, k) {
			return true
		}
	}
	return false
}

// SearchEvaluate ranks positions for the solver: the evaluation of Evaluate,
// less two cards for each card the relaxed game of Dead cannot get home
// (whether or not the swap is still available: a swap that frees them shows
// as a better position). It costs more than Evaluate and reads nothing
// hidden (the game has no hidden cards).
func (g *Position) SearchEvaluate() float64 {
	return g.Evaluate() - 2*float64(g.relaxed())
}

// SearchEvaluateDead returns SearchEvaluate and Dead from one play of the
// relaxed game (solver.DeadEvaluator).
func (g *Position) SearchEvaluateDead() (float64, bool) {
	left := g.relaxed()
	if g.Stage() != rules.SwapDone {
		return g.Evaluate() - 2*float64(left), g.swapsGone() || g.pairsDead()
	}
	return g.Evaluate() - 2*float64(left), left > 0 || g.kingLocked()
}
