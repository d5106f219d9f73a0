package cromwell

import (
	"fmt"
	"strings"
)

// Render draws the foundations, the swap state and the 26 fans, deepest card
// first, the available card last.
func (g *Game) Render() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "Foundations:  %s", &g.found)
	fmt.Fprintf(&sb, "\nHome: %d/104   Swap: ", g.home)
	switch g.swap {
	case SwapDone:
		if g.noswap {
			sb.WriteString("none (variant noswap)")
		} else {
			sb.WriteString("used")
		}
	case SwapFirst:
		sb.WriteString("under way: pick the first card (pick fan:card)")
	case SwapSecond:
		f, k := int(g.pick)/SwapDepth, int(g.pick)%SwapDepth
		fmt.Fprintf(&sb, "under way: first card %v at %d:%d, pick the second", g.fans[f][k], f+1, k+1)
	default:
		sb.WriteString("unused")
	}
	sb.WriteByte('\n')
	for f := range NumFans {
		fmt.Fprintf(&sb, "%2d:", f+1)
		for _, c := range g.fans[f][:g.n[f]] {
			fmt.Fprintf(&sb, " %3s", c)
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}
