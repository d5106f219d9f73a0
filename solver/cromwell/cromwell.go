// Package cromwell is the solver's knowledge of Cromwell (package
// env/cromwell holds the rules): a position type that wraps the rules'
// game and implements the solver's optional interfaces. Importing it
// registers it with package solver, which then searches every Cromwell
// game through it:
//
//	import _ "github.com/patience-gym/patience/solver/cromwell"
//
// It gives the solver six kinds of knowledge, each with its reason in the
// method's documentation:
//   - safe moves (SafeMove): once the swap is no longer available, a top
//     card goes home without trying alternatives when it is an ace or both
//     copies of the card one rank below it are home;
//   - a dead test (Dead): once the swap is no longer available, a relaxed
//     game in which nothing is ever lost must still get every card home
//     (relax.go), and the kings must be able to go home in some order,
//     each when one or both copies of every lower card of its suit lie
//     beneath no king still in the fans (kings never move but home, so
//     what lies beneath one waits for it: kinglock.go), and a king that
//     carries a run of its own suit whose cards' twins are home waits
//     for that run to go home or onto the other king;
//   - a dead test for the start of a search (DeadAtStart): with the swap
//     unused, the same king order must exist after some swap made at some
//     point of the game. Where the kings lock cards that only the swap can
//     free, it also lists the few swaps that get past this test
//     (swapallow.go); the search then offers only those, and Dead gives up
//     a position where none of them can be made any more. It also runs
//     the pin test (pinlock.go), too costly for every position: each step
//     of the king order is checked with the relaxed game, the cards
//     beneath kings still in the fans frozen, and where a copy of a card
//     is frozen the second copies of the higher cards of its suit are
//     followed (one that never gets home stays on a copy of the next card,
//     which then cannot get home either);
//   - pruning (Prune): a swap is offered only at the start of a search or
//     right after a move from fan to fan, with one of that move's cards;
//     every swap can be moved back to such a point. Once the swap is spent,
//     only the moves of a stubborn set are kept (stubborn.go): those that
//     lead to sending one chosen card home, or could get in their way;
//     every other move can wait. Nor is a fan that is one run moved whole
//     onto another: that uncovers nothing, and no shortest win makes such
//     a move. Where every allowed swap exchanges two cards the kings hold
//     in place, the swap is made at the start only, hooked (hook.go):
//     until a move touches one of its places, the card in a king's place
//     also takes that king's queen, so the game after it holds every line
//     that makes the swap later, and RulesLine maps its winning lines back
//     to the rules;
//   - the swap is one move of three actions (Midway), and positions are
//     ranked for search by SearchEvaluate;
//   - the swap is allowed once (OnceAvailable), so the solver's opening
//     pass tries each swap at the start, where the game that follows has
//     no swap and its safe moves and dead test apply.
package cromwell

import (
	"github.com/patience-gym/patience/env"
	rules "github.com/patience-gym/patience/env/cromwell"
	"github.com/patience-gym/patience/solver"
)

func init() { solver.Register(rules.Spec().Name, solver.WrapperOf(New)) }

// Position is a Cromwell position as the solver searches it: the rules'
// game, and what a search notes about it from DeadAtStart on (the swaps
// that can still win, a memo of the king-lock test's verdicts, and the
// hooked swap, a form of the game of the search's own: hook.go). Its
// methods other than those of hook.go are the rules' own. A Position and
// its copies belong to one search (one goroutine): they share the memo.
type Position struct {
	rules.Game
	// built is the depth, in its fan, of the card the latest move from fan
	// to fan built on (Prune reads it right after such a move). It is not
	// part of the position: Hash leaves it out.
	built uint8
	// hook is the state of a hooked swap (hook.go): only a search's own
	// position, after DeadAtStart, has one.
	hook hookState
	// allow lists the swaps that can still win, once DeadAtStart has found
	// them; nil offers every swap.
	allow *swapAllow
	// lockMemo keeps the king-lock test's verdicts, from DeadAtStart on
	// (nil: none kept).
	lockMemo *lockMemo
}

// New returns g's position (a copy of g) for a search, nothing noted yet.
func New(g *rules.Game) *Position { return &Position{Game: *g} }

// Clone returns an independent copy (sharing the memo).
func (g *Position) Clone() env.Game { c := *g; return &c }

// CopyFrom makes g a copy of src (a *Position).
func (g *Position) CopyFrom(src env.Game) { *g = *src.(*Position) }
