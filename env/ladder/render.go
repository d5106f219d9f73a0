package ladder

import (
	"fmt"
	"strings"
)

// Render draws the counters, the foundations and the eight rows as they lie
// on the table: rows 1-4 left of the ladder with their outer card on the
// left, rows 5-8 right of it with their outer card on the right.
func (g *Game) Render() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "Foundations:  %s", &g.found)
	fmt.Fprintf(&sb, "\nHome: %d/104   Stock: %d   Waste (W): %d, top %v   Redeal: ", g.home, g.sn, g.wn, topOf(g.waste[:g.wn]))
	if g.redealt {
		sb.WriteString("used")
	} else {
		sb.WriteString("unused")
	}
	fmt.Fprintf(&sb, "\nLadder (L): %v, %d face down\n", topOf(g.ladder[:g.ln]), max(int(g.ln)-1, 0))
	// The left rows end at the ladder column; the right rows start there
	// too while the lines stay under 100 columns, else at the left margin.
	width, right := 0, 0
	for r := range NumRows / 2 {
		width = max(width, int(g.rn[r]))
		right = max(right, int(g.rn[r+NumRows/2]))
	}
	indent := width
	if 5+4*(width+right) >= 100 {
		indent = 0
	}
	for r := range NumRows {
		fmt.Fprintf(&sb, "%2d: ", r+1)
		n := int(g.rn[r])
		if r < NumRows/2 {
			sb.WriteString(strings.Repeat("    ", width-n))
			for i := n - 1; i >= 0; i-- {
				fmt.Fprintf(&sb, "%3s ", g.rows[r][i])
			}
			sb.WriteString("|")
		} else {
			sb.WriteString(strings.Repeat("    ", indent) + "|")
			for _, c := range g.rows[r][:n] {
				fmt.Fprintf(&sb, " %3s", c)
			}
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}
