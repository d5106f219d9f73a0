package fourquarters

import (
	"fmt"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
)

// VariantHub names the variant of Four Quarters in which the eight cells
// next to the hub also pair across quarters (see SetVariant).
const VariantHub = "hub"

// hubCell reports whether global cell i lies next to the hub (d = 0: cells
// 1 and 2 of its arm).
func hubCell(i int) bool { return i%ArmCells < 2 }

// pairTable is the action space of a variant with pairs of its own: the
// pairs of cells it allows, in order, then closing up.
type pairTable struct {
	cells [][2]uint8
	index [NumCells][NumCells]int16 // the action of cells i < j, or -1
	close int                       // the close-up action
}

// add appends the pair of cells i < j.
func (t *pairTable) add(i, j int) {
	t.index[i][j] = int16(len(t.cells))
	t.cells = append(t.cells, [2]uint8{uint8(i), uint8(j)})
}

// pairTables are the pair tables of the variants, and variantSpecs their
// Specs (built in init, after the geometry tables).
var (
	pairTables   map[string]*pairTable
	variantSpecs map[string]*env.Spec
)

func init() {
	// The variant hub: the default pairs with their default ids, then the
	// pairs of cells next to the hub in two quarters, in order of (i, j).
	hub := &pairTable{}
	for i := range hub.index {
		for j := range hub.index[i] {
			hub.index[i][j] = -1
		}
	}
	for p := range NumPairs {
		hub.add(PairCells(p))
	}
	for i := range NumCells {
		for j := i + 1; j < NumCells; j++ {
			if hubCell(i) && hubCell(j) && i/ArmCells != j/ArmCells {
				hub.add(i, j)
			}
		}
	}
	hub.close = len(hub.cells)
	pairTables = map[string]*pairTable{VariantHub: hub}

	s := *spec
	s.Variant = VariantHub
	s.Title = "Four Quarters (hub pairs)"
	s.Summary = "48 cards in a cross of four 2x6 arms; remove touching pairs of equal rank within an arm, or any two of equal rank in the eight cells next to the hub; close up toward the hub and refill from the stock"
	s.Actions = hub.close + 1
	s.ActionRanges = []env.ActionRange{
		spec.ActionRanges[0],
		{First: NumPairs, Last: hub.close - 1, Meaning: "remove two cards of equal rank next to the hub in two different arms (cells 1 and 2 of N, E, S, W): the 24 pairs in order of global cell (N1, N2, E1, E2, S1, S2, W1, W2)"},
		{First: hub.close, Last: hub.close, Meaning: "close up: every file slides toward the hub, then empty cells are refilled from the stock in cell order"},
	}
	variantSpecs = map[string]*env.Spec{VariantHub: &s}
}

var _ env.Varianter = (*Game)(nil)

// Spec returns the game's description (the variant's, in a variant).
func (g *Game) Spec() *env.Spec {
	if v := variantSpecs[g.variant]; v != nil {
		return v
	}
	return spec
}

// Variants returns the variants besides the default rules: "hub".
func (g *Game) Variants() []string { return []string{VariantHub} }

// SetVariant selects the default rules ("") or a variant, and empties the
// game.
//
// In the variant "hub" the eight cells next to the hub (N1, N2, E1, E2, S1,
// S2, W1 and W2, where every file ends and where the text says the cards of
// a second-class ending lie) form a fifth group as well: any two cards of
// equal rank lying in two of them pair, across quarters, touching or not.
// Everything else is the default rules; the action space adds the 24 new
// pairs after the default 104 and moves closing up to id 128. Closing up
// slides every file toward those cells, so each quarter's cards can reach
// them: the variant loosens the rule that kills the default game (a card
// never leaves its quarter, so every rank must come out even in every
// quarter) without giving it up. Random play wins about 0.3 % of its
// deals, the heuristic agent about 1 %, Monte Carlo about 9 % (300 deals
// each; the default rules: none).
func (g *Game) SetVariant(name string) error {
	if name != "" && variantSpecs[name] == nil {
		return fmt.Errorf("unknown variant %q", name)
	}
	g.variant, g.pairs = name, pairTables[name]
	g.Setup([NumCells]cards.Card{}, nil)
	return nil
}

// tablePairs sets in m the legal pairs of a variant with a pair table.
func (g *Game) tablePairs(t *pairTable, m *env.Mask) {
	for p, c := range t.cells {
		if r := rankOf[g.cells[c[0]]]; r != 0 && r == rankOf[g.cells[c[1]]] {
			m.Set(ActPair + p)
		}
	}
}

// tableAny reports whether a variant with a pair table has a legal pair.
func (g *Game) tableAny(t *pairTable) bool {
	for _, c := range t.cells {
		if r := rankOf[g.cells[c[0]]]; r != 0 && r == rankOf[g.cells[c[1]]] {
			return true
		}
	}
	return false
}

// ActionCells returns the two global cells of pair action a in g's variant
// of the rules, the lower first, and ok false when a is closing up or no
// action of the variant. It reads nothing of the position.
func (g *Game) ActionCells(a int) (i, j int, ok bool) {
	if t := g.pairs; t != nil {
		if a < ActPair || a >= t.close {
			return 0, 0, false
		}
		return int(t.cells[a-ActPair][0]), int(t.cells[a-ActPair][1]), true
	}
	if a < ActPair || a >= ActClose {
		return 0, 0, false
	}
	i, j = PairCells(a - ActPair)
	return i, j, true
}

// CloseAction returns the id of closing up in g's variant of the rules.
func (g *Game) CloseAction() int {
	if t := g.pairs; t != nil {
		return t.close
	}
	return ActClose
}
