package cromwell

import (
	"fmt"
	"strconv"
	"strings"
)

// ActionString names action a: "7>F", "7>12", "swap" or "pick 7:3".
func (g *Game) ActionString(a int) string { return ActionName(a) }

// ActionName names action a (see the package doc for the forms).
func ActionName(a int) string {
	if a < 0 || a >= NumActions {
		return fmt.Sprintf("#%d", a)
	}
	kind, x, y := decode(a)
	switch kind {
	case ActFoundation:
		return fmt.Sprintf("%d>F", x+1)
	case ActMove:
		return fmt.Sprintf("%d>%d", x+1, y+1)
	case ActSwapBegin:
		return "swap"
	}
	return fmt.Sprintf("pick %d:%d", x+1, y+1)
}

// ParseActions reads "7>F", "7>12", "swap" (begin the swap), "pick 7:3" (a
// swap pick), or "swap 7:3 20:4" (the whole swap: begin and both picks).
// Spaces around ">" are allowed and "f" may be lower case.
func (g *Game) ParseActions(s string) ([]int, error) {
	t := strings.TrimSpace(s)
	low := strings.ToLower(t)
	verb, rest, _ := strings.Cut(low, " ")
	if verb == "swap" || verb == "pick" {
		fields := strings.Fields(rest)
		var ids []int
		switch {
		case verb == "swap" && len(fields) == 0:
			return []int{ActSwapBegin}, nil
		case verb == "swap" && len(fields) == 2:
			ids = append(ids, ActSwapBegin)
		case verb == "pick" && len(fields) == 1:
		default:
			return nil, fmt.Errorf("parse move %q: want \"swap\", \"pick 7:3\" or \"swap 7:3 20:4\" (cards as fan:card, card 1 the deepest)", s)
		}
		for _, p := range fields {
			fs, ks, ok := strings.Cut(p, ":")
			f, err1 := strconv.Atoi(fs)
			k, err2 := strconv.Atoi(ks)
			if !ok || err1 != nil || err2 != nil {
				return nil, fmt.Errorf("parse move %q: %q is not fan:card (like 7:3)", s, p)
			}
			if f < 1 || f > NumFans || k < 1 || k > SwapDepth {
				return nil, fmt.Errorf("parse move %q: %q is out of range (fans 1..%d, cards 1..%d from the bottom)", s, p, NumFans, SwapDepth)
			}
			ids = append(ids, ActSwap+(f-1)*SwapDepth+k-1)
		}
		return ids, nil
	}
	src, dst, ok := strings.Cut(t, ">")
	if !ok {
		return nil, fmt.Errorf("parse move %q: want \"7>F\", \"7>12\" or \"swap 7:3 20:4\"", s)
	}
	f, err := strconv.Atoi(strings.TrimSpace(src))
	if err != nil || f < 1 || f > NumFans {
		return nil, fmt.Errorf("parse move %q: %q is not a fan number 1..%d", s, strings.TrimSpace(src), NumFans)
	}
	dst = strings.TrimSpace(dst)
	if strings.EqualFold(dst, "F") {
		return []int{ActFoundation + f - 1}, nil
	}
	d, err := strconv.Atoi(dst)
	if err != nil || d < 1 || d > NumFans {
		return nil, fmt.Errorf("parse move %q: %q is neither F nor a fan number 1..%d", s, dst, NumFans)
	}
	return []int{ActMove + (f-1)*NumFans + d - 1}, nil
}
