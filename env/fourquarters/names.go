package fourquarters

import (
	"fmt"
	"strconv"
	"strings"
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

// ActionString names action a: "N3-N4" or "close" (in the variant anypair
// too, whose pairs need not touch: "N3-N9").
func (g *Game) ActionString(a int) string {
	if t := g.pairs; t != nil {
		switch {
		case a == t.close:
			return "close"
		case a >= ActPair && a < t.close:
			return CellName(int(t.cells[a-ActPair][0])) + "-" + CellName(int(t.cells[a-ActPair][1]))
		}
		return fmt.Sprintf("#%d", a)
	}
	return ActionName(a)
}

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
		if t := g.pairs; t != nil {
			return []int{t.close}, nil
		}
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
	case g.pairs != nil && g.pairs.index[i][j] >= 0:
		return []int{ActPair + int(g.pairs.index[i][j])}, nil
	case i/ArmCells != j/ArmCells:
		return nil, fmt.Errorf("parse move %q: %s and %s are in different arms, and a pair belongs to one arm", s, CellName(i), CellName(j))
	case pairIndex[i][j] < 0:
		return nil, fmt.Errorf("parse move %q: %s and %s do not touch (a pair touches by a side or a corner)", s, CellName(i), CellName(j))
	}
	return []int{ActPair + int(pairIndex[i][j])}, nil
}
