package env

import (
	"testing"

	"github.com/patience-gym/patience/env/cards"
)

// TestColumn: a column's cards go down from its top, want apart while they
// fit in room and closer when they would not, under its place's name; the
// placements returned are the table's own, in the column's order; an empty
// column is one slot with its label.
func TestColumn(t *testing.T) {
	var tab Table
	tab.Reset(10, 10)
	cs := cards.MustParseList("KS QS JS 10S")
	col := tab.Column(2, 1, 3.15, 0.3, "3", cs, "")
	if len(col) != 4 || len(tab.Cards) != 4 || len(tab.Marks) != 1 || tab.Marks[0].Text != "3" || tab.Marks[0].Y != 0.7 {
		t.Fatalf("placements %+v, marks %+v", tab.Cards, tab.Marks)
	}
	for k, p := range col {
		if p.Card != cs[k] || p.Pos != k || p.Place != "3" || p.X != 2 || p.Y != 1+float64(k)*0.3 {
			t.Fatalf("card %d: %+v", k, p)
		}
	}
	col[3].Flags |= Picked
	if tab.Cards[3].Flags&Picked == 0 {
		t.Fatal("a flag set on a returned placement is not on the table")
	}
	long := make([]cards.Card, 20)
	for i := range long {
		long[i] = cs[i%4]
	}
	col = tab.Column(3, 1, 3.15, 0.3, "4", long, "")
	if last := col[len(col)-1]; last.Y+CardHeight > 1+3.15+1e-9 {
		t.Fatalf("a long column ends at %v, below its room (%v)", last.Y+CardHeight, 1+3.15)
	}
	n := len(tab.Cards)
	if col := tab.Column(4, 1, 3.15, 0.3, "5", nil, "lane"); col != nil || len(tab.Cards) != n+1 || tab.Cards[n].Label != "lane" || tab.Cards[n].Count != 0 {
		t.Fatalf("empty column: %v, %+v", col, tab.Cards[n:])
	}
}
