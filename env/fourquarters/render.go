package fourquarters

import (
	"fmt"
	"strings"

	"github.com/patience-gym/patience/env/cards"
)

// Render draws the cross on its 14×14 grid, one text line per grid row, with
// the cell names beside the N and S arms and above and below the E and W
// arms. "--" is an empty cell, "··" the hub.
func (g *Game) Render() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "Four Quarters   stock %d   removed %d/104", g.StockLeft(), g.removed)
	if !g.anyMove() {
		switch {
		case g.removed == cards.DeckSize:
			sb.WriteString("   first-class win")
		case g.removed >= cards.DeckSize-4:
			sb.WriteString("   second-class win")
		default:
			sb.WriteString("   lost")
		}
	}
	sb.WriteByte('\n')
	cell := func(r, c int) string {
		i := CellAt(r, c)
		if i < 0 {
			if r >= 6 && r <= 7 && c >= 6 && c <= 7 {
				return "  ··"
			}
			return "    "
		}
		return fmt.Sprintf("%4s", g.cells[i])
	}
	gridRow := func(r int, label string) {
		fmt.Fprintf(&sb, "%24s", label)
		for c := 6; c < 8; c++ {
			sb.WriteString(cell(r, c))
		}
		sb.WriteByte('\n')
	}
	bandNames := func(f int) {
		for c := range GridSize {
			i := CellAt(6+f, c)
			if i < 0 {
				sb.WriteString("    ")
				continue
			}
			fmt.Fprintf(&sb, "%4s", CellName(i))
		}
		sb.WriteString("\n")
	}
	armLabel := func(r, c int) string {
		i := CellAt(r, c)
		return fmt.Sprintf("%4s%4s", CellName(i), CellName(i+1))
	}
	for r := 0; r < 6; r++ {
		gridRow(r, armLabel(r, 6))
	}
	bandNames(0)
	for r := 6; r < 8; r++ {
		for c := range GridSize {
			sb.WriteString(cell(r, c))
		}
		sb.WriteByte('\n')
	}
	bandNames(1)
	for r := 8; r < GridSize; r++ {
		gridRow(r, armLabel(r, 6))
	}
	return strings.TrimRight(sb.String(), " ")
}
