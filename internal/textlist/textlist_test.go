package textlist

import "testing"

func TestShortListsTheFirstItemsAndCountsTheRest(t *testing.T) {
	for _, c := range []struct {
		items []string
		n     int
		want  string
	}{
		{nil, 5, ""},
		{[]string{"a"}, 5, "a"},
		{[]string{"a", "b", "c"}, 3, "a, b, c"},
		{[]string{"a", "b", "c"}, 2, "a, b and 1 more"},
	} {
		if got := Short(c.items, c.n, ", "); got != c.want {
			t.Errorf("Short(%q, %d) = %q, want %q", c.items, c.n, got, c.want)
		}
	}
	if got := Short([]string{"1, 2", "3", "4"}, 2, "; "); got != "1, 2; 3 and 1 more" {
		t.Errorf("Short with \"; \" = %q", got)
	}
	if got := Numbers([]uint64{631, 1271, 2976, 3759}, 2); got != "631, 1271 and 2 more" {
		t.Errorf("Numbers = %q", got)
	}
}
