package royalparade

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/patience-gym/patience/env/cards"
)

// Render draws the counters, the rectangle (base piles in brackets with
// their top card, loose cards bare, "--" for an empty cell) and the eight
// auxiliary piles from the bottom up, the available top last.
func (g *Game) Render() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "Stock %d (%d deals left)   progress %d/104   complete %d/24   dead aces %d\n",
		g.StockLen(), g.StockLen()/NumAux, g.Progress(), g.full, g.AcesOut())
	line := make([]byte, 0, 80)
	endLine := func() {
		sb.Write(bytes.TrimRight(line, " "))
		sb.WriteByte('\n')
		line = line[:0]
	}
	line = append(line, "      "...)
	for c := range Cols {
		line = fmt.Appendf(line, " %-6s", fmt.Sprintf("c%d", c+1))
	}
	endLine()
	for r := range Rows {
		line = fmt.Appendf(line, "r%d %ds ", r+1, r+2)
		for c := range Cols {
			i := r*Cols + c
			var s string
			switch top := g.cell[i]; {
			case top == cards.None:
				s = " --"
			case g.high[i] > 0:
				s = "[" + top.String() + "]"
			default:
				s = " " + top.String()
			}
			line = fmt.Appendf(line, " %-6s", s)
		}
		endLine()
	}
	for p := range NumAux {
		fmt.Fprintf(&sb, "%s:", auxName(p))
		if g.an[p] == 0 {
			sb.WriteString(" --")
		}
		for _, c := range g.aux[p][:g.an[p]] {
			fmt.Fprintf(&sb, " %s", c)
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}
