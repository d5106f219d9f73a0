// Package royalparade is the solver's knowledge of Royal Parade (package
// env/royalparade holds the rules): a position type that wraps the rules'
// game and gives the solver
//   - safe moves (SafeMove): a build that no other copy of the card
//     contests;
//   - a dead test (Dead): a relaxed game that keeps the auxiliary piles and
//     the order of the stock exactly and counts the cells loosely
//     (relax.go) must build every card;
//   - the key of its class of alike positions (Key: the cells of a row are
//     alike), and moves into an empty cell offered for the first empty
//     cell of each row only (Prune);
//   - an evaluation for the search, the progress of a greedy playout
//     (SearchEvaluate, playout.go), and passes that rank moves by it and
//     by the heuristic agent's evaluation in turn (Passes).
//
// Importing it registers it with package solver, which then searches every
// game of Royal Parade through it. See docs/research/solver-royalparade.md
// for what each technique decided.
package royalparade

import (
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	rules "github.com/patience-gym/patience/env/royalparade"
	"github.com/patience-gym/patience/solver"
)

func init() { solver.Register(rules.Spec().Name, solver.WrapperOf(New)) }

// Position is a game of Royal Parade as the solver searches it: the rules'
// game, with the search knowledge the package doc lists.
type Position struct{ rules.Game }

// New returns g's position (a copy of g) for a search.
func New(g *rules.Game) *Position { return &Position{*g} }

// Clone returns an independent copy.
func (g *Position) Clone() env.Game { c := *g; return &c }

// CopyFrom makes g a copy of src (a *Position).
func (g *Position) CopyFrom(src env.Game) { *g = *src.(*Position) }

// SafeMove returns a build that never costs a win, or -1: a card c (the
// top of an auxiliary pile, or a loose card) that fits a base pile, when
// its twin is built already or two base piles take c now.
//
// Why it is safe: a card other than a 2, 3 or 4 has one use only, to be
// built on a base pile of its suit in its row, and built cards never move.
// Building c now frees the place it lay in (a card below it on its pile, or
// a cell) and moves a pile on. The only thing it could spoil is the twin's
// chance: if both copies of c wait for the same single pile, which of them
// goes first decides which place is freed first. When the twin is built
// already, or when both piles of c's suit in c's row take c now, there is no
// such contest: take any winning line from the position and play it with c
// built at once, skipping c's own build; where the line builds the twin, the
// other pile takes it (the two piles are alike, and c arriving early only
// fills the place a copy of c would fill). A 2, 3 or 4 is never built (it
// is a base), so this rule never moves one.
func (g *Position) SafeMove() int {
	for s := range rules.NumSources {
		var c cards.Card
		if s < rules.NumCells {
			var h int
			if c, h = g.Cell(s); h != 0 {
				continue
			}
		} else if aux := g.Aux(s - rules.NumCells); len(aux) > 0 {
			c = aux[len(aux)-1]
		}
		if c == cards.None || rules.IsBase(c.Rank()) {
			continue
		}
		// The base piles of c's suit in c's row: those taking c now, and
		// those holding c's rank already (the twin).
		row := rules.RowOf(c.Rank())
		dst, fit, built := -1, 0, 0
		for i := row * rules.Cols; i < (row+1)*rules.Cols; i++ {
			top, h := g.Cell(i)
			if h == 0 || top.Suit() != c.Suit() {
				continue
			}
			switch {
			case rules.NextOnPile(top) == c && h < rules.PileCards:
				fit++
				if dst < 0 {
					dst = i
				}
			case top.Rank() >= c.Rank():
				built++
			}
		}
		if dst >= 0 && (built > 0 || fit == 2) {
			return rules.ActMove + s*rules.NumCells + dst
		}
	}
	return -1
}

// Dead reports that the relaxed game (relax.go), which drops the
// rectangle's cells but keeps the auxiliary piles and the order of the
// stock, cannot build every card: then the real game cannot either.
func (g *Position) Dead() bool { return relaxed(&g.Game) > 0 }

// rowKeys are the keys of the cells' contents in Key: rowKeys[r][c][h] is
// that of a cell of row r holding card c with a base pile of height h (0
// for a loose card).
var rowKeys = func() (k [rules.Rows][cards.NumCodes][rules.PileCards + 1]uint64) {
	r := cards.NewRand(0x7e9a_5e1f)
	for i := range k {
		for c := range k[i] {
			for h := range k[i][c] {
				k[i][c][h] = r.Uint64()
			}
		}
	}
	return k
}()

// Key returns the key of g's class (solver.Keyer): its Hash with the
// cells' part replaced by the sum of their contents' keys row by row, so
// that the order of the cells within a row does not count.
//
// Why positions of equal Key play alike: nothing in the rules tells the
// cells of a row apart. A cell's row says which bases it takes and where
// its card waits; its column says nothing (a card moves to any cell of a
// row, never to a column). So two positions whose rows hold the same
// contents in another order are one position with the cells of each row
// renamed, and the renaming maps every move onto a move of the same card
// to the same kind of cell. The contents are added rather than xored, so
// that two equal contents in a row do not cancel out.
func (g *Position) Key() uint64 {
	var sum uint64
	for i := range rules.NumCells {
		c, h := g.Cell(i)
		if c != cards.None {
			sum += rowKeys[i/rules.Cols][c][h]
		}
	}
	return g.Hash() ^ g.CellsHash() ^ sum
}

// SearchEvaluate ranks positions for the search (solver.SearchEvaluator)
// by the progress a greedy playout reaches from them (playout.go), ties
// broken by the heuristic agent's evaluation.
func (g *Position) SearchEvaluate() float64 {
	return playout(&g.Game) + 0.01*g.Evaluate()
}

// Prune clears the moves into an empty cell but the first of each row
// (solver.Pruner): a card moved into another empty cell of the same row
// leads to a position alike to the one the first gives (Key: the cells of
// a row are alike), which a search that remembers positions by Key
// searches once anyway; leaving the others out spares ranking them.
func (g *Position) Prune(_ []int, m *env.Mask) {
	var first [rules.Rows]int
	for r := range rules.Rows {
		first[r] = -1
		for i := r * rules.Cols; i < (r+1)*rules.Cols; i++ {
			if c, _ := g.Cell(i); c == cards.None {
				first[r] = i
				break
			}
		}
	}
	if first[0] < 0 && first[1] < 0 && first[2] < 0 {
		return
	}
	for a := m.Next(0); a >= 0; a = m.Next(a + 1) {
		if a == rules.ActDeal {
			continue
		}
		d := (a - rules.ActMove) % rules.NumCells
		if f := first[d/rules.Cols]; f >= 0 && d != f {
			if c, _ := g.Cell(d); c == cards.None {
				m.Unset(a)
			}
		}
	}
}

// Passes returns the search's limited passes (solver.Planner): each of
// solver.DefaultPasses twice, first ranking moves by the heuristic
// agent's evaluation (Pass.Plain), then by the playout (SearchEvaluate).
// Each order finds wins the other misses: on deals 500,000-500,029 at
// 300k nodes, the playout's found 3 wins the other did not find at 2M
// nodes, and missed 3 that it found.
func (g *Position) Passes() []solver.Pass {
	var out []solver.Pass
	for _, p := range solver.DefaultPasses {
		if p.Late || p.Opening {
			continue // Royal Parade has no move allowed once
		}
		q := p
		q.Plain = true
		out = append(out, q, p)
	}
	return out
}
