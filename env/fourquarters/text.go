package fourquarters

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/patience-gym/patience/env/cards"
)

// CellName returns the name of global cell i: the arm letter and the 1-based
// cell number in the arm ("N1" … "W12").
func CellName(i int) string {
	if i < 0 || i >= NumCells {
		return fmt.Sprintf("cell#%d", i)
	}
	return string(armLetters[i/ArmCells]) + strconv.Itoa(i%ArmCells+1)
}

// ParseCell reads a cell name such as "N3" or "w12" and returns its global
// cell.
func ParseCell(s string) (int, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	if t == "" {
		return 0, fmt.Errorf("empty cell name (cells are named like N3: an arm N, E, S or W and a number 1..12)")
	}
	a := strings.IndexByte(armLetters, t[0])
	if a < 0 {
		return 0, fmt.Errorf("%q is not a cell: a cell name starts with its arm, N, E, S or W, like N3", s)
	}
	n, err := strconv.Atoi(t[1:])
	if err != nil || n < 1 || n > ArmCells {
		return 0, fmt.Errorf("%q is not a cell: the cells of an arm are numbered 1..12, like %c3", s, t[0])
	}
	return a*ArmCells + n - 1, nil
}

// ActionString names action a: "N3-N4" or "close".
func (g *Game) ActionString(a int) string { return ActionName(a) }

// ActionName names action a (see the package doc for the forms).
func ActionName(a int) string {
	switch {
	case a == ActClose:
		return "close"
	case a >= ActPair && a < ActPair+NumPairs:
		i, j := PairCells(a - ActPair)
		return CellName(i) + "-" + CellName(j)
	}
	return fmt.Sprintf("#%d", a)
}

// ParseActions reads "close" (also "close up") or a pair of touching cells of
// one arm, in either order, separated by a space, a dash or a comma: "N3 N4",
// "n4-n3", "N3,N4". The second cell may leave out its arm letter ("N3-4").
func (g *Game) ParseActions(s string) ([]int, error) {
	t := strings.ToLower(strings.Join(strings.Fields(s), " "))
	switch t {
	case "close", "close up", "closeup", "close-up":
		return []int{ActClose}, nil
	}
	parts := strings.FieldsFunc(t, func(r rune) bool { return r == ' ' || r == '-' || r == ',' })
	if len(parts) != 2 {
		return nil, fmt.Errorf("parse move %q: want a pair of touching cells of one arm, like \"N3-N4\", or \"close\"", s)
	}
	if p := parts[1]; p != "" && p[0] >= '0' && p[0] <= '9' && parts[0] != "" {
		parts[1] = parts[0][:1] + p
	}
	i, err := ParseCell(parts[0])
	if err != nil {
		return nil, fmt.Errorf("parse move %q: %v", s, err)
	}
	j, err := ParseCell(parts[1])
	if err != nil {
		return nil, fmt.Errorf("parse move %q: %v", s, err)
	}
	if i > j {
		i, j = j, i
	}
	switch {
	case i == j:
		return nil, fmt.Errorf("parse move %q: a pair needs two different cells", s)
	case i/ArmCells != j/ArmCells:
		return nil, fmt.Errorf("parse move %q: %s and %s are in different arms, and a pair belongs to one arm", s, CellName(i), CellName(j))
	case pairIndex[i][j] < 0:
		return nil, fmt.Errorf("parse move %q: %s and %s do not touch (a pair touches by a side or a corner)", s, CellName(i), CellName(j))
	}
	return []int{ActPair + int(pairIndex[i][j])}, nil
}

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

// Evaluate scores the position for the heuristic agent, in cards, from what a
// player sees: the cards removed, plus 0.75 for each card that can pair now,
// plus 0.25 for each other card that would touch a card of its rank once the
// files slid toward the hub (closing up brings them together), plus 0.1 for each
// card with a card of its rank two steps away in its arm; once the stock is
// empty, minus 0.5 for each card with no card of its rank left in its arm
// (it can never leave the cross).
func (g *Game) Evaluate() float64 {
	score := float64(g.removed)
	// Cards that pair now.
	var now uint64
	for a := range NumArms {
		for b := g.armPairMask(a); b != 0; b &= b - 1 {
			pc := armPairs[bits.TrailingZeros64(b)]
			now |= (1<<pc[0] | 1<<pc[1]) << (a * ArmCells)
		}
	}
	score += 0.75 * float64(bits.OnesCount64(now))
	// The cross after sliding every file toward the hub (without refills).
	// from[w] is the cell whose card slides to w.
	var slid, from [NumCells]uint8
	for a := range NumArms {
		for f := range 2 {
			w := a*ArmCells + f
			for d := range ArmLen {
				i := a*ArmCells + 2*d + f
				if r := rankOf[g.cells[i]]; r != 0 {
					slid[w], from[w] = r, uint8(i)
					w += 2
				}
			}
		}
	}
	var later uint64
	for p := range NumPairs {
		i, j := pairCells[p][0], pairCells[p][1]
		if slid[i] != 0 && slid[i] == slid[j] {
			later |= 1<<from[i] | 1<<from[j]
		}
	}
	score += 0.25 * float64(bits.OnesCount64(later&^now))
	// Cards two steps apart along an arm, and cards with no partner left in
	// their arm.
	near, lonely := 0, 0
	for a := range NumArms {
		var count [14]uint8
		base := a * ArmCells
		for k := range ArmCells {
			count[rankOf[g.cells[base+k]]]++
		}
		for k := range ArmCells {
			r := rankOf[g.cells[base+k]]
			if r == 0 {
				continue
			}
			if count[r] == 1 {
				lonely++
			}
			d := k / 2
			for _, e := range [...]int{d - 2, d + 2} {
				if e >= 0 && e < ArmLen && (rankOf[g.cells[base+2*e]] == r || rankOf[g.cells[base+2*e+1]] == r) {
					near++
					break
				}
			}
		}
	}
	score += 0.1 * float64(near)
	if g.next == StockSize {
		score -= 0.5 * float64(lonely)
	}
	return score
}
