// Package limited is the solver's knowledge of Limited (package
// env/limited holds the rules): a position type that wraps the rules'
// game and gives the solver
//   - the key of its class of alike positions (Key: the columns, and the
//     privileged slots, are alike, so positions that differ only by their
//     order are searched once), and moves into a space offered for the
//     first space only (Prune);
//   - an evaluation for the search, the cards a greedy playout gets home
//     (SearchEvaluate, playout.go), and passes that rank moves by it and
//     by the heuristic agent's evaluation in turn (Passes): each order
//     finds wins the other misses.
//
// Importing it registers it with package solver, which then searches
// every game of Limited through it.
//
// It declares no safe moves and no dead test. Safe moves fail on rule 9
// (see package env/limited); the dead tests tried (a pair's cards waiting
// for its upper card; a bound on the cards the privileged row and the
// columns can hold while the pile comes out) cut too little to pay, and
// Limited's lost deals are lost to the columns' room, which neither
// measures: see docs/research/solver-limited.md.
package limited

import (
	"github.com/patience-gym/patience/env"
	rules "github.com/patience-gym/patience/env/limited"
	"github.com/patience-gym/patience/solver"
)

func init() { solver.Register(rules.Spec().Name, solver.WrapperOf(New)) }

// Position is a game of Limited as the solver searches it.
type Position struct {
	rules.Game
}

// New returns g's position (a copy of g) for a search.
func New(g *rules.Game) *Position { return &Position{Game: *g} }

// Clone returns an independent copy.
func (g *Position) Clone() env.Game { c := *g; return &c }

// CopyFrom makes g a copy of src (a *Position).
func (g *Position) CopyFrom(src env.Game) { *g = *src.(*Position) }

// Prune clears the moves into a space but those into the first space
// (solver.Pruner): a card moved into another space leads to a position
// alike to the one the first gives (Key: the columns are alike), which a
// search that remembers positions by Key searches once anyway; leaving
// the others out spares listing them.
func (g *Position) Prune(_ []int, m *env.Mask) {
	first := -1
	for c := range rules.NumCols {
		if len(g.Column(c)) == 0 {
			first = c
			break
		}
	}
	if first < 0 {
		return
	}
	for a := m.Next(0); a >= 0; a = m.Next(a + 1) {
		if a >= rules.ActTurn {
			continue
		}
		d := (a - rules.ActMove) % rules.NumDests
		if c := d - rules.DstColumn; c > first && len(g.Column(c)) == 0 {
			m.Unset(a)
		}
	}
}

// SearchEvaluate ranks positions for the search (solver.SearchEvaluator)
// by the cards a greedy playout gets home from them (playout.go), ties
// broken by the heuristic agent's evaluation.
func (g *Position) SearchEvaluate() float64 {
	return float64(playout(g)) + 0.05*g.Evaluate()
}

// Passes returns the search's limited passes (solver.Planner): each of
// solver.DefaultPasses twice, first ranking moves by the heuristic
// agent's evaluation (Pass.Plain), then by the playout (SearchEvaluate).
// Each order finds wins the other misses.
func (g *Position) Passes() []solver.Pass {
	var out []solver.Pass
	for _, p := range solver.DefaultPasses {
		if p.Late || p.Opening {
			continue // Limited has no move allowed once
		}
		q := p
		q.Plain = true
		out = append(out, q, p)
	}
	return out
}
