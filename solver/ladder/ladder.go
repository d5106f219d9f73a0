// Package ladder is the solver's knowledge of Ladder (package env/ladder
// holds the rules): a position type that wraps the rules' game and
// implements the solver's optional interfaces. Importing it registers it
// with package solver, which then searches every game of Ladder through
// it. The solver sees the ladder's face-down cards and the stock: its
// verdicts are upper bounds on what a player can do.
//
// The knowledge, each piece with its reason where it is implemented:
//   - safe moves (safe.go): a card goes home without trying alternatives
//     when nothing could ever be built on it and its twin's foundation is
//     ready for it;
//   - keys (key.go): the rows are alike, so the transposition table
//     remembers a position by the contents of its rows regardless of
//     their order;
//   - pruning (prune.go): a move that neither takes nor needs the waste
//     commutes with turning the stock, so it is not tried right after a
//     turn.
package ladder

import (
	"github.com/patience-gym/patience/env"
	rules "github.com/patience-gym/patience/env/ladder"
	"github.com/patience-gym/patience/solver"
)

func init() {
	solver.Register(rules.Spec().Name, solver.WrapperOf(New))
	// Every technique, the two left out of Default too: `patience solve
	// ladder --knowledge all`.
	solver.RegisterSet(rules.Spec().Name, "all", solver.WrapperOf(func(g *rules.Game) *Position { return NewWith(g, All) }))
}

// Technique names one piece of the knowledge, so that a measurement or a
// test can switch it off (NewWith). The safe moves, keys and pruning also
// have the solver's own switches (solver.Options).
type Technique uint16

// The techniques.
const (
	// Safe is the safe moves home (safe.go).
	Safe Technique = 1 << iota
	// RowKeys keys positions by their rows' contents (key.go).
	RowKeys
	// TurnOrder leaves out moves that commute with a turn (prune.go).
	TurnOrder
	// Shifts leaves out of the limited passes the moves that only shift a
	// run from row to row (narrow.go).
	Shifts
	// Ranking ranks positions by SearchEvaluate (eval.go) rather than
	// by the heuristic agent's Evaluate.
	Ranking
	// All is every technique.
	All = Safe | RowKeys | TurnOrder | Shifts | Ranking
	// Default is the techniques a search uses unless told otherwise:
	// those that keep every verdict of the build before. Ranking and
	// Shifts find other wins at 300k nodes (70 of the 1,000 evaluation
	// deals against 22) but lose wins the build before found, some at the
	// shipped table's 50k nodes, so they are left to NewWith.
	Default = Safe | RowKeys | TurnOrder
)

// Position is a game of Ladder as the solver searches it: the rules' game
// and the techniques in use.
type Position struct {
	rules.Game
	use Technique
}

// New returns g's position (a copy of g) for a search, with the Default
// techniques.
func New(g *rules.Game) *Position { return NewWith(g, Default) }

// NewWith returns g's position (a copy of g) for a search with the
// techniques use only.
func NewWith(g *rules.Game, use Technique) *Position { return &Position{Game: *g, use: use} }

// Clone returns an independent copy.
func (g *Position) Clone() env.Game { c := *g; return &c }

// CopyFrom makes g a copy of src (a *Position).
func (g *Position) CopyFrom(src env.Game) { *g = *src.(*Position) }
