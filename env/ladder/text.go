package ladder

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/patience-gym/patience/env/cards"
)

// ActionString names action a: "3>F", "W>F", "L>F", "3>5", "3>5:4", "W>5",
// "L>5", "turn" or "redeal".
func (g *Game) ActionString(a int) string { return ActionName(a) }

// ActionName names action a (see the package doc for the forms).
func ActionName(a int) string {
	if a < 0 || a >= NumActions {
		return fmt.Sprintf("#%d", a)
	}
	kind, s, d, k := decode(a)
	switch kind {
	case ActRowHome:
		return fmt.Sprintf("%d>F", s+1)
	case ActWasteHome:
		return "W>F"
	case ActLadderHome:
		return "L>F"
	case ActBuild:
		return fmt.Sprintf("%d>%d", s+1, d+1)
	case ActEmpty:
		return fmt.Sprintf("%d>%d:%d", s+1, d+1, k)
	case ActWaste:
		return fmt.Sprintf("W>%d", d+1)
	case ActLadder:
		return fmt.Sprintf("L>%d", d+1)
	case ActTurn:
		return "turn"
	}
	return "redeal"
}

// ParseActions reads one move: "3>F", "W>F", "L>F", "3>5" (build on row 5),
// "3>5:4" (the last 4 cards of row 3 into the empty row 5), "W>5", "L>5",
// "turn" (also "t") or "redeal". Letters may be in either case and spaces
// around ">" and ":" are allowed.
func (g *Game) ParseActions(s string) ([]int, error) {
	t := strings.ToLower(strings.Join(strings.Fields(s), ""))
	switch t {
	case "turn", "t":
		return []int{ActTurn}, nil
	case "redeal":
		return []int{ActRedeal}, nil
	}
	src, dst, ok := strings.Cut(t, ">")
	if !ok {
		return nil, fmt.Errorf("parse move %q: want a move like \"3>F\", \"3>5\", \"3>5:2\", \"W>5\", \"L>F\", \"turn\" or \"redeal\"", s)
	}
	dst, count, hasCount := strings.Cut(dst, ":")
	// The destination: a foundation or a row.
	home := dst == "f"
	var d int
	if !home {
		var err error
		d, err = strconv.Atoi(dst)
		if err != nil || d < 1 || d > NumRows {
			return nil, fmt.Errorf("parse move %q: %q is neither F nor a row number 1..%d", s, dst, NumRows)
		}
		d--
	}
	k := 0
	if hasCount {
		var err error
		k, err = strconv.Atoi(count)
		if err != nil || k < 1 || k > MaxRun {
			return nil, fmt.Errorf("parse move %q: %q is not a number of cards 1..%d", s, count, MaxRun)
		}
		if home {
			return nil, fmt.Errorf("parse move %q: cards go to a foundation one at a time (write %s>F)", s, strings.ToUpper(src))
		}
	}
	switch src {
	case "w", "l":
		if hasCount {
			return nil, fmt.Errorf("parse move %q: the waste and the ladder give one card at a time (write %s>%d)", s, strings.ToUpper(src), d+1)
		}
		switch {
		case src == "w" && home:
			return []int{ActWasteHome}, nil
		case src == "w":
			return []int{ActWaste + d}, nil
		case home:
			return []int{ActLadderHome}, nil
		}
		return []int{ActLadder + d}, nil
	}
	r, err := strconv.Atoi(src)
	if err != nil || r < 1 || r > NumRows {
		return nil, fmt.Errorf("parse move %q: %q is not a row number 1..%d, W (waste) or L (ladder)", s, src, NumRows)
	}
	r--
	switch {
	case home:
		return []int{ActRowHome + r}, nil
	case hasCount:
		return []int{ActEmpty + MaxRun*(NumRows*r+d) + k - 1}, nil
	}
	return []int{ActBuild + NumRows*r + d}, nil
}

// Render draws the counters, the foundations and the eight rows as they lie
// on the table: rows 1-4 left of the ladder with their outer card on the
// left, rows 5-8 right of it with their outer card on the right.
func (g *Game) Render() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "Foundations:  %s", &g.found)
	fmt.Fprintf(&sb, "\nHome: %d/104   Stock: %d   Waste (W): %d, top %v   Redeal: ", g.home, g.sn, g.wn, top(g.waste[:g.wn]))
	if g.redealt {
		sb.WriteString("used")
	} else {
		sb.WriteString("unused")
	}
	fmt.Fprintf(&sb, "\nLadder (L): %v, %d face down\n", top(g.ladder[:g.ln]), max(int(g.ln)-1, 0))
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

// top returns the last card of s, or None.
func top(s []cards.Card) cards.Card {
	if len(s) == 0 {
		return cards.None
	}
	return s[len(s)-1]
}

// distance returns how many cards of its suit must go home before c can:
// 1 when c fits a foundation now.
func (g *Game) distance(c cards.Card) int {
	s, r := c.Suit(), uint8(c.Rank())
	f := g.found[2*s]
	if f >= r {
		f = g.found[2*s+1]
	}
	return max(int(r)-int(f), 1)
}

// Evaluate scores the position for the heuristic agent, in cards, from what a
// player sees: the cards home; minus, for each row card lying under cards
// out of sequence, half a card per break in the descending alternating
// sequence above it (a king out of the inner place counts twice: only an
// empty row takes it), divided by how far the card is from going home; plus
// half a card for each empty row and for each available card (row outer
// card, waste top, ladder card) that goes home now; minus 0.3 of a card for
// each card left in the ladder, which gives its cards one at a time and
// holds back the redeal; minus 0.05 for each card under the waste top,
// out of reach until the redeal.
func (g *Game) Evaluate() float64 {
	score := float64(g.home)
	for r := range NumRows {
		n := int(g.rn[r])
		if n == 0 {
			score += 0.5
			continue
		}
		row := &g.rows[r]
		breaks := 0
		for i := n - 1; i >= 0; i-- {
			c := row[i]
			if i < n-1 && !fits(row[i+1], c) {
				breaks++
				if row[i+1].Rank() == cards.King {
					breaks++
				}
			}
			if breaks > 0 {
				score -= 0.5 * float64(breaks) / float64(g.distance(c))
			}
		}
		if g.found.Fits(row[n-1]) {
			score += 0.5
		}
	}
	if g.wn > 0 && g.found.Fits(g.waste[g.wn-1]) {
		score += 0.5
	}
	if g.ln > 0 && g.found.Fits(g.ladder[g.ln-1]) {
		score += 0.5
	}
	score -= 0.3 * float64(g.ln)
	score -= 0.05 * float64(max(int(g.wn)-1, 0))
	return score
}
