package cromwell

import (
	"fmt"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
)

// The variant without the swap: docs/rules/cromwell.md with rule 7 left out. Its
// observation marks the swap used (stage 3) from the deal on.
var specNoSwap = func() *env.Spec {
	s := *spec
	s.Variant = VariantNoSwap
	s.Title = "Cromwell (no swap)"
	s.Summary = "26 open fans of 4, build down in suit, move runs; no swap"
	return &s
}()

// VariantNoSwap names the variant of Cromwell without the swap of rule 7.
const VariantNoSwap = "noswap"

// The interfaces the solver uses.
var (
	_ env.Varianter  = (*Game)(nil)
	_ env.SafeMover  = (*Game)(nil)
	_ env.DeadTester = (*Game)(nil)
)

// Variants returns the variants besides the default: "noswap", Cromwell
// without its swap.
func (g *Game) Variants() []string { return []string{VariantNoSwap} }

// SetVariant selects the default rules ("") or the variant "noswap", and
// empties the game.
func (g *Game) SetVariant(name string) error {
	switch name {
	case "":
		g.noswap = false
	case VariantNoSwap:
		g.noswap = true
	default:
		return fmt.Errorf("unknown variant %q", name)
	}
	g.Setup(func(int, int) cards.Card { return cards.None }, 0)
	return nil
}

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
func (g *Game) SafeMove() int {
	if g.swap != swapDone {
		return -1
	}
	for f := range NumFans {
		n := g.n[f]
		if n == 0 {
			continue
		}
		c := g.fans[f][n-1]
		if !g.found.Fits(c) {
			continue
		}
		// found[2s+1] is the lower of the suit's two foundations.
		if r := uint8(c.Rank()); r == uint8(cards.Ace) || g.found[2*int(c.Suit())+1] >= r-1 {
			return ActFoundation + f
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
func (g *Game) Dead() bool {
	if g.swap != swapDone {
		return false
	}
	return g.relaxed() > 0
}

// relaxed plays the relaxed game of Dead and returns the number of cards it
// cannot get home.
func (g *Game) relaxed() int {
	// cnt[s][r] counts the copies of suit s, rank r home in the relaxed
	// game; need[s][r] is what a copy in play needs of rank r−1 (two when
	// its twin is home now, else one).
	var cnt, need [cards.NumSuits][14]uint8
	for s := range cards.NumSuits {
		hi, lo := g.found[2*s], g.found[2*s+1]
		cnt[s][0] = 2
		for r := uint8(1); r <= 13; r++ {
			if hi >= r {
				cnt[s][r]++
			}
			if lo >= r {
				cnt[s][r]++
			}
			need[s][r] = cnt[s][r] + 1
		}
	}
	// top[f] is the number of cards still in place in fan f; seen[c] counts
	// the copies of card code c that are or were available as targets
	// (free, or uncovered in place).
	var top [NumFans]int8
	var seen [cards.NumCodes]uint8
	var free [cards.DeckSize]cards.Card // moved away, not yet home
	nfree, left := 0, 0
	for f := range NumFans {
		n := int(g.n[f])
		top[f] = int8(n)
		left += n
		if n > 0 {
			seen[g.fans[f][n-1]]++
		}
	}
	for changed := true; changed && left+nfree > 0; {
		changed = false
		for f := range NumFans {
			for t := int(top[f]); t > 0; t = int(top[f]) {
				c := g.fans[f][t-1]
				s, r := int(c.Suit()), c.Rank()
				nt := t - 1 // the cards left in place after this step
				if cnt[s][r-1] >= need[s][r] {
					cnt[s][r]++ // home
				} else {
					// The lowest card of the top run with a target moves
					// away, with the run above it.
					b := t - 1
					for b > 0 && g.fans[f][b-1] == g.fans[f][b]+1 && g.fans[f][b].Rank() != cards.King {
						b--
					}
					for ; b < t; b++ {
						x := g.fans[f][b]
						if x.Rank() != cards.King && seen[x+1] > 0 {
							break
						}
					}
					if b == t {
						break // stuck for now
					}
					for k := b; k < t; k++ {
						x := g.fans[f][k]
						free[nfree] = x
						nfree++
						if k < t-1 {
							seen[x]++ // the top one was seen already
						}
					}
					nt = b
				}
				left -= t - nt
				top[f] = int8(nt)
				changed = true
				if nt > 0 {
					seen[g.fans[f][nt-1]]++
				}
			}
		}
		for i := 0; i < nfree; i++ {
			c := free[i]
			s, r := int(c.Suit()), c.Rank()
			if cnt[s][r-1] >= need[s][r] {
				cnt[s][r]++
				nfree--
				free[i] = free[nfree]
				i--
				changed = true
			}
		}
	}
	return left + nfree
}

var (
	_ env.SearchEvaluator = (*Game)(nil)
	_ env.Pruner          = (*Game)(nil)
	_ env.Staged          = (*Game)(nil)
	_ env.OnceMover       = (*Game)(nil)
)

// OnceAvailable reports that the swap can still be made (env.OnceMover): it
// is neither made nor under way. The solver then tries every swap at the
// start before searching lines that keep the swap for later.
func (g *Game) OnceAvailable() bool { return g.swap == swapUnused }

// Midway reports that the swap is under way: begun, its picks not both
// made.
func (g *Game) Midway() bool { return g.swap == swapFirst || g.swap == swapSecond }

// Prune leaves out swaps that can be made earlier to the same effect. A
// swap of two cards commutes with any earlier move that neither moves one
// of them nor builds on one of them: swapping first, then making that move,
// gives the same position. So every position a swap leads to is also
// reached by a line that swaps at the start, or right after a move that
// moved or was built on one of the two cards. Prune therefore offers the
// swap only at the start of the search or right after a move from fan to
// fan, never after a move home (no card home takes part in a swap), and
// offers as the first card of the swap only a card of the top run of the
// fan that move built on: the cards moved and the card they were built on
// all lie in it. The second card may be any card.
//
// The reason this keeps every position in reach (the env.Pruner contract):
// take any line to a position p, every move of it offered by Prune, and a
// swap of cards x and y at p. Let m be the last move of the line that moved
// x or y or was built on one of them (or the start, if none). Right after
// m, Prune offers the swap with x or y, whichever m involved, as the first
// card; swapping there and replaying the rest of the line (no move of which
// touches x or y, and no move of which Prune leaves out, since only swaps are
// left out) reaches p with x and y swapped.
func (g *Game) Prune(line []int, m *env.Mask) {
	switch {
	case g.swap == swapUnused && len(line) > 0:
		if kind, _, _ := decode(line[len(line)-1]); kind != ActMove {
			m.Unset(ActSwapBegin)
		}
	case g.swap == swapFirst && len(line) > 1:
		kind, _, d := decode(line[len(line)-2])
		if kind != ActMove {
			return
		}
		// Keep the picks in the top run of fan d.
		n := int(g.n[d])
		lo := n - int(g.run[d])
		for f := range NumFans {
			for k := 0; k < int(g.n[f]) && k < SwapDepth; k++ {
				if f != d || k < lo {
					m.Unset(ActSwap + f*SwapDepth + k)
				}
			}
		}
	}
}

// SearchEvaluate ranks positions for the solver: the evaluation of Evaluate,
// less two cards for each card the relaxed game of Dead cannot get home
// (whether or not the swap is still available: a swap that frees them shows
// as a better position). It costs more than Evaluate and reads nothing
// hidden (the game has no hidden cards).
func (g *Game) SearchEvaluate() float64 {
	return g.Evaluate() - 2*float64(g.relaxed())
}
