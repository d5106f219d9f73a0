package limited

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	rules "github.com/patience-gym/patience/env/limited"
	"github.com/patience-gym/patience/solver"
	"github.com/patience-gym/patience/solver/internal/solvertest"
)

// newGame returns a new game of Limited.
func newGame() env.Game { return rules.New() }

// cs parses a list of cards.
func cs(s string) []cards.Card { return cards.MustParseList(s) }

// TestKeyIgnoresOrder: positions whose columns, and whose privileged
// rows, hold the same contents in another order share a key; a pair
// undone, a card moved or anything else changed gives another.
func TestKeyIgnoresOrder(t *testing.T) {
	mk := func(cols [][]cards.Card, paired int, priv []cards.Card) *Position {
		g := rules.New()
		g.SetColumns(cols...)
		if paired >= 0 {
			g.SetPaired(paired, true)
		}
		g.SetFoundation(cards.Spades, 3, 2)
		g.SetSecondDeal(priv, cs("9H 2C KD"))
		return New(g)
	}
	a := mk([][]cards.Card{cs("5S 4S"), cs("KH"), nil, cs("7D 7D")}, 0, cs("QC 5H 9S JD"))
	b := mk([][]cards.Card{cs("7D 7D"), nil, cs("5S 4S"), nil, cs("KH")}, 2, cs("JD QC 9S 5H"))
	if a.Key() != b.Key() {
		t.Error("the same columns and privileged cards in another order: keys differ")
	}
	if a.Hash() == b.Hash() {
		t.Error("the rules' hashes ignore the order too: the test proves nothing")
	}
	for name, c := range map[string]*Position{
		"no pair":           mk([][]cards.Card{cs("5S 4S"), cs("KH"), nil, cs("7D 7D")}, -1, cs("QC 5H 9S JD")),
		"a card moved":      mk([][]cards.Card{cs("5S"), cs("KH 4S"), nil, cs("7D 7D")}, -1, cs("QC 5H 9S JD")),
		"one 7♦ gone":       mk([][]cards.Card{cs("5S 4S"), cs("KH"), nil, cs("7D")}, 0, cs("QC 5H 9S JD")),
		"another privilege": mk([][]cards.Card{cs("5S 4S"), cs("KH"), nil, cs("7D 7D")}, 0, cs("QC 5H 9S JC")),
	} {
		if c.Key() == a.Key() {
			t.Errorf("%s: same key", name)
		}
	}
	// The keys follow the moves: the same move in both keeps them equal.
	a.Apply(rules.ActMove + (rules.SrcPriv+1)*rules.NumDests + rules.DstColumn + 2) // 5♥ into a space
	b.Apply(rules.ActMove + (rules.SrcPriv+3)*rules.NumDests + rules.DstColumn + 3) // the same, elsewhere
	if a.Key() != b.Key() {
		t.Error("after the same move: keys differ")
	}
}

// playouts returns positions of random games of Limited, late ones, so
// that a search from them finishes.
func playouts(n int, seed uint64) []env.Game {
	// Card moves before turns, and the fifth card last: games that get
	// far.
	return solvertest.Playouts(n, seed, 11, 500, newGame, func(a int, rng *rand.Rand) bool {
		return a >= rules.ActTurn && rng.IntN(3) != 0
	}, func(g env.Game, rng *rand.Rand) bool {
		return g.(*rules.Game).SecondDeal() && rng.IntN(3) == 0
	})
}

// knowledge are the searches with each technique of this package on,
// alone and all together, and the knowledge set "prove", compared with the
// plain search (solvertest.Plain: the unlimited pass alone, without keys
// or pruning). "passes" runs the package's plan (Passes: nil), each
// default pass ranked by the heuristic agent's evaluation, then by the
// playout, before the unlimited pass.
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
	"keys":    {NoSafeMoves: true, NoDeadTest: true, NoPrune: true, Passes: []solver.Pass{}},
	"pruning": {NoSafeMoves: true, NoDeadTest: true, Passes: []solver.Pass{}},
	"passes":  {NoSafeMoves: true, NoDeadTest: true, NoKey: true, NoPrune: true},
	"all":     {},
	"prove":   {Knowledge: "prove"},
}

// TestKnowledgeKeepsVerdicts: on late positions of random games and of
// winning lines, each technique (knowledge), and the search without the
// playout evaluation, decides as the plain search does.
func TestKnowledgeKeepsVerdicts(t *testing.T) {
	n := solvertest.N(120, 30)
	positions := append(playouts(n, 1), solvertest.WinningLines(n/2, 2, newGame, 15, 30, 45)...)
	v := solvertest.NewVerdicts(t, knowledge, 200000)
	noEval := map[string]*solver.Solver{"the plain search without the evaluation": solvertest.New(t, solvertest.Plain(200000, 18))}
	for i, g := range positions {
		what := fmt.Sprint("position ", i)
		if want := v.Check(t, what, g); want != solver.Unknown {
			solvertest.Agree(t, what, withoutEval(g), want, noEval)
		}
	}
	decided, lost := v.Decided(), v.Count[solver.Unsolvable]
	t.Logf("%d positions, %d decided by the plain search, %d lost", len(positions), decided, lost)
	if lost < 10 || decided-lost < 10 {
		t.Errorf("the sample proves little: %d decided, %d lost", decided, lost)
	}
}

// TestPlayout: the greedy playout of the search evaluation gets home
// every card of a second deal that needs no choice, and stops where a
// fifth card has nowhere to go.
func TestPlayout(t *testing.T) {
	mk := func(cols [][]cards.Card, priv, pile string) *Position {
		g := rules.New()
		g.SetColumns(cols...)
		solvertest.SetFoundations(g, cards.King, cards.King)
		g.SetFoundation(cards.Spades, 8, 8)
		g.SetSecondDeal(cs(priv), cs(pile))
		return New(g)
	}
	// 10♠ pairs onto J♠, the K♠ that refills its slot takes Q♠, and the
	// 9♠ that comes then sends every spade home.
	if got := playout(mk([][]cards.Card{cs("KS"), cs("QS JS")}, "10S 10S QS JS", "KS 9S 9S")); got != 104 {
		t.Errorf("a second deal without choices: %d cards home, want 104", got)
	}
	// Nothing moves: the fifth card, K♠, has nowhere to go (no space, no
	// column top that takes it) before the 9♠s come.
	g := rules.New()
	g.SetColumns(cs("JS 10S"), cs("JS 10S"), cs("KH"), cs("KH"), cs("QH"), cs("QH"),
		cs("JH"), cs("JH"), cs("10H"), cs("10H"), cs("9H"), cs("9H"))
	g.SetPaired(0, true)
	g.SetPaired(1, true)
	solvertest.SetFoundations(g, cards.King, cards.King)
	g.SetFoundation(cards.Spades, 8, 8)
	g.SetFoundation(cards.Hearts, 5, 5)
	g.SetSecondDeal(cs("KS QS QS"), cs("KS 9S 9S 6H 6H 7H 7H 8H 8H"))
	if got := playout(New(g)); got != 78 {
		t.Errorf("a fifth card with nowhere to go: %d cards home, want 78", got)
	}
}
