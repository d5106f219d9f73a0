package ladder

import (
	"fmt"
	"strconv"
	"strings"
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
