package fifteen

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/patience-gym/patience/env/cards"
)

// ActionString names action a: "3>U", "3>D", "3>7" or "emergency A3 K7".
func (g *Game) ActionString(a int) string { return ActionName(a) }

// ActionName names action a (see the package doc for the forms).
func ActionName(a int) string {
	if a < 0 || a >= NumActions {
		return fmt.Sprintf("#%d", a)
	}
	kind, x, y := decode(a)
	switch kind {
	case ActUp:
		return fmt.Sprintf("%d>U", x+1)
	case ActDown:
		return fmt.Sprintf("%d>D", x+1)
	case ActMove:
		return fmt.Sprintf("%d>%d", x+1, y+1)
	}
	name := "emergency"
	if x != 0 {
		name += fmt.Sprintf(" A%d", x)
	}
	if y != 0 {
		name += fmt.Sprintf(" K%d", y)
	}
	return name
}

// ParseActions reads "3>U" (to the up pile), "3>D" (to the down pile),
// "3>7" (column onto column) or "emergency A3 K7" (the ace from column 3's
// sixth row and the king from column 7's; either part may be left out and
// they may come in any order). Letters may be in either case, "up" and
// "down" may be spelled out and spaces around ">" are allowed.
func (g *Game) ParseActions(s string) ([]int, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	if rest, ok := strings.CutPrefix(t, "emergency"); ok {
		return parseEmergency(s, rest)
	}
	src, dst, ok := strings.Cut(t, ">")
	if !ok {
		return nil, fmt.Errorf("parse move %q: want \"3>U\", \"3>D\", \"3>7\" or \"emergency A3 K7\"", s)
	}
	c, err := strconv.Atoi(strings.TrimSpace(src))
	if err != nil || c < 1 || c > NumCols {
		return nil, fmt.Errorf("parse move %q: %q is not a column number 1..%d", s, strings.TrimSpace(src), NumCols)
	}
	switch dst = strings.TrimSpace(dst); dst {
	case "u", "up":
		return []int{ActUp + c - 1}, nil
	case "d", "down":
		return []int{ActDown + c - 1}, nil
	}
	d, err := strconv.Atoi(dst)
	if err != nil || d < 1 || d > NumCols {
		return nil, fmt.Errorf("parse move %q: %q is neither U, D nor a column number 1..%d", s, dst, NumCols)
	}
	return []int{ActMove + (c-1)*NumCols + d - 1}, nil
}

// parseEmergency reads the columns after "emergency": "a3", "k7", both or
// neither.
func parseEmergency(s, rest string) ([]int, error) {
	fields := strings.Fields(rest)
	if len(fields) > 2 {
		return nil, fmt.Errorf("parse move %q: the emergency rule names at most an ace column and a king column, like \"emergency A3 K7\"", s)
	}
	var col [2]int // ace column, king column; 1-based, 0 = none
	for _, f := range fields {
		i := strings.IndexByte("ak", f[0])
		if i < 0 {
			return nil, fmt.Errorf("parse move %q: %q is not A or K followed by a column number, like A3 or K7", s, f)
		}
		n, err := strconv.Atoi(f[1:])
		if err != nil || n < 1 || n > NumCols {
			return nil, fmt.Errorf("parse move %q: %q does not name a column 1..%d", s, f, NumCols)
		}
		if col[i] != 0 {
			return nil, fmt.Errorf("parse move %q: the emergency rule takes one %s at most", s, [2]string{"ace", "king"}[i])
		}
		col[i] = n
	}
	return []int{ActEmergency + 16*col[0] + col[1]}, nil
}

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

// Evaluate scores the position for the heuristic agent, in cards: the cards
// home, plus 1.5 for each empty lane, half a card for each available card
// that fits a pile now and half a card for each pair of available cards that
// can marry (either way). A greedy one-step agent that never repeats a
// state wins about a third of deals 0..999 on this score. Penalties for
// buried cards (a low card under a higher card of its suit, a card lying on
// one needed sooner than itself, the next card a pile needs lying under
// others) were tried and each made that agent weaker (with all of them, 4%
// of the deals instead of 22% without, at a tenth for each marriage): a
// card going home often leaves the next needed card buried, and the penalty
// then makes the agent shy of going home.
func (g *Game) Evaluate() float64 {
	score := float64(g.home)
	if g.home == cards.DeckSize {
		return score
	}
	var onTop [cards.NumCodes + 1]uint8
	for c := range NumCols {
		n := g.n[c]
		if n == 0 {
			score += 1.5
			continue
		}
		x := g.cols[c][n-1]
		onTop[x]++
		s, r := x.Suit(), uint8(x.Rank())
		if r == upNext(g.up[s]) || r == downNext(g.down[s]) {
			score += 0.5
		}
	}
	pairs := 0
	for x := cards.Card(1); x < 52; x++ {
		if x.Rank() < cards.King {
			pairs += int(onTop[x]) * int(onTop[x+1])
		}
	}
	return score + 0.5*float64(pairs)
}
