// Package textlist writes lists for messages people read: the first few
// items and how many more, so that a message about thousands of deals or
// actions stays one line.
package textlist

import (
	"fmt"
	"strings"
)

// Short joins items with sep, the first n of them only, followed by
// " and K more" when K are left out: Short([a b c], 2, ", ") is
// "a, b and 1 more". Items that hold commas read better with "; ".
func Short(items []string, n int, sep string) string {
	return join(items[:min(len(items), n)], len(items), sep)
}

// Numbers is Short for numbers, such as deal numbers, joined with ", ".
func Numbers[T ~int | ~int64 | ~uint64](xs []T, n int) string {
	shown := make([]string, min(len(xs), n))
	for i := range shown {
		shown[i] = fmt.Sprint(xs[i])
	}
	return join(shown, len(xs), ", ")
}

// join joins the items shown of a list of total items.
func join(shown []string, total int, sep string) string {
	s := strings.Join(shown, sep)
	if total > len(shown) {
		s += fmt.Sprintf(" and %d more", total-len(shown))
	}
	return s
}
