package solver_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/patience-gym/patience/env"
	_ "github.com/patience-gym/patience/env/all"
	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/env/cromwell"
	"github.com/patience-gym/patience/env/fifteen"
	"github.com/patience-gym/patience/env/fourquarters"
	"github.com/patience-gym/patience/env/ladder"
	"github.com/patience-gym/patience/env/limited"
	"github.com/patience-gym/patience/env/royalparade"
	"github.com/patience-gym/patience/solver"
	_ "github.com/patience-gym/patience/solver/all"
	"github.com/patience-gym/patience/solver/internal/solvertest"
)

func newSolver(t testing.TB, o solver.Options) *solver.Solver {
	t.Helper()
	if o.TableBits == 0 {
		o.TableBits = 16
	}
	s, err := solver.New(o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// solve searches g and checks what every result must satisfy: a Solved
// verdict's line replays to a win through env.Env, and a verdict other
// than Unknown means the budget was not exhausted.
func solve(t testing.TB, s *solver.Solver, g env.Game) solver.Result {
	t.Helper()
	before := g.Hash()
	r := s.Solve(context.Background(), g)
	if g.Hash() != before {
		t.Fatal("Solve changed the position it was given")
	}
	switch r.Verdict {
	case solver.Solved:
		if err := solver.VerifyEnv(g, 0, r.Line); err != nil {
			t.Fatalf("the winning line does not replay: %v\n%s", err, g.Render())
		}
	case solver.Unknown:
		if r.Stop == solver.NotStopped {
			t.Fatal("unknown verdict without a reason")
		}
	}
	if o := s.Options(); o.Nodes > 0 && r.Nodes > o.Nodes {
		t.Fatalf("expanded %d nodes on a budget of %d", r.Nodes, o.Nodes)
	}
	return r
}

// exhaustive is a search with no table, no safe moves, no dead test, no
// pruning and no limited passes: every path, for tiny positions.
var exhaustive = solver.Options{NoTable: true, NoSafeMoves: true, NoDeadTest: true, NoPrune: true, NoKey: true, Passes: []solver.Pass{}}

func cromwellPos(t testing.TB, variant string, found map[cards.Suit][2]cards.Rank, fans ...string) *cromwell.Game {
	t.Helper()
	g := cromwell.New()
	if err := g.SetVariant(variant); err != nil {
		t.Fatal(err)
	}
	var fs [][]cards.Card
	for _, f := range fans {
		fs = append(fs, cards.MustParseList(f))
	}
	g.SetFans(fs...)
	for s := range cards.NumSuits {
		r := found[cards.Suit(s)]
		if _, ok := found[cards.Suit(s)]; !ok {
			r = [2]cards.Rank{cards.King, cards.King}
		}
		g.SetFoundation(cards.Suit(s), r[0], r[1])
	}
	if variant == "" {
		g.SetSwapUsed(true)
	}
	return g
}

// TestKnownAnswers: hand-built positions whose answers are known.
func TestKnownAnswers(t *testing.T) {
	spades := func(a, b cards.Rank) map[cards.Suit][2]cards.Rank {
		return map[cards.Suit][2]cards.Rank{cards.Spades: {a, b}}
	}
	fq := func(cells map[int]string, stock string) env.Game {
		var cs [fourquarters.NumCells]cards.Card
		for i, c := range cells {
			cs[i] = cards.MustParse(c)
		}
		g := fourquarters.New()
		g.Setup(cs, cards.MustParseList(stock))
		return g
	}
	fifteenPos := func() env.Game {
		g := fifteen.New()
		g.SetColumns(cards.MustParseList("AS KS"))
		solvertest.SetFoundations(g, cards.King, cards.Ace)
		g.SetFoundation(cards.Spades, cards.Queen, 2)
		return g
	}
	ladderPos := func() env.Game {
		g := ladder.New()
		g.SetRows(cards.MustParseList("KS QS"))
		solvertest.SetFoundations(g, cards.King, cards.King)
		g.SetFoundation(cards.Spades, cards.King, cards.Jack)
		return g
	}
	rpPos := func(t *testing.T) env.Game {
		g := royalparade.New()
		g.Clear()
		tops := [3]cards.Rank{cards.Jack, cards.Queen, cards.King}
		for i := range royalparade.NumCells {
			top := cards.New(cards.Suit(i%8/2), tops[i/8])
			if i == 0 {
				top = cards.MustParse("8C")
			}
			if err := g.SetCell(i, top, true); err != nil {
				t.Fatal(err)
			}
		}
		if err := g.SetAux(3, cards.MustParse("JC")); err != nil {
			t.Fatal(err)
		}
		if err := g.SetAces(2, 2, 2, 2); err != nil {
			t.Fatal(err)
		}
		return g
	}
	tests := []struct {
		name  string
		game  func(t *testing.T) env.Game
		want  solver.Verdict
		moves int // the length of the winning line, when it is forced
	}{
		{"cromwell two home", func(t *testing.T) env.Game {
			return cromwellPos(t, "noswap", spades(cards.Jack, cards.King), "KS QS")
		}, solver.Solved, 2},
		{"cromwell king on its queen", func(t *testing.T) env.Game {
			return cromwellPos(t, "noswap", spades(cards.Jack, cards.King), "QS KS")
		}, solver.Unsolvable, 0},
		{"cromwell king on its queen, swap used", func(t *testing.T) env.Game {
			return cromwellPos(t, "", spades(cards.Jack, cards.King), "QS KS")
		}, solver.Unsolvable, 0},
		{"cromwell king on its queen, swap unused", func(t *testing.T) env.Game {
			g := cromwellPos(t, "", spades(cards.Jack, cards.King), "QS KS")
			g.SetSwapUsed(false)
			return g
		}, solver.Solved, 5},
		{"cromwell run onto its card, then home", func(t *testing.T) env.Game {
			return cromwellPos(t, "noswap", spades(9, cards.King), "KS JS", "QS", "TS")
		}, solver.Solved, 0},
		{"cromwell the queens under the kings", func(t *testing.T) env.Game {
			// Each queen lies under a king of its suit: neither king can
			// go home first.
			return cromwellPos(t, "noswap", spades(cards.Jack, cards.Jack), "QS KS", "QS KS")
		}, solver.Unsolvable, 0},
		{"fifteen king up, ace down", func(t *testing.T) env.Game { return fifteenPos() }, solver.Solved, 2},
		{"fourquarters one pair", func(t *testing.T) env.Game { return fq(map[int]string{0: "5S", 1: "5H"}, "") }, solver.Solved, 1},
		{"fourquarters an odd card", func(t *testing.T) env.Game {
			return fq(map[int]string{0: "5S", 1: "5H", 2: "5D", 12: "5C"}, "")
		}, solver.Unsolvable, 0},
		{"fourquarters pair after closing up", func(t *testing.T) env.Game {
			return fq(map[int]string{0: "5S", 10: "5H"}, "")
		}, solver.Solved, 2},
		{"fourquarters stock card completes a pair", func(t *testing.T) env.Game {
			return fq(map[int]string{0: "5S", 1: "5H", 2: "9D", 4: "6C", 5: "6D", 6: "6S", 7: "6H",
				8: "8C", 9: "8D", 10: "8S", 11: "8H"}, "9C")
		}, solver.Solved, 0},
		{"ladder two home", func(t *testing.T) env.Game { return ladderPos() }, solver.Solved, 2},
		{"royalparade one build", func(t *testing.T) env.Game { return rpPos(t) }, solver.Solved, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := tc.game(t)
			for _, o := range []solver.Options{{}, {NoSafeMoves: true, NoDeadTest: true, NoPrune: true}, exhaustive} {
				o.Nodes = 1_000_000
				r := solve(t, newSolver(t, o), g)
				if r.Verdict != tc.want {
					t.Fatalf("%+v: %v after %d nodes, want %v\n%s", o, r.Verdict, r.Nodes, tc.want, g.Render())
				}
				if tc.moves > 0 && len(r.Line) != tc.moves {
					t.Errorf("%+v: a line of %d moves (%s), want %d", o, len(r.Line), names(g, r.Line), tc.moves)
				}
			}
		})
	}
}

func names(g env.Game, line []int) string {
	var out []string
	for _, a := range line {
		out = append(out, g.ActionString(a))
	}
	return strings.Join(out, ", ")
}

// TestDealsSolveAndReplay: real deals of every game, with a small budget:
// every line found replays to a win through env.Env, and the hidden-card
// games are labelled clairvoyant.
func TestDealsSolveAndReplay(t *testing.T) {
	deals := solvertest.N(4, 2)
	for _, name := range env.Names() {
		t.Run(name, func(t *testing.T) {
			g, _ := env.NewGame(name)
			s := newSolver(t, solver.Options{Nodes: 20000})
			for seed := uint64(0); seed < uint64(deals); seed++ {
				g.Deal(seed)
				r := solve(t, s, g)
				if r.Clairvoyant != g.Spec().Hidden {
					t.Errorf("deal %d: clairvoyant %v for a game with hidden cards %v", seed, r.Clairvoyant, g.Spec().Hidden)
				}
			}
		})
	}
}

// TestNodeBudgetExact: an unknown verdict used the node budget exactly,
// and the same budget gives the same search (a deterministic node count,
// verdict and line).
func TestNodeBudgetExact(t *testing.T) {
	g, _ := env.NewGame("cromwell:noswap")
	g.Deal(12) // not decided in a few thousand nodes
	for _, budget := range []int64{1, 7, 1000, 3000} {
		r1 := solve(t, newSolver(t, solver.Options{Nodes: budget}), g)
		r2 := solve(t, newSolver(t, solver.Options{Nodes: budget}), g)
		if r1.Verdict != solver.Unknown || r1.Stop != solver.NodeBudget || r1.Nodes != budget {
			t.Errorf("budget %d: %v (%v) after %d nodes", budget, r1.Verdict, r1.Stop, r1.Nodes)
		}
		if r1.Nodes != r2.Nodes || r1.Verdict != r2.Verdict || r1.Best != r2.Best {
			t.Errorf("budget %d: two searches differ: %+v and %+v", budget, r1, r2)
		}
	}
	g.Deal(5) // solved in a few hundred nodes
	r1 := solve(t, newSolver(t, solver.Options{Nodes: 100000}), g)
	r2 := solve(t, newSolver(t, solver.Options{Nodes: 100000}), g)
	if r1.Verdict != solver.Solved || !slices.Equal(r1.Line, r2.Line) || r1.Nodes != r2.Nodes {
		t.Errorf("deal 5: %v in %d nodes, then %v in %d nodes, lines equal %v", r1.Verdict, r1.Nodes, r2.Verdict, r2.Nodes, slices.Equal(r1.Line, r2.Line))
	}
}

// TestDeadAtStart: Cromwell tuning deal 500,194 is proved lost at the start
// by the game's start dead test (its kings lock cards that no swap frees),
// in one node; without dead tests the search cannot decide it.
func TestDeadAtStart(t *testing.T) {
	g := cromwell.New()
	g.Deal(500194)
	r := solve(t, newSolver(t, solver.Options{Nodes: 100000}), g)
	if r.Verdict != solver.Unsolvable || r.Nodes != 1 || r.Dead != 1 {
		t.Errorf("with the dead tests: %v in %d nodes, %d cut", r.Verdict, r.Nodes, r.Dead)
	}
	r = solve(t, newSolver(t, solver.Options{Nodes: 100000, NoDeadTest: true}), g)
	if r.Verdict != solver.Unknown {
		t.Errorf("without the dead tests: %v in %d nodes", r.Verdict, r.Nodes)
	}
}

// TestTimeBudgetAndCancel: a time budget and a cancelled context stop the
// search with an unknown verdict and say why (no assertion on the time
// taken, which depends on the machine).
func TestTimeBudgetAndCancel(t *testing.T) {
	g, _ := env.NewGame("cromwell:noswap")
	g.Deal(12)
	r := solve(t, newSolver(t, solver.Options{Time: 20 * time.Millisecond}), g)
	if r.Verdict != solver.Unknown || r.Stop != solver.TimeBudget {
		t.Errorf("time budget: %v (%v)", r.Verdict, r.Stop)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r = newSolver(t, solver.Options{}).Solve(ctx, g)
	if r.Verdict != solver.Unknown || r.Stop != solver.Cancelled {
		t.Errorf("cancelled: %v (%v)", r.Verdict, r.Stop)
	}
}

func TestBadOptions(t *testing.T) {
	for _, o := range []solver.Options{{Nodes: -1}, {Time: -time.Second}, {TableBits: 3}, {TableBits: 31}, {Passes: []solver.Pass{{Limit: 127}}}, {Passes: []solver.Pass{{Limit: -1}}}, {Passes: []solver.Pass{{Share: -1}}}, {Passes: []solver.Pass{{Share: 1001}}}, {BestFirst: -1}, {BestFirst: 1001}, {Beam: -1}, {Beam: 1_000_001}} {
		if _, err := solver.New(o); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
}

// TestSolvedPositionIsSolved: a won position needs no move.
func TestSolvedPositionIsSolved(t *testing.T) {
	g := cromwellPos(t, "noswap", nil)
	r := solve(t, newSolver(t, solver.Options{}), g)
	if r.Verdict != solver.Solved || len(r.Line) != 0 {
		t.Errorf("%v with %d moves", r.Verdict, len(r.Line))
	}
}

// TestTableEviction: a table far too small for the search still finds
// the same verdicts (evicted positions are searched again; positions on
// the path are never evicted, so cycles are still caught).
func TestTableEviction(t *testing.T) {
	small := newSolver(t, solver.Options{Nodes: 30000, TableBits: 10})
	big := newSolver(t, solver.Options{Nodes: 30000, TableBits: 18})
	for _, name := range []string{"cromwell", "fifteen"} {
		g, _ := env.NewGame(name)
		for seed := uint64(0); seed < 3; seed++ {
			g.Deal(seed)
			r1, r2 := solve(t, small, g), solve(t, big, g)
			if r1.Verdict != solver.Unknown && r2.Verdict != solver.Unknown && r1.Verdict != r2.Verdict {
				t.Errorf("%s deal %d: %v with a small table, %v with a big one", name, seed, r1.Verdict, r2.Verdict)
			}
		}
	}
}

func TestVerdictStrings(t *testing.T) {
	if solver.Solved.String() != "solved" || solver.Unsolvable.String() != "unsolvable" || solver.Unknown.String() != "unknown" {
		t.Error("verdict names")
	}
	if solver.NodeBudget.String() != "nodes" || solver.TimeBudget.String() != "time" || solver.Cancelled.String() != "cancelled" {
		t.Error("stop names")
	}
}

// TestLinesAreNotReused: a result's line is the caller's, untouched by
// the next search of the same Solver.
func TestLinesAreNotReused(t *testing.T) {
	s := newSolver(t, solver.Options{Nodes: 20000})
	var lines [][]int
	var copies [][]int
	for _, name := range []string{"cromwell:noswap", "cromwell", "fifteen"} {
		g, _ := env.NewGame(name)
		for seed := uint64(0); seed < 3; seed++ {
			g.Deal(seed)
			r := s.Solve(context.Background(), g)
			if r.Verdict == solver.Solved {
				lines = append(lines, r.Line)
				copies = append(copies, slices.Clone(r.Line))
			}
		}
	}
	if len(lines) < 3 {
		t.Fatalf("only %d lines", len(lines))
	}
	for i := range lines {
		if !slices.Equal(lines[i], copies[i]) {
			t.Errorf("line %d changed after later searches", i)
		}
	}
}

// TestScoreCacheChangesNoSearch: the score cache only saves time. Solvers
// that keep it across several Cromwell deals (with the opening pass, and
// more positions than it holds) search exactly as solvers without it.
func TestScoreCacheChangesNoSearch(t *testing.T) {
	deals := []uint64{500000, 500047, 500091, 500001}
	if testing.Short() {
		deals = deals[:2]
	}
	g, _ := env.NewGame("cromwell")
	cached := newSolver(t, solver.Options{Nodes: 30000})
	plain := newSolver(t, solver.Options{Nodes: 30000})
	plain.NoScoreCache()
	for _, seed := range deals {
		g.Deal(seed)
		a, b := solve(t, cached, g), solve(t, plain, g)
		if a.Verdict != b.Verdict || a.Nodes != b.Nodes || a.Best != b.Best || a.Passes != b.Passes || !slices.Equal(a.Line, b.Line) {
			t.Errorf("deal %d: with the cache %v in %d nodes (best %d, %d passes), without %v in %d nodes (best %d, %d passes)",
				seed, a.Verdict, a.Nodes, a.Best, a.Passes, b.Verdict, b.Nodes, b.Best, b.Passes)
		}
	}
	if !cached.UsesScoreCache() || plain.UsesScoreCache() {
		t.Error("the cache is not on where it should be, or on where it should not")
	}
}

// TestKeyerMergesAlikePositions: a game that keys alike positions together
// (Keyer: Royal Parade's cells of a row) is searched in fewer nodes, to
// the same verdict, than with its keys off (Options.NoKey), which
// remembers positions by their hashes.
func TestKeyerMergesAlikePositions(t *testing.T) {
	for _, seed := range []uint64{500008, 500012, 500020, 500025} {
		g := royalparade.New()
		g.Deal(seed)
		if _, ok := solver.Wrap(g).(solver.Keyer); !ok {
			t.Fatal("Royal Parade's search position has no keys")
		}
		o := solver.Options{Nodes: 100000, NoDeadTest: true, NoSafeMoves: true, NoPrune: true, Passes: solver.DefaultPasses}
		with := solve(t, newSolver(t, o), g)
		o.NoKey = true
		without := solve(t, newSolver(t, o), g)
		if with.Verdict != without.Verdict || with.Verdict == solver.Unknown {
			t.Errorf("deal %d: %v with keys, %v without", seed, with.Verdict, without.Verdict)
		}
		if with.Nodes >= without.Nodes {
			t.Errorf("deal %d: %d nodes with keys, %d without", seed, with.Nodes, without.Nodes)
		}
	}
}

// TestPlannerPasses: a game with its own passes (Planner: Royal Parade
// runs each default pass twice, ranking by the heuristic agent's
// evaluation, Pass.Plain, then by its playout) is searched with them when
// the options name none, and with the options' passes otherwise; the
// plain passes find a win the playout's order misses at this budget.
func TestPlannerPasses(t *testing.T) {
	g := royalparade.New()
	g.Deal(1000199)
	if _, ok := solver.Wrap(g).(solver.Planner); !ok {
		t.Fatal("Royal Parade's search position has no passes of its own")
	}
	planned := solve(t, newSolver(t, solver.Options{Nodes: 50000}), g)
	if planned.Verdict != solver.Solved {
		t.Errorf("with its own passes: %v in %d nodes", planned.Verdict, planned.Nodes)
	}
	named := solve(t, newSolver(t, solver.Options{Nodes: 50000, Passes: solver.DefaultPasses}), g)
	if named.Verdict == solver.Solved {
		t.Errorf("with the default passes: solved in %d nodes; the test proves nothing", named.Nodes)
	}
	if named.Passes > len(solver.DefaultPasses)+1 {
		t.Errorf("with the default passes named: %d passes begun", named.Passes)
	}
}

// TestBestFirstPass: a best-first pass (Pass.BestFirst) wins Limited's
// tuning deal 11 in a few hundred positions, where the depth-first
// passes, which spend the budget among the first deal's many ways of
// storing cards, leave it open; the same options give the same search;
// and a pass whose storage is full ends, proving nothing, and leaves the
// deal to the passes after it.
func TestBestFirstPass(t *testing.T) {
	g := limited.New()
	g.Deal(11)
	def := solve(t, newSolver(t, solver.Options{Nodes: 200000, TableBits: 20}), g)
	if def.Verdict != solver.Unknown {
		t.Fatalf("the default passes: %v in %d nodes; the test proves nothing", def.Verdict, def.Nodes)
	}
	bf := solver.Options{Nodes: 200000, TableBits: 20, Passes: []solver.Pass{{BestFirst: true}}}
	won := solve(t, newSolver(t, bf), g)
	if won.Verdict != solver.Solved || won.Passes != 1 {
		t.Fatalf("best first: %v after %d passes, %d nodes", won.Verdict, won.Passes, won.Nodes)
	}
	again := solve(t, newSolver(t, bf), g)
	if again.Nodes != won.Nodes || !slices.Equal(again.Line, won.Line) {
		t.Errorf("the same search twice: %d and %d nodes", won.Nodes, again.Nodes)
	}
	// Options.BestFirst puts the pass in front of the game's plan.
	front := solve(t, newSolver(t, solver.Options{Nodes: 200000, TableBits: 20, BestFirst: 10}), g)
	if front.Verdict != solver.Solved || front.Passes != 1 || front.Nodes != won.Nodes {
		t.Errorf("a best-first pass in front: %v after %d passes, %d nodes", front.Verdict, front.Passes, front.Nodes)
	}
	defer solver.SetBestFirstStates(50)()
	capped := solve(t, newSolver(t, bf), g)
	if capped.Passes != 2 || capped.Verdict == solver.Solved {
		t.Errorf("best first holding 50 positions: %v after %d passes, %d nodes", capped.Verdict, capped.Passes, capped.Nodes)
	}
}

// TestBeamPass: a beam pass (Options.Beam) wins Limited's tuning deal 45
// within its quarter of a 2M budget, where the game's own passes leave it
// open with the whole budget; the same options give the same search; a
// beam too narrow to find the win leaves the rest of the budget to the
// passes after it, which then decide as without it; and a beam never
// proves a deal lost.
func TestBeamPass(t *testing.T) {
	if testing.Short() {
		t.Skip("searches of 2M nodes")
	}
	g := limited.New()
	g.Deal(45)
	def := solve(t, newSolver(t, solver.Options{Nodes: 2_000_000, TableBits: 20}), g)
	if def.Verdict != solver.Unknown {
		t.Fatalf("the game's passes: %v in %d nodes; the test proves nothing", def.Verdict, def.Nodes)
	}
	beam := solver.Options{Nodes: 2_000_000, TableBits: 20, Beam: 3000}
	won := solve(t, newSolver(t, beam), g)
	if won.Verdict != solver.Solved || won.Passes != 1 || won.Nodes > 500_000 {
		t.Fatalf("a beam of 3,000: %v after %d passes, %d nodes", won.Verdict, won.Passes, won.Nodes)
	}
	again := solve(t, newSolver(t, beam), g)
	if again.Nodes != won.Nodes || !slices.Equal(again.Line, won.Line) {
		t.Errorf("the same search twice: %d and %d nodes", won.Nodes, again.Nodes)
	}
	// A beam of one, which does not win deal 11, leaves it to the passes
	// after it, which decide it as they do alone.
	g.Deal(11)
	alone := solve(t, newSolver(t, solver.Options{Nodes: 200_000, TableBits: 20, BestFirst: 10}), g)
	one := solve(t, newSolver(t, solver.Options{Nodes: 200_000, TableBits: 20, BestFirst: 10, Beam: 1}), g)
	if one.Verdict != alone.Verdict || one.Passes != alone.Passes+1 {
		t.Errorf("a beam of one in front: %v after %d passes; alone %v after %d", one.Verdict, one.Passes, alone.Verdict, alone.Passes)
	}
}
