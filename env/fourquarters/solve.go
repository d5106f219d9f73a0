package fourquarters

import (
	"fmt"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
)

var _ env.DeadTester = (*Game)(nil)

// Dead reports a position from which no first-class win (every card
// removed) is possible: for some rank, more arms hold an odd number of
// cards of that rank than there are cards of that rank left in the stock. A
// pair is two cards of one rank in one arm, and a card never leaves its arm
// except in a pair, so an arm with an odd number of cards of a rank keeps
// one of them unless a card of that rank comes from the stock into it; each
// stock card comes into one arm. It reads the stock (the test serves
// clairvoyant search).
func (g *Game) Dead() bool {
	var stock [14]uint8
	for _, c := range g.stock[g.next:] {
		stock[rankOf[c]]++
	}
	var odd [14]uint8 // bit a: arm a holds an odd number of the rank
	for i, c := range g.cells {
		if c != 0 {
			odd[rankOf[c]] ^= 1 << (i / ArmCells)
		}
	}
	for r := 1; r <= 13; r++ {
		n := odd[r]&1 + odd[r]>>1&1 + odd[r]>>2&1 + odd[r]>>3&1
		if n > stock[r] {
			return true
		}
	}
	return false
}

// VariantAnyPair names the variant of Four Quarters in which a pair is any
// two cards of equal rank in one quarter, touching or not (see SetVariant).
const VariantAnyPair = "anypair"

// The action space of the variant anypair: the 66 pairs of cells of each
// arm, then closing up.
const (
	AnyArmPairs    = ArmCells * (ArmCells - 1) / 2 // 66
	NumAnyPairs    = NumArms * AnyArmPairs         // 264
	ActAnyClose    = ActPair + NumAnyPairs         // 264
	NumAnyActions  = ActAnyClose + 1               // 265
	anyPairsPerArm = AnyArmPairs
)

// anyPairCells[p] holds the two global cells of the variant's pair action
// p; anyPairIndex[i][j] the action of cells i < j of one arm, or -1.
var (
	anyPairCells [NumAnyPairs][2]uint8
	anyPairIndex [NumCells][NumCells]int16
)

func init() {
	for i := range anyPairIndex {
		for j := range anyPairIndex[i] {
			anyPairIndex[i][j] = -1
		}
	}
	p := 0
	for a := range NumArms {
		for i := 0; i < ArmCells; i++ {
			for j := i + 1; j < ArmCells; j++ {
				gi, gj := a*ArmCells+i, a*ArmCells+j
				anyPairCells[p] = [2]uint8{uint8(gi), uint8(gj)}
				anyPairIndex[gi][gj] = int16(p)
				p++
			}
		}
	}
}

// variantSpecs are the Specs of the variants.
var variantSpecs = map[string]*env.Spec{
	VariantAnyPair: func() *env.Spec {
		s := *spec
		s.Variant = VariantAnyPair
		s.Title = "Four Quarters (any pair in a quarter)"
		s.Summary = "48 cards in a cross of four 2x6 arms; remove any two cards of equal rank in one arm, touching or not; close up toward the hub and refill from the stock"
		s.Actions = NumAnyActions
		s.ActionRanges = []env.ActionRange{
			{First: ActPair, Last: ActAnyClose - 1, Meaning: "remove the pair of cells i < j (1..12) of arm a (N, E, S, W), touching or not: id = 66*a + k, k counting the pairs in order of (i, j)"},
			{First: ActAnyClose, Last: ActAnyClose, Meaning: "close up: every file slides toward the hub, then empty cells are refilled from the stock in cell order"},
		}
		return &s
	}(),
}

var _ env.Varianter = (*Game)(nil)

// Variants returns the variants besides the default rules: "anypair".
func (g *Game) Variants() []string { return []string{VariantAnyPair} }

// SetVariant selects the default rules ("") or a variant, and empties the
// game.
//
// In the variant "anypair" rule 2 drops its last condition: a pair is any
// two cards of equal rank in one quarter, whether they touch or not. The
// cross, the deal, closing up, the stock and the results are as in the
// default rules; the action space holds the 66 pairs of cells of each arm
// and closing up (265 actions), and a pair is named as in the default rules
// ("N3-N9"). It is offered as a game worth playing: in the default rules no
// agent wins a deal (see the README).
func (g *Game) SetVariant(name string) error {
	if name != "" && variantSpecs[name] == nil {
		return fmt.Errorf("unknown variant %q", name)
	}
	g.variant = name
	g.Setup([NumCells]cards.Card{}, nil)
	return nil
}

// anyPairMask sets the variant's legal pairs in m.
func (g *Game) anyPairMask(m *env.Mask) {
	for a := range NumArms {
		base := a * ArmCells
		for i := 0; i < ArmCells; i++ {
			r := rankOf[g.cells[base+i]]
			if r == 0 {
				continue
			}
			for j := i + 1; j < ArmCells; j++ {
				if rankOf[g.cells[base+j]] == r {
					m.Set(ActPair + int(anyPairIndex[base+i][base+j]))
				}
			}
		}
	}
}

// anyPairAny reports whether the variant has a legal pair.
func (g *Game) anyPairAny() bool {
	for a := range NumArms {
		var seen uint16
		for i := a * ArmCells; i < (a+1)*ArmCells; i++ {
			if r := rankOf[g.cells[i]]; r != 0 {
				if seen&(1<<r) != 0 {
					return true
				}
				seen |= 1 << r
			}
		}
	}
	return false
}
