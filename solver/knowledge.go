package solver

import "github.com/patience-gym/patience/env"

// The optional interfaces below are what the solver can use of a game
// beyond env.Game: it detects each once per search and falls back to the
// plain rules where a game lacks it, as io.Copy falls back to a loop where
// a reader is no io.WriterTo. None of them is needed for a correct search;
// each makes one faster. A game's rules package implements none of them:
// a search package beside the solver wraps the rules' game in a position
// type that does, and registers it (Register).

// SearchEvaluator is implemented by games with an evaluation meant for a
// search that decides deals rather than for playing: it may cost more than
// env.Evaluator's and may read hidden cards. The solver ranks moves by it
// when a game has it, and by env.Evaluator's otherwise.
type SearchEvaluator interface {
	// SearchEvaluate scores the state, higher is better, in cards. It must
	// not allocate.
	SearchEvaluate() float64
}

// Keyer is implemented by games in which different positions play alike:
// positions that differ only by a renaming of places that the rules
// cannot tell apart (Limited's columns, the cells of a row in Royal
// Parade). The transposition table then remembers positions by Key, so
// that a search expands one position of each such class; a game without
// it is remembered by Hash. Lines are still made of the moves the search
// played, and shortened and replayed by Hash.
type Keyer interface {
	// Key returns a 64-bit key of the position's class. Two positions of
	// equal Key and equal Progress must be alike: a renaming of places
	// maps one onto the other, and maps the legal moves of one onto those
	// of the other, each to a move that leads to positions alike again.
	// So one can be won exactly when the other can. Positions that play
	// differently must get different keys (up to hash collisions, which
	// cost what those of Hash do). It must not allocate.
	Key() uint64
}

// Planner is implemented by games that know a better series of limited
// passes than DefaultPasses: passes that rank moves by the game's
// env.Evaluator as well as by its SearchEvaluator (Pass.Plain), for
// example, when each order finds wins the other misses. A search whose
// Options.Passes is nil runs the game's passes; one that names its passes
// runs those.
type Planner interface {
	// Passes returns the limited passes, run in order before the last,
	// unlimited one (see DefaultPasses). It may allocate.
	Passes() []Pass
}

// SafeMover is implemented by games that know moves a search may play
// without trying the alternatives (dominance moves). A safe move never
// turns a position from which the game can be won into one from which it
// cannot; each game states its rule, with the reason it holds, where it
// implements it. A safe move makes progress (it never leads back to a
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
// make a search's copy of the start play a form of the game of its own:
// one that can be won exactly when the rules' game can, whose lines are
// not all lines of the rules (a move of the rules made at the start in a
// form that stands for making it later, for example).
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
//     by some line whose every move survives Prune (or, in a game that is
//     a Keyer, a position alike to it is), or cannot be won;
//   - progress: the moves kept at p depend on p alone, and if p can be
//     won, one of them leads to a position that can be won in fewer moves.
//
// Each game states its rule, with the reason it keeps the contract, where
// it implements it.
type Pruner interface {
	// Prune clears from m, which holds the legal actions now, the actions
	// the search may leave out. line holds the actions that led to the
	// current state from where the search started, the latest last (empty
	// at the start). It must not allocate.
	Prune(line []int, m *env.Mask)
}

// Narrower is implemented by games that know moves a search seldom needs
// although a win may need them (moves that only shift cards from one
// place to another alike, for example). The limited passes (every pass
// but the last, unlimited one) leave them out: they look for wins where
// wins usually are. A limited pass whose Narrow left a move out proves
// nothing (as one whose limit cut a move), and the unlimited pass never
// calls Narrow, so the verdicts stay exact. A search calls Narrow after
// Prune, with the same arguments.
type Narrower interface {
	// Narrow clears from m, which holds the legal actions now (after
	// Prune), actions a limited pass may leave out. line holds the actions
	// that led to the current state, the latest last. It must not
	// allocate.
	Narrow(line []int, m *env.Mask)
}

// Staged is implemented by games in which one move of the rules may take
// several actions (a move that picks two cards, one action each, for
// example). A search does not count the actions inside such a move as
// moves of their own, and ranks them by the positions they complete.
type Staged interface {
	// Midway reports that a move of several actions is under way: the
	// next action continues it. It must not allocate.
	Midway() bool
}

// OnceMover is implemented by games with a move that the rules allow once
// per game and that takes many forms (an exchange of any two cards, for
// example). A search does well to try its forms at the start, one at a
// time with small budgets: after it the game is one without the move,
// which searches quickly, while lines that keep it for later must weigh
// its many forms at every step. The move may take several actions (see
// Staged).
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
	LateMask(m *env.Mask, now bool)
	// LatePick clears from m, which holds the legal actions of a
	// position inside the once-allowed move (see Staged), the actions
	// that cannot lead to a position the game without the move can win;
	// it may leave m as it is.
	LatePick(m *env.Mask)
	// LateSafeMove is SafeMove as if the once-allowed move were spent:
	// a move the game without it never regrets, or -1. It returns -1
	// while the move is under way.
	LateSafeMove() int
	// LateDead is Dead as if the once-allowed move were spent: the
	// position cannot be won without it. It is false while the move is
	// under way.
	LateDead() bool
}
