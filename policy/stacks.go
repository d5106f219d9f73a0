package policy

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ArrangeStacks writes into dst (len(src) cells) the observation src as a
// network with stack groups reads it: every stack of each group turned
// over, its last non-empty cell first and empty cells after, and with
// sorted the stacks of each group in ascending lexicographic order of
// their turned cells (stable). Cells outside the groups are copied.
// scratch must hold the largest group's Count×Height cells and order its
// Count. It does not allocate.
func ArrangeStacks(dst, src []uint8, groups []StackGroup, sorted bool, scratch []uint8, order []int) {
	copy(dst, src)
	for _, g := range groups {
		h := g.Height
		turned := scratch[:g.Count*h]
		for s := range g.Count {
			in := src[g.Offset+s*h : g.Offset+(s+1)*h]
			n := 0
			for n < h && in[n] != 0 {
				n++
			}
			out := turned[s*h : (s+1)*h]
			for j := range h {
				if j < n {
					out[j] = in[n-1-j]
				} else {
					out[j] = 0
				}
			}
		}
		ord := order[:g.Count]
		for s := range ord {
			ord[s] = s
		}
		if sorted {
			for i := 1; i < len(ord); i++ { // insertion sort: stable, and groups are small
				k := ord[i]
				j := i
				for j > 0 && lessBytes(turned[k*h:(k+1)*h], turned[ord[j-1]*h:(ord[j-1]+1)*h]) {
					ord[j] = ord[j-1]
					j--
				}
				ord[j] = k
			}
		}
		for s, k := range ord {
			copy(dst[g.Offset+s*h:g.Offset+(s+1)*h], turned[k*h:(k+1)*h])
		}
	}
}

// lessBytes reports whether a sorts before b (equal lengths).
func lessBytes(a, b []uint8) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// maxStackCells bounds each number of a stacks item, so that a header
// cannot ask for an absurd scratch buffer (a game's observation is far
// smaller; Check holds the groups to the game's card cells).
const maxStackCells = 1 << 20

// parseStacks reads the value of metadata stacks: OFFSET:COUNT:HEIGHT
// items separated by semicolons, the counts positive.
func parseStacks(v string) ([]StackGroup, error) {
	var groups []StackGroup
	for item := range strings.SplitSeq(v, ";") {
		var g StackGroup
		parts := strings.Split(strings.TrimSpace(item), ":")
		ok := len(parts) == 3
		for i, dst := range []*int{&g.Offset, &g.Count, &g.Height} {
			if !ok {
				break
			}
			n, err := strconv.Atoi(parts[i])
			ok = err == nil && n >= 0 && n <= maxStackCells && (i == 0 || n > 0)
			*dst = n
		}
		if !ok {
			return nil, errors.New(`want OFFSET:COUNT:HEIGHT items (counts positive) separated by semicolons, as "0:15:31"`)
		}
		groups = append(groups, g)
	}
	return groups, nil
}

// formatStacks writes stack groups as parseStacks reads them.
func formatStacks(groups []StackGroup) string {
	items := make([]string, len(groups))
	for i, g := range groups {
		items[i] = fmt.Sprintf("%d:%d:%d", g.Offset, g.Count, g.Height)
	}
	return strings.Join(items, ";")
}
