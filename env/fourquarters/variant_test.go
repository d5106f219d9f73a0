package fourquarters

import (
	"strings"
	"testing"

	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/env/envtest"
)

func TestVariantHub(t *testing.T) {
	g := New()
	if err := g.SetVariant("hub"); err != nil {
		t.Fatal(err)
	}
	spec := g.Spec()
	if spec.ID() != "fourquarters:hub" || spec.Rules() != "v1+hub" || spec.Actions != 129 || Spec().Actions != NumActions {
		t.Fatalf("spec %s %s %d actions", spec.ID(), spec.Rules(), spec.Actions)
	}
	var cells [NumCells]cards.Card
	cells[0] = cards.MustParse("5S")  // N1
	cells[13] = cards.MustParse("5H") // E2
	cells[2] = cards.MustParse("7S")  // N3
	cells[3] = cards.MustParse("7D")  // N4
	g.Setup(cells, nil)
	legal := envtest.Legal(g)
	if strings.Join(legal, " ") != "N3-N4 N1-E2 close" {
		t.Errorf("hub legal moves: %v", legal)
	}
	if a := envtest.Action(t, g, "E2-N1"); a != 104+1 {
		t.Errorf("N1-E2 is action %d", a)
	}
	// The default rules: no pair across quarters, and no such move.
	d := New()
	d.Setup(cells, nil)
	if strings.Join(envtest.Legal(d), " ") != "N3-N4 close" {
		t.Errorf("default legal moves: %v", envtest.Legal(d))
	}
	if _, err := d.ParseActions("N1-E2"); err == nil {
		t.Error("the default rules parse a pair across quarters")
	}
	// Deals are the same in both.
	g.Deal(5)
	d.Deal(5)
	if g.Hash() != d.Hash() {
		t.Error("the variant deals differently")
	}
	if err := g.SetVariant("wide"); err == nil {
		t.Error("unknown variant accepted")
	}
}

func TestVariantHubChecks(t *testing.T) { envtest.Check(t, "fourquarters:hub") }

// TestActionCells: the accessor names the cells of every pair action the
// variant offers, and nothing for closing up.
func TestActionCells(t *testing.T) {
	for _, v := range []string{"", VariantHub} {
		g := New()
		if err := g.SetVariant(v); err != nil {
			t.Fatal(err)
		}
		if _, _, ok := g.ActionCells(g.CloseAction()); ok {
			t.Errorf("variant %q: closing up has cells", v)
		}
		if g.CloseAction() != g.Spec().Actions-1 {
			t.Errorf("variant %q: close is %d, the last action is %d", v, g.CloseAction(), g.Spec().Actions-1)
		}
		for a := 0; a < g.CloseAction(); a++ {
			i, j, ok := g.ActionCells(a)
			if !ok || i >= j {
				t.Fatalf("variant %q: action %d has cells %d, %d (%v)", v, a, i, j, ok)
			}
			want := CellName(i) + "-" + CellName(j)
			if got := g.ActionString(a); got != want {
				t.Errorf("variant %q: action %d is %s, its cells %s", v, a, got, want)
			}
		}
	}
}
