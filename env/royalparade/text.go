package royalparade

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/patience-gym/patience/env/cards"
)

// cellName names cell i (0..23) as rRcC with 1-based row and column.
func cellName(i int) string { return fmt.Sprintf("r%dc%d", i/Cols+1, i%Cols+1) }

// auxName names auxiliary pile p (0..7) as a1..a8.
func auxName(p int) string { return fmt.Sprintf("a%d", p+1) }

// sourceName names source s (0..31): a cell or an auxiliary pile.
func sourceName(s int) string {
	if s < NumCells {
		return cellName(s)
	}
	return auxName(s - NumCells)
}

// ActionString names action a: "a3>r1c5", "r2c4>r1c1" or "deal".
func (g *Game) ActionString(a int) string { return ActionName(a) }

// ActionName names action a (see the package doc for the forms).
func ActionName(a int) string {
	switch {
	case a == ActDeal:
		return "deal"
	case a < 0 || a >= NumActions:
		return fmt.Sprintf("#%d", a)
	}
	s, d := decode(a)
	return sourceName(s) + ">" + cellName(d)
}

// parsePlace reads "a3" (an auxiliary pile, source 24..31) or "r1c5" (a cell,
// 0..23), in any letter case.
func parsePlace(p string) (int, error) {
	p = strings.ToLower(strings.TrimSpace(p))
	if rest, ok := strings.CutPrefix(p, "a"); ok {
		n, err := strconv.Atoi(rest)
		if err != nil || n < 1 || n > NumAux {
			return 0, fmt.Errorf("%q is not an auxiliary pile a1..a%d", p, NumAux)
		}
		return NumCells + n - 1, nil
	}
	if rest, ok := strings.CutPrefix(p, "r"); ok {
		rs, cs, ok := strings.Cut(rest, "c")
		r, err1 := strconv.Atoi(rs)
		c, err2 := strconv.Atoi(cs)
		if ok && err1 == nil && err2 == nil && r >= 1 && r <= Rows && c >= 1 && c <= Cols {
			return (r-1)*Cols + c - 1, nil
		}
	}
	return 0, fmt.Errorf("%q is neither a cell r1c1..r%dc%d nor an auxiliary pile a1..a%d", p, Rows, Cols, NumAux)
}

// ParseActions reads "deal", "a3>r1c5" (auxiliary pile 3 to row 1, column 5)
// or "r2c4>r1c1" (a loose card to another cell). Letter case and spaces
// around ">" do not matter.
func (g *Game) ParseActions(s string) ([]int, error) {
	t := strings.TrimSpace(s)
	if strings.EqualFold(t, "deal") {
		return []int{ActDeal}, nil
	}
	src, dst, ok := strings.Cut(t, ">")
	if !ok {
		return nil, fmt.Errorf("parse move %q: want \"deal\", \"a3>r1c5\" or \"r2c4>r1c1\"", s)
	}
	from, err := parsePlace(src)
	if err != nil {
		return nil, fmt.Errorf("parse move %q: %v", s, err)
	}
	to, err := parsePlace(dst)
	if err != nil {
		return nil, fmt.Errorf("parse move %q: %v", s, err)
	}
	if to >= NumCells {
		return nil, fmt.Errorf("parse move %q: cards go to rectangle cells, never onto an auxiliary pile", s)
	}
	return []int{ActMove + from*NumCells + to}, nil
}

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

// Evaluation weights, in cards.
const (
	evalPileCard  = 0.75 // each card of an incomplete base pile
	evalWaiting   = 0.3  // a 2/3/4 waiting loose in another row
	evalBlocking  = 1.0  // a loose card holding a cell its row's bases need
	evalBuried    = 0.25 // per card lying on a card that could be played now
	evalChainLock = 0.5  // a card lying on a lower card of its own chain
	evalPlayable  = 0.2  // an available card that builds now
	evalDealLeft  = 2.0  // each deal still to come
)

// Evaluate scores the position for the heuristic agent, in cards, from what
// a player sees: progress; 0.75 a card for incomplete base piles; 0.3 for a
// 2/3/4 waiting loose in another row; minus 1 for each loose card that holds
// a cell its row will need for a base (more bases to come than empty cells);
// minus 0.25 for each card above a buried card that could be played at once
// (it fits a base or is a 2/3/4 with room in its row); minus 0.5 for each
// auxiliary card lying on a lower card of its own chain (same suit, same
// row), which it must wait for; plus 0.2 for each available card that builds
// now; plus 2 for each deal still to come, so that a deal, which buries eight
// cards, waits until the moves worth more than it are made. (Against a
// one-step greedy agent over 2000 deals, the deal weight matters most: 0.1
// won 0.8% of the deals, 2 won 5.7%.)
func (g *Game) Evaluate() float64 {
	score := float64(g.Progress())
	var want [cards.NumCodes]bool
	var room [Rows]int
	for r := range Rows {
		bases, loose := 0, 0
		for i := r * Cols; i < (r+1)*Cols; i++ {
			c, h := g.cell[i], g.high[i]
			switch {
			case c == cards.None:
				room[r]++
			case h == 0:
				loose++
				if isBase(c.Rank()) {
					score += evalWaiting
				}
			default:
				bases++
				if h < PileCards {
					score += evalPileCard * float64(h)
					want[next(c)] = true
				}
			}
		}
		if short := Cols - bases - room[r]; short > 0 {
			score -= evalBlocking * float64(min(short, loose))
		}
	}
	for s := range cards.NumSuits {
		for r := range Rows {
			if room[r] > 0 {
				want[cards.New(cards.Suit(s), baseRank(r))] = true
			}
		}
	}
	for i, c := range g.cell {
		if c != cards.None && g.high[i] == 0 && want[c] {
			score += evalPlayable
		}
	}
	for p := range NumAux {
		n := int(g.an[p])
		if n == 0 {
			continue
		}
		if want[g.aux[p][n-1]] {
			score += evalPlayable
		}
		var low [cards.NumSuits * Rows]cards.Rank
		for k, c := range g.aux[p][:n] {
			if k < n-1 && want[c] {
				score -= evalBuried * float64(n-1-k)
			}
			ch := int(c.Suit())*Rows + rowOf(c.Rank())
			if low[ch] != 0 && low[ch] < c.Rank() {
				score -= evalChainLock
			}
			if low[ch] == 0 || c.Rank() < low[ch] {
				low[ch] = c.Rank()
			}
		}
	}
	score += evalDealLeft * float64(g.StockLen()/NumAux)
	return score
}
