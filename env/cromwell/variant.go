package cromwell

import (
	"fmt"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
)

// VariantNoSwap names the variant of Cromwell without the swap of rule 7.
const VariantNoSwap = "noswap"

// The variant without the swap: docs/rules/cromwell.md with rule 7 left out.
// Its observation marks the swap used (stage 3) from the deal on.
var specNoSwap = func() *env.Spec {
	s := *spec
	s.Variant = VariantNoSwap
	s.Title = "Cromwell (no swap)"
	s.Summary = "26 open fans of 4, build down in suit, move runs; no swap"
	return &s
}()

var _ env.Varianter = (*Game)(nil)

// Spec returns the game's description (the variant's, in a variant).
func (g *Game) Spec() *env.Spec {
	if g.noswap {
		return specNoSwap
	}
	return spec
}

// Variants returns the variants besides the default: "noswap", Cromwell
// without its swap.
func (g *Game) Variants() []string { return []string{VariantNoSwap} }

// SetVariant selects the default rules ("") or the variant "noswap", and
// empties the game.
func (g *Game) SetVariant(name string) error {
	switch name {
	case "":
		g.noswap = false
	case VariantNoSwap:
		g.noswap = true
	default:
		return fmt.Errorf("unknown variant %q", name)
	}
	g.Setup(func(int, int) cards.Card { return cards.None }, 0)
	return nil
}
