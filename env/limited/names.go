package limited

import (
	"fmt"
	"strconv"
	"strings"
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
