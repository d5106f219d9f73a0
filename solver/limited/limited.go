// Package limited is the solver's knowledge of Limited (package
// env/limited holds the rules): a position type that wraps the rules'
// game. Importing it registers it with package solver, which then
// searches every game of Limited through it.
package limited

import (
	"github.com/patience-gym/patience/env"
	rules "github.com/patience-gym/patience/env/limited"
	"github.com/patience-gym/patience/solver"
)

func init() { solver.Register(rules.Spec().Name, solver.WrapperOf(New)) }

var _ solver.Keyer = (*Position)(nil)

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
