package limited

import (
	"github.com/patience-gym/patience/env"
	rules "github.com/patience-gym/patience/env/limited"
	"github.com/patience-gym/patience/solver"
)

func init() {
	// The proof alone: `patience solve limited --knowledge prove`.
	solver.RegisterSet(rules.Spec().Name, "prove", solver.WrapperOf(NewProving))
}

// Proving is Limited's search knowledge for proofs, the knowledge set
// "prove": the keys and the pruning of Position, no limited passes, and
// moves ranked by the heuristic agent's evaluation. The default plan runs
// twelve limited passes, each with a third of what is left of the budget,
// so the unlimited pass, the only one that can prove a deal lost, gets
// less than one percent of it; here it has all of it, at the cheaper
// evaluation (the playout costs most of a position's time). Deals where
// no line gets far are proved lost so in seconds; wins are found too, but
// fewer than the default plan finds. It is not the default for that
// reason: it is a second search for the deals the default leaves open.
type Proving Position

// NewProving returns g's position (a copy of g) for a proof.
func NewProving(g *rules.Game) *Proving { return &Proving{Game: *g} }

// Clone returns an independent copy.
func (g *Proving) Clone() env.Game { c := *g; return &c }

// CopyFrom makes g a copy of src (a *Proving).
func (g *Proving) CopyFrom(src env.Game) { *g = *src.(*Proving) }

// Key is Position's (solver.Keyer).
func (g *Proving) Key() uint64 { return (*Position)(g).Key() }

// Prune is Position's (solver.Pruner).
func (g *Proving) Prune(line []int, m *env.Mask) { (*Position)(g).Prune(line, m) }

// Passes returns no limited pass (solver.Planner): the unlimited pass
// alone searches.
func (g *Proving) Passes() []solver.Pass { return []solver.Pass{} }
