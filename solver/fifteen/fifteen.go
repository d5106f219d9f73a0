// Package fifteen is the solver's knowledge of The Fifteen (package
// env/fifteen holds the rules): a position type that wraps the rules' game
// and adds its safe moves (SafeMove). Importing it registers it with
// package solver, which then searches every game of The Fifteen through
// it.
package fifteen

import (
	"github.com/patience-gym/patience/env"
	rules "github.com/patience-gym/patience/env/fifteen"
	"github.com/patience-gym/patience/solver"
)

func init() { solver.Register(rules.Spec().Name, solver.WrapperOf(New)) }

// Position is a game of The Fifteen as the solver searches it: the rules'
// game, with its safe moves.
type Position struct{ rules.Game }

// New returns g's position (a copy of g) for a search.
func New(g *rules.Game) *Position { return &Position{*g} }

// Clone returns an independent copy.
func (g *Position) Clone() env.Game { c := *g; return &c }

// CopyFrom makes g a copy of src (a *Position).
func (g *Position) CopyFrom(src env.Game) { *g = *src.(*Position) }

// SafeMove returns a column-to-pile move that never costs a win, or -1:
// the available card c of rank r goes to its suit's up pile (which shows
// r−1) when the down pile already holds r and r−1, or to the down pile
// (which shows r+1) when the up pile already holds r and r+1.
//
// Why it is safe, for the up pile (the down pile is the mirror image):
// every card of c's suit of rank r−1 up to the down pile's top is home, so
// the suit's cards still in play split into those waiting for the up pile
// (ranks r and above, one copy each) and those waiting for the down pile
// (ranks below the down pile's top, at most r−2). A marriage joins ranks one
// apart, so the two groups never touch, and the only cards that can ever be
// married onto c, or onto what lies on it, are later cards of the up pile.
// Take a winning line from the position and play it with c home at once:
// each of those cards goes home, on the up pile, at the moment the line
// would marry it into c's stack, and a move of any card of that stack is
// skipped. Every other move stays legal (a card c covered is uncovered
// sooner, and the up pile takes a card when it did before or holds it
// already), so the line still wins. The emergency rule plays no part: it
// needs every foundation empty, and the up pile already holds r−1.
func (g *Position) SafeMove() int {
	for c := range rules.NumCols {
		col := g.Column(c)
		if len(col) == 0 {
			continue
		}
		x := col[len(col)-1]
		s, r := x.Suit(), x.Rank()
		up, down := g.Up(s), g.Down(s)
		if r == g.UpTakes(s) && down != 0 && down <= r-1 {
			return rules.ActUp + c
		}
		if r == g.DownTakes(s) && up >= r+1 {
			return rules.ActDown + c
		}
	}
	return -1
}
