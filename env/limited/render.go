package limited

import (
	"fmt"
	"strings"

	"github.com/patience-gym/patience/env/cards"
)

// Render draws the phase and counters, the foundations, the reserve (waste
// top or privileged row and fifth card) and the twelve columns, row by row
// with the exposed cards lowest; "+" marks a card paired onto the one above
// it.
func (g *Game) Render() string {
	var sb strings.Builder
	if g.second {
		fmt.Fprintf(&sb, "Limited - second deal   pile %d   home %d/104\n", g.np, g.home)
	} else {
		fmt.Fprintf(&sb, "Limited - first deal   stock %d   waste %d   home %d/104\n", g.np, g.nw, g.home)
	}
	fmt.Fprintf(&sb, "Foundations:  %s", &g.found)
	sb.WriteByte('\n')
	if g.second {
		sb.WriteString("Privileged:")
		for i, k := range g.priv {
			fmt.Fprintf(&sb, "  p%d %3s", i+1, k)
		}
		switch {
		case g.lost:
			fmt.Fprintf(&sb, "   5th %v: no move, the game is lost", g.fifth)
		case g.fifth != cards.None:
			fmt.Fprintf(&sb, "   5th %v: must be played", g.fifth)
		}
		sb.WriteByte('\n')
	} else {
		fmt.Fprintf(&sb, "Waste (w): %s\n", g.WasteTop())
	}
	sb.WriteString("    ")
	for c := range NumCols {
		fmt.Fprintf(&sb, " %4d", c+1)
	}
	sb.WriteByte('\n')
	rows := 0
	for c := range NumCols {
		rows = max(rows, int(g.n[c]))
	}
	for d := range rows {
		fmt.Fprintf(&sb, "row%d", d+1)
		for c := range NumCols {
			switch {
			case d >= int(g.n[c]):
				sb.WriteString("     ")
			case d == int(g.n[c])-1 && g.paired&(1<<c) != 0:
				fmt.Fprintf(&sb, " %4s", "+"+g.cols[c][d].String())
			default:
				fmt.Fprintf(&sb, " %4s", g.cols[c][d])
			}
		}
		sb.WriteByte('\n')
	}
	if rows == 0 {
		sb.WriteString("    (all columns empty)\n")
	}
	sb.WriteString("+ marks a card paired onto the card above it.  Moves look like: 3>F w>7 p2>5 5th>F turn deal fifth\n")
	return sb.String()
}
