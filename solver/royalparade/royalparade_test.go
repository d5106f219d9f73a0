package royalparade

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	rules "github.com/patience-gym/patience/env/royalparade"
	"github.com/patience-gym/patience/solver"
	"github.com/patience-gym/patience/solver/internal/solvertest"
)

// newGame returns a new game of Royal Parade.
func newGame() env.Game { return rules.New() }

// cs parses a list of cards.
func cs(s string) []cards.Card { return cards.MustParseList(s) }

// chainLock is a position with the stock dealt out whose auxiliary pile
// holds Q♦ on the 6♦ that the second 3♦ pile needs before it can take
// the 9♦ that Q♦ waits for: lost, though every card but these three has
// its place.
func chainLock(t testing.TB) *Position {
	t.Helper()
	g := rules.New()
	g.Clear()
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	// Complete piles everywhere but the two 3♦ piles.
	full := map[int]string{
		0: "JC", 1: "JC", 2: "JD", 3: "JD", 4: "JH", 5: "JH", 6: "JS", 7: "JS",
		8: "QC", 9: "QC", 10: "QD", 12: "QH", 13: "QH", 14: "QS", 15: "QS",
		16: "KC", 17: "KC", 18: "KD", 19: "KD", 20: "KH", 21: "KH", 22: "KS", 23: "KS",
	}
	for i, c := range full {
		must(g.SetCell(i, cards.MustParse(c), true))
	}
	must(g.SetCell(11, cards.MustParse("3D"), true))
	must(g.SetAux(0, cs("6D QD")...))
	must(g.SetAux(1, cs("9D")...))
	must(g.SetAces(2, 2, 2, 2))
	return New(g)
}

// TestRelaxedCutsChainLock: the relaxed game sees the chain lock, and the
// plain search agrees that the position is lost; with the 6♦ on top it
// is won.
func TestRelaxedCutsChainLock(t *testing.T) {
	g := chainLock(t)
	if relaxed(&g.Game) != 3 {
		t.Errorf("the relaxed game leaves %d cards unbuilt, want 3", relaxed(&g.Game))
	}
	if !g.Dead() {
		t.Error("Q♦ on the 6♦ its pile needs: not dead")
	}
	s, _ := solver.New(solver.Options{NoDeadTest: true, NoSafeMoves: true, NoKey: true, Passes: []solver.Pass{}})
	if r := s.Solve(context.Background(), &g.Game); r.Verdict != solver.Unsolvable {
		t.Errorf("the plain search says %v", r.Verdict)
	}
	if err := g.SetAux(0, cs("QD 6D")...); err != nil {
		t.Fatal(err)
	}
	if g.Dead() {
		t.Error("6♦ on top of Q♦: dead")
	}
	if r := s.Solve(context.Background(), &g.Game); r.Verdict != solver.Solved {
		t.Errorf("6♦ on top: the plain search says %v", r.Verdict)
	}
}

// TestRelaxedTwinWaits: where the relaxed game has built one copy of a
// card, the other copy leaves its pile as soon as it is on top, since a
// line of the real game may build it in the first copy's stead; a card
// with no pile to take it and no copy built stays.
func TestRelaxedTwinWaits(t *testing.T) {
	g := chainLock(t)
	// 6♦ on top of a third pile, above the 9♦: the 3♦ pile takes it, then
	// the 9♦, then Q♦ is on top of its pile with a pile to take it.
	if err := g.SetAux(0, cs("QD")...); err != nil {
		t.Fatal(err)
	}
	if err := g.SetAux(1, cs("9D 6D")...); err != nil {
		t.Fatal(err)
	}
	if n := relaxed(&g.Game); n != 0 {
		t.Errorf("the relaxed game leaves %d cards unbuilt, want 0", n)
	}
}

// playouts returns positions of random games of Royal Parade: from each
// deal a few positions along a random line, late ones mostly, so that a
// search from them finishes.
func playouts(n int, seed uint64) []env.Game {
	// Deal only now and then, build when a card fits: games that get far.
	return solvertest.Playouts(n, seed, 7, 300, newGame, func(a int, rng *rand.Rand) bool {
		return a == rules.ActDeal && rng.IntN(4) != 0
	}, func(g env.Game, rng *rand.Rand) bool {
		return g.(*rules.Game).StockLen() <= 8 && rng.IntN(6) == 0
	})
}

// knowledge are the searches with each technique of this package on,
// alone and all together, compared with the plain search
// (solvertest.Plain: the unlimited pass alone, without safe moves, dead
// test, keys or pruning). "passes" runs the package's plan (Passes: nil),
// each default pass ranked by the heuristic agent's evaluation, then by
// the playout, before the unlimited pass.
//
// The playout evaluation (SearchEvaluate) has no option of its own: it
// ranks the moves of every pass but the plain ones (Pass.Plain), the plain
// search's unlimited pass included. It only orders the moves (it scores a
// copy of each child), so it can change a verdict only through a search
// that wrongly depends on that order: TestKnowledgeKeepsVerdicts searches
// the position without it (noEval, ranked by the heuristic agent's
// evaluation) with the plain search's options too, and "passes" covers the
// limited passes, which leave moves out by their rank.
var knowledge = map[string]solver.Options{
	"safe moves": {NoDeadTest: true, NoKey: true, NoPrune: true, Passes: []solver.Pass{}},
	"dead test":  {NoSafeMoves: true, NoKey: true, NoPrune: true, Passes: []solver.Pass{}},
	"keys":       {NoSafeMoves: true, NoDeadTest: true, NoPrune: true, Passes: []solver.Pass{}},
	"pruning":    {NoSafeMoves: true, NoDeadTest: true, Passes: []solver.Pass{}},
	"passes":     {NoSafeMoves: true, NoDeadTest: true, NoKey: true, NoPrune: true},
	"all":        {},
}

// TestKnowledgeKeepsVerdicts: on positions of random games and of winning
// lines, each technique (knowledge), and the search without the playout
// evaluation, decides as the plain search does, and the dead test never
// fires on a position the plain search wins.
func TestKnowledgeKeepsVerdicts(t *testing.T) {
	n := solvertest.N(150, 30)
	positions := append(playouts(n, 1), solvertest.WinningLines(n/3, 2, newGame, 10, 20, 30, 45)...)
	v := solvertest.NewVerdicts(t, knowledge, 200000)
	noEval := map[string]*solver.Solver{"the plain search without the evaluation": solvertest.New(t, solvertest.Plain(200000, 18))}
	cut, alive := 0, 0
	for i, g := range positions {
		what := fmt.Sprint("position ", i)
		want := v.Check(t, what, g)
		if want == solver.Unknown {
			continue
		}
		solvertest.Agree(t, what, withoutEval(g), want, noEval)
		if New(g.(*rules.Game)).Dead() {
			cut++
			if want == solver.Solved {
				t.Fatalf("%s: dead, but the plain search wins it\n%s", what, g.Render())
			}
		} else if want == solver.Solved {
			alive++
		}
	}
	decided, lost := v.Decided(), v.Count[solver.Unsolvable]
	t.Logf("%d positions, %d decided by the plain search, %d lost; the dead test cuts %d at the start", len(positions), decided, lost, cut)
	if lost == 0 || cut == 0 || alive < 20 {
		t.Errorf("the sample proves little: %d decided, %d lost, %d cut", decided, lost, cut)
	}
}

// TestKeyIgnoresCellOrder: positions whose rows hold the same contents in
// another order share a key; moving a loose card to another row, or
// changing anything else, changes it.
func TestKeyIgnoresCellOrder(t *testing.T) {
	mk := func(cells map[int]string, loose map[int]string) *Position {
		return table(t, cells, loose, map[int]string{2: "9S 5H"})
	}
	a := mk(map[int]string{0: "5S", 1: "2H", 9: "6C"}, map[int]string{2: "7D", 3: "7D", 17: "3S"})
	b := mk(map[int]string{7: "5S", 4: "2H", 15: "6C"}, map[int]string{0: "7D", 6: "7D", 20: "3S"})
	if a.Key() != b.Key() {
		t.Error("the same rows in another order: keys differ")
	}
	if a.Hash() == b.Hash() {
		t.Error("the hashes of the rules ignore the order too: the test proves nothing")
	}
	c := mk(map[int]string{0: "5S", 1: "2H", 9: "6C"}, map[int]string{2: "7D", 11: "7D", 17: "3S"})
	if a.Key() == c.Key() {
		t.Error("a loose 7♦ moved from row 1 to row 2: same key")
	}
	d := mk(map[int]string{0: "5S", 1: "2H", 9: "6C"}, map[int]string{2: "7D", 17: "3S"})
	if a.Key() == d.Key() {
		t.Error("one of two loose 7♦ gone: same key (equal contents cancel out)")
	}
	// The key follows the moves: the same move in both keeps them equal.
	a.Apply(rules.ActMove + (rules.NumCells+2)*rules.NumCells + 1) // 5♥ onto the 2♥ pile at r1c2
	b.Apply(rules.ActMove + (rules.NumCells+2)*rules.NumCells + 4) // the same pile, at r1c5
	if a.Key() != b.Key() {
		t.Error("after the same build: keys differ")
	}
}
