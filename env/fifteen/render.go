package fifteen

import (
	"fmt"
	"strings"

	"github.com/patience-gym/patience/env/cards"
)

// Render draws the foundations, the emergency rule's state and the 15
// columns as on the table: the first-dealt card at the top, the available
// card at the bottom of each column.
func (g *Game) Render() string {
	var sb strings.Builder
	emergency := "unused"
	if g.emergency {
		emergency = "used"
	}
	fmt.Fprintf(&sb, "Home: %d/104   Emergency rule: %s\n", g.home, emergency)
	for _, pile := range []struct {
		label string
		tops  *[cards.NumSuits]uint8
	}{{"Up   (A→K, U):", &g.up}, {"Down (K→A, D):", &g.down}} {
		sb.WriteString(pile.label)
		for s := range cards.NumSuits {
			if r := pile.tops[s]; r != 0 {
				fmt.Fprintf(&sb, "  %3s", cards.New(cards.Suit(s), cards.Rank(r)))
			} else {
				fmt.Fprintf(&sb, "  %3s", "-"+cards.Suit(s).Symbol())
			}
		}
		sb.WriteByte('\n')
	}
	height := 0
	for c := range NumCols {
		height = max(height, int(g.n[c]))
	}
	sb.WriteString("   ")
	for c := range NumCols {
		fmt.Fprintf(&sb, " %3d", c+1)
	}
	sb.WriteByte('\n')
	for k := range height {
		fmt.Fprintf(&sb, "%2d:", k+1)
		last := NumCols - 1 // the last column reaching this row
		for int(g.n[last]) <= k {
			last--
		}
		for c := range last + 1 {
			if k < int(g.n[c]) {
				fmt.Fprintf(&sb, " %3s", g.cols[c][k])
			} else {
				sb.WriteString("    ")
			}
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}
