package env

import "github.com/patience-gym/patience/env/cards"

// Game is the rules of one patience game together with one state of it: the
// core every game implements. Each game package implements it once; Env gives
// every Game the same Gym semantics. Methods other than Clone must not
// allocate on the hot path (Legal, Apply, Observe, Progress, Won, CopyFrom).
//
// A game may also implement the optional interfaces Determinizer (required
// when Spec().Hidden is set), Classifier and Evaluator; Env detects them
// once, when it wraps the game.
type Game interface {
	// Spec returns the game's description. It is shared and read-only.
	Spec() *Spec
	// Deal sets the state to the start of deal number seed, dealt from
	// cards.Deal(seed) in the order the game's rules describe.
	Deal(seed uint64)
	// Legal writes the exact set of legal actions into m, which covers
	// Spec().Actions ids; ids not legal are cleared.
	Legal(m *Mask)
	// Explain returns nil if action a is legal now, or an error saying in a
	// person's words why it is not. It is the rules' own check, written apart
	// from Legal; the checker verifies that the two agree on every action.
	// Build the reasons with Reasonf, which formats them only when read.
	Explain(a int) error
	// Apply plays action a, which must be legal (Env checks the mask first),
	// including the automatic events the rules attach to it.
	Apply(a int)
	// Progress returns the number of cards that have reached their final
	// place (out of Spec().Cards). It never decreases during an episode.
	Progress() int
	// Won reports whether the game's goal is met.
	Won() bool
	// Observe writes the observation (Spec().ObsLen cells) into dst.
	Observe(dst []uint8)
	// Inventory appends every card of the state with its real face, hidden
	// or not, including foundations and removed cards, to dst. The checker
	// uses it to verify that each card exists exactly twice.
	Inventory(dst []cards.Card) []cards.Card
	// Hash returns a 64-bit hash of the full state (hidden cards included):
	// equal states have equal hashes.
	Hash() uint64
	// Clone returns an independent copy.
	Clone() Game
	// CopyFrom makes the receiver an independent copy of src, which must be
	// of the same concrete type, without allocating.
	CopyFrom(src Game)
	// ActionString returns the name of action a as a person types it
	// ("7>12", "7>F"). Names do not depend on the state.
	ActionString(a int) string
	// ParseActions reads a move a person typed and returns the action ids it
	// stands for: usually one, more when one move of the rules spans several
	// actions (Cromwell's swap picks two cards). It does not depend on the
	// state and never checks legality.
	ParseActions(s string) ([]int, error)
	// Render returns a text picture of the state a person reads at a glance.
	Render() string
}

// Determinizer is implemented by games with hidden cards (Spec().Hidden);
// Register refuses a hidden game without it.
type Determinizer interface {
	// Determinize reshuffles exactly the cards a player cannot see among the
	// places they cannot see. The result depends only on what a player sees
	// and on rng, never on the hidden order it replaces. The observation and
	// the legal actions do not change.
	Determinize(rng *cards.Rand)
}

// Classifier is implemented by games that have words of their own for some
// states (for example "first-class" in Four Quarters).
type Classifier interface {
	// Class returns the game's word for the state, or "" when it has none.
	Class() string
}

// Evaluator is implemented by games that can score a position better than
// by its progress alone; the heuristic agent and the search agents use it.
type Evaluator interface {
	// Evaluate scores the state: progress plus game knowledge, in cards,
	// higher is better. It uses only what a player sees.
	Evaluate() float64
}

// SearchEvaluator is implemented by games with an evaluation meant for a
// search that decides deals (the solver) rather than for playing: it may
// cost more than Evaluate and may read hidden cards. The solver ranks moves
// by it when a game has it, and by Evaluate otherwise.
type SearchEvaluator interface {
	// SearchEvaluate scores the state, higher is better, in cards. It must
	// not allocate.
	SearchEvaluate() float64
}

// Evaluate returns g's evaluation when it is an Evaluator, and its progress
// otherwise.
func Evaluate(g Game) float64 {
	if ev, ok := g.(Evaluator); ok {
		return ev.Evaluate()
	}
	return float64(g.Progress())
}

// Class returns g's word for its state when it is a Classifier, and ""
// otherwise.
func Class(g Game) string {
	if c, ok := g.(Classifier); ok {
		return c.Class()
	}
	return ""
}

// SafeMover is implemented by games that know moves a search may play
// without trying the alternatives (the solver's dominance moves). A safe move
// never turns a position from which the game can be won into one from which
// it cannot; each game states its rule, with the reason it holds, in its
// package documentation. A safe move makes progress (it never leads back to a
// position seen before), so a chain of safe moves ends.
type SafeMover interface {
	// SafeMove returns a legal action that is safe in the current state, or
	// -1 when the game knows none. It may read hidden cards: it serves
	// clairvoyant search. It must not allocate.
	SafeMove() int
}

// DeadTester is implemented by games with a cheap test that proves a
// position lost before the search runs out of moves.
type DeadTester interface {
	// Dead reports that the game can no longer be won from the current
	// state. False proves nothing. It may read hidden cards (it serves
	// clairvoyant search) and must not allocate.
	Dead() bool
}

// StartDeadTester is implemented by games with a dead test too costly to
// run at every position: a search runs it once, on the position it starts
// from.
type StartDeadTester interface {
	// DeadAtStart reports that the game can no longer be won from the
	// current state. False proves nothing. It may read hidden cards, take
	// up to about a second and allocate. It may also note in the state
	// what it learned, for the game's dead test (DeadTester) and pruning
	// (Pruner) to use in the positions that follow; a search calls it on
	// its own copy of the start and searches from that copy. What it
	// notes never changes the game's rules (Legal, Apply, Hash), except in
	// a game that is also a LineMapper: there the copy may play a form of
	// the game of its own, whose winning lines RulesLine maps to lines of
	// the rules.
	DeadAtStart() bool
}

// LineMapper is implemented by StartDeadTester games whose DeadAtStart may
// make a search's copy of the start play a form of the game of its own
// (Cromwell's hooked swap): one that can be won exactly when the rules'
// game can, whose lines are not all lines of the rules.
type LineMapper interface {
	// RulesLine returns line, which wins from this position (the copy that
	// DeadAtStart looked at) in the search's form of the game, as a line
	// that wins by the rules from the same position. It may allocate.
	RulesLine(line []int) []int
}

// DeadEvaluator is implemented by a SearchEvaluator and DeadTester whose
// two answers share their costly part: it gives both from one
// computation, which a search that asks both of the same position uses.
type DeadEvaluator interface {
	// SearchEvaluateDead returns SearchEvaluate() and Dead() together. It
	// must not allocate.
	SearchEvaluateDead() (score float64, dead bool)
}

// Pruner is implemented by games that know legal moves a search may leave
// out because a win never needs them: every position they lead to is
// reached by another line the search also tries (the moves commute with
// earlier ones, for example), or the moves kept lead to a win wherever
// there is one (a stubborn set of partial-order reduction, for example).
// A search calls Prune at every position it expands, with the moves that
// led there.
//
// The contract, which keeps complete a search that remembers positions
// (and so expands each position once, by whichever line first led
// there): if the start can be won, such a search, trying only the moves
// that survive Prune, meets a won position. Two rules keep it, and a game
// may use each in the positions where it applies, if it shows that the
// mix keeps the contract too. For every position p reached by a line
// whose every move survived Prune:
//   - reach: for every legal move a at p, the position after a is reached
//     by some line whose every move survives Prune, or cannot be won;
//   - progress: the moves kept at p depend on p alone, and if p can be
//     won, one of them leads to a position that can be won in fewer moves.
//
// Each game states its rule, with the reason it keeps the contract, in its
// package documentation.
type Pruner interface {
	// Prune clears from m, which holds the legal actions now, the actions
	// the search may leave out. line holds the actions that led to the
	// current state from where the search started, the latest last (empty
	// at the start). It must not allocate.
	Prune(line []int, m *Mask)
}

// Staged is implemented by games in which one move of the rules may take
// several actions (Cromwell's swap: begin, then pick two cards). A search
// does not count the actions inside such a move as moves of their own, and
// ranks them by the positions they complete.
type Staged interface {
	// Midway reports that a move of several actions is under way: the
	// next action continues it. It must not allocate.
	Midway() bool
}

// OnceMover is implemented by games with a move that the rules allow once
// per game and that takes many forms (Cromwell's swap of any two cards). A
// search does well to try its forms at the start, one at a time with small
// budgets: after it the game is one without the move, which searches
// quickly, while lines that keep it for later must weigh its many forms at
// every step. The move may take several actions (see Staged).
type OnceMover interface {
	// OnceAvailable reports that the move can still be made: neither made
	// nor under way. It must not allocate.
	OnceAvailable() bool
}

// LateOnceMover is implemented by OnceMover games whose once-allowed move
// a search may hold back until the game without it is lost: it searches
// the game as if the move were spent (with the safe moves and dead test
// of that game), and makes the move only where that game's dead test
// fires or nothing else is legal. Such a search finds the wins that need
// the move late in the game, which searches that weigh its many forms at
// every step reach too slowly; it proves nothing, since it leaves moves
// out. The methods must not allocate.
type LateOnceMover interface {
	OnceMover
	// LateMask clears from m, which holds the legal actions now, the
	// actions that begin the once-allowed move (now false), or every
	// other action (now true).
	LateMask(m *Mask, now bool)
	// LatePick clears from m, which holds the legal actions of a
	// position inside the once-allowed move (see Staged), the actions
	// that cannot lead to a position the game without the move can win;
	// it may leave m as it is.
	LatePick(m *Mask)
	// LateSafeMove is SafeMove as if the once-allowed move were spent:
	// a move the game without it never regrets, or -1. It returns -1
	// while the move is under way.
	LateSafeMove() int
	// LateDead is Dead as if the once-allowed move were spent: the
	// position cannot be won without it. It is false while the move is
	// under way.
	LateDead() bool
}

// Varianter is implemented by games that offer variants of their rules
// besides the default. A variant is chosen before dealing (Options.Variant,
// or "game:variant" as the name given to Make); the game's Spec then
// describes the variant (Spec.Variant is its name).
type Varianter interface {
	// Variants returns the names of the game's variants, the default ("")
	// excluded.
	Variants() []string
	// SetVariant selects a variant by name, "" for the default rules; an
	// unknown name is an error. It resets the state to an empty game.
	SetVariant(name string) error
}

// SafeMove returns g's safe move when it is a SafeMover, and -1 otherwise.
func SafeMove(g Game) int {
	if s, ok := g.(SafeMover); ok {
		return s.SafeMove()
	}
	return -1
}

// Dead reports whether g, a DeadTester, proves its position lost; false for
// games without the test.
func Dead(g Game) bool {
	if d, ok := g.(DeadTester); ok {
		return d.Dead()
	}
	return false
}
