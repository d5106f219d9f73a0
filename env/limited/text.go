package limited

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/patience-gym/patience/env/cards"
)

// ActionString names action a: "3>F", "w>7", "p2>F", "5th>4", "turn",
// "deal" or "fifth".
func (g *Game) ActionString(a int) string { return ActionName(a) }

// ActionName names action a (see the package doc for the forms).
func ActionName(a int) string {
	switch {
	case a < 0 || a >= NumActions:
		return fmt.Sprintf("#%d", a)
	case a == ActTurn:
		return "turn"
	case a == ActDeal:
		return "deal"
	case a == ActFifth:
		return "fifth"
	}
	s, d := decode(a)
	dst := "F"
	if d != DstFoundation {
		dst = strconv.Itoa(d - DstColumn + 1)
	}
	return srcName(s) + ">" + dst
}

func srcName(s int) string {
	switch {
	case s < NumCols:
		return strconv.Itoa(s + 1)
	case s == SrcWaste:
		return "w"
	case s < SrcFifth:
		return "p" + strconv.Itoa(s-SrcPriv+1)
	}
	return "5th"
}

// ParseActions reads "turn", "deal", "fifth", or a card move "source>dest":
// the source is a column 1..12, "w" (the waste top), "p1".."p4" (a
// privileged card) or "5th" (the turned fifth card); the destination is "F"
// (a foundation) or a column 1..12. Letter case and spaces around ">" do not
// matter.
func (g *Game) ParseActions(s string) ([]int, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	switch t {
	case "turn":
		return []int{ActTurn}, nil
	case "deal":
		return []int{ActDeal}, nil
	case "fifth":
		return []int{ActFifth}, nil
	}
	src, dst, ok := strings.Cut(t, ">")
	if !ok {
		return nil, fmt.Errorf("parse move %q: want \"turn\", \"deal\", \"fifth\" or a move like \"3>F\", \"w>7\", \"p2>5\", \"5th>F\"", s)
	}
	src, dst = strings.TrimSpace(src), strings.TrimSpace(dst)
	from := -1
	switch {
	case src == "w":
		from = SrcWaste
	case src == "5th":
		from = SrcFifth
	case strings.HasPrefix(src, "p"):
		if i, err := strconv.Atoi(src[1:]); err == nil && i >= 1 && i <= Privileged {
			from = SrcPriv + i - 1
		}
	default:
		if c, err := strconv.Atoi(src); err == nil && c >= 1 && c <= NumCols {
			from = c - 1
		}
	}
	if from < 0 {
		return nil, fmt.Errorf("parse move %q: %q is not a source (a column 1..%d, w for the waste, p1..p4 for a privileged card, 5th for the fifth card)", s, src, NumCols)
	}
	if dst == "f" {
		return []int{ActMove + from*NumDests + DstFoundation}, nil
	}
	c, err := strconv.Atoi(dst)
	if err != nil || c < 1 || c > NumCols {
		return nil, fmt.Errorf("parse move %q: %q is neither F (a foundation) nor a column 1..%d", s, dst, NumCols)
	}
	return []int{ActMove + from*NumDests + DstColumn + c - 1}, nil
}

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

// Evaluate scores the position for the heuristic agent, in cards, from what a
// player sees: the cards home; minus, for each covered card in a column, a
// share of the cards lying on it (1/26 of a card per card above a king up to
// half a card for an ace or for the card a foundation needs next); minus a
// quarter card for each pair (it blocks its column) and reserveCost for each
// card of the reserve; plus a card for each space and half a card for each
// available card that could go home now. A greedy one-step agent on
// determinized clones wins about one deal in ten with it (random play: none).
func (g *Game) Evaluate() float64 {
	score := float64(g.home)
	for c := range NumCols {
		n := int(g.n[c])
		if n == 0 {
			score++
			continue
		}
		for d := 0; d < n-1; d++ {
			k := g.cols[c][d]
			above := float64(n - 1 - d)
			w := float64(14-int(k.Rank())) / 26 // 0.5 for an ace .. 0.04 for a king
			if g.needed(k) {
				w = 0.5
			}
			score -= w * above
		}
		top := g.cols[c][n-1]
		if g.paired&(1<<c) != 0 {
			score -= 0.25
		}
		if g.found.Fits(top) {
			score += 0.5
		}
	}
	if g.second {
		score -= reserveCost * float64(g.np)
		for _, k := range g.priv {
			if k != cards.None {
				score -= reserveCost
				if g.found.Fits(k) {
					score += 0.5
				}
			}
		}
		if g.fifth != cards.None {
			score -= reserveCost
			if g.found.Fits(g.fifth) {
				score += 0.5
			}
		}
	} else {
		score -= reserveCost * float64(g.nw)
		if g.nw > 0 && g.found.Fits(g.waste[g.nw-1]) {
			score += 0.5
		}
	}
	return score
}

// reserveCost is what a card still in the reserve (waste, pile, privileged
// row or fifth card) costs: it has to come through the narrow second deal.
// A card leaving the waste for the privileged row stays in the reserve, so
// starting the second deal changes nothing by itself.
const reserveCost = 0.7

// needed reports whether k is the next card one of its suit's foundations
// takes.
func (g *Game) needed(k cards.Card) bool { return g.found.Fits(k) }
