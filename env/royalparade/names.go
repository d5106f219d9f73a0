package royalparade

import (
	"fmt"
	"strconv"
	"strings"
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
