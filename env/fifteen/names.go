package fifteen

import (
	"fmt"
	"strconv"
	"strings"
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
