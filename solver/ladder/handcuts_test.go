package ladder

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	rules "github.com/patience-gym/patience/env/ladder"
	"github.com/patience-gym/patience/solver"
	"github.com/patience-gym/patience/solver/internal/solvertest"
)

// foundations sets g's two foundations of every suit to the ranks given
// for clubs, diamonds, hearts and spades, in that order.
func foundations(g *rules.Game, ranks ...[2]cards.Rank) {
	for s, r := range ranks {
		g.SetFoundation(cards.Suit(s), r[0], r[1])
	}
}

// TestSafeMoveHomeByHand: a 5♠ at the outer end of row 1 goes home at once
// only when both 4♠ are home and so are the four red 4s that could be
// built on it; an ace always does; with the technique off, nothing does.
func TestSafeMoveHomeByHand(t *testing.T) {
	four := [2]cards.Rank{4, 4}
	for _, c := range []struct {
		name  string
		found [][2]cards.Rank // clubs, diamonds, hearts, spades
		outer string
		use   Technique
		safe  bool
	}{
		{"every 4 home", [][2]cards.Rank{four, four, four, four}, "5S", Default, true},
		{"a 4♠ not home", [][2]cards.Rank{{0, 0}, four, four, {4, 3}}, "5S", Default, false},
		{"a 4♥ not home, which could go on 5♠", [][2]cards.Rank{{0, 0}, four, {4, 3}, four}, "5S", Default, false},
		{"the 4♣s not home: they never go on 5♠", [][2]cards.Rank{{0, 0}, four, four, four}, "5S", Default, true},
		{"an ace", [][2]cards.Rank{{0, 0}, {0, 0}, {0, 0}, {0, 0}}, "AC", Default, true},
		{"the technique off", [][2]cards.Rank{{0, 0}, four, four, four}, "5S", Default &^ Safe, false},
	} {
		g := rules.New()
		g.SetRows(cards.MustParseList("KD "+c.outer), cards.MustParseList("QC"))
		foundations(g, c.found...)
		want := -1
		if c.safe {
			want = rules.ActRowHome + 0
		}
		if got := NewWith(g, c.use).SafeMove(); got != want {
			t.Errorf("%s: SafeMove %d, want %d", c.name, got, want)
		}
	}
}

// TestSearchEvaluateByHand: with Ranking, the search's evaluation adds a
// card for each card out of the ladder and for each empty row to the
// heuristic agent's; without it, it is the agent's.
func TestSearchEvaluateByHand(t *testing.T) {
	g := rules.New()
	g.SetRows(cards.MustParseList("KD QC"), cards.MustParseList("9H"))
	g.SetLadder(cards.MustParseList("2S 3S 4S"))
	base := NewWith(g, Default).SearchEvaluate()
	if base != g.Evaluate() {
		t.Errorf("without Ranking: %v, want Evaluate's %v", base, g.Evaluate())
	}
	dug, empty := rules.LadderSize-3, rules.NumRows-2
	if got := NewWith(g, All).SearchEvaluate(); got != base+float64(dug+empty) {
		t.Errorf("with Ranking: %v, want %v + %d cards out of the ladder + %d empty rows", got, base, dug, empty)
	}
}

// TestEveryTechniqueKeepsVerdicts is TestKeepsVerdicts for the search
// with every technique (NewWith(g, All)), the narrowing of the shifts and
// the search's own ranking included, which the default leaves out.
func TestEveryTechniqueKeepsVerdicts(t *testing.T) {
	n := 200
	if *stress > 0 {
		n = *stress
	}
	plain := solvertest.New(t, solvertest.Plain(50000, 18))
	all := map[string]*solver.Solver{"every technique": solvertest.New(t, solver.Options{Nodes: 50000, TableBits: 18})}
	rng := cards.NewRand(5)
	won := 0
	for i := range n {
		g := tiny(rng, i%2 == 1)
		want := plain.Solve(t.Context(), g).Verdict
		if want == solver.Unknown {
			continue
		}
		if want == solver.Solved {
			won++
		}
		solvertest.Agree(t, fmt.Sprint("position ", i), NewWith(g, All), want, all)
	}
	if won < n/2 {
		t.Errorf("too few positions won: %d of %d", won, n)
	}
}

// TestKnowledgeSetAll: solver.Options.Knowledge "all" (`patience solve
// ladder --knowledge all`) searches a game of the rules as NewWith(g, All)
// does, which is not as the default does; another set name searches
// nothing.
func TestKnowledgeSetAll(t *testing.T) {
	if sets := solver.KnowledgeSets(rules.Spec().Name); len(sets) != 1 || sets[0] != "all" {
		t.Fatalf("ladder's sets of search knowledge: %v", sets)
	}
	g := rules.New()
	g.Deal(1000042)
	solve := func(o solver.Options, pos env.Game) solver.Result {
		t.Helper()
		o.Nodes, o.TableBits = 20000, 16
		s, err := solver.New(o)
		if err != nil {
			t.Fatal(err)
		}
		return s.Solve(context.Background(), pos)
	}
	viaSet := solve(solver.Options{Knowledge: "all"}, g)
	direct := solve(solver.Options{}, NewWith(g, All))
	plain := solve(solver.Options{}, g)
	if viaSet.Verdict != direct.Verdict || viaSet.Nodes != direct.Nodes || viaSet.Best != direct.Best || viaSet.MaxDepth != direct.MaxDepth {
		t.Errorf("the set %q searched %+v; NewWith(g, All) %+v", "all", viaSet, direct)
	}
	if plain.Best == direct.Best && plain.MaxDepth == direct.MaxDepth && plain.Verdict == direct.Verdict {
		t.Errorf("the default and every technique searched alike: %+v", plain)
	}
	none := solve(solver.Options{Knowledge: "most"}, g)
	if none.Verdict != solver.Unknown || none.Stop != solver.NoKnowledge || none.Nodes != 0 || !strings.Contains(none.Err, `ladder has no search knowledge "most"`) {
		t.Errorf("a set ladder lacks: %+v", none)
	}
	if err := solver.CheckKnowledge("ladder", "all"); err != nil {
		t.Error(err)
	}
}
