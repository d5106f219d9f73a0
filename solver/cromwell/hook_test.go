package cromwell

import (
	"context"
	"slices"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	rules "github.com/patience-gym/patience/env/cromwell"
	"github.com/patience-gym/patience/solver"
	"github.com/patience-gym/patience/solver/internal/solvertest"
)

// searches are the three searches that tests on small positions compare
// (exhaustive passes only): every move of the game tried, nothing else of
// its knowledge; its pruning alone; and all of its knowledge.
type searches struct{ every, pruned, full *solver.Solver }

// threeSearches returns the three searches.
func threeSearches(t *testing.T) searches {
	t.Helper()
	mk := func(o solver.Options) *solver.Solver {
		o.Passes, o.Nodes, o.TableBits = []solver.Pass{}, 3000000, 20
		s, err := solver.New(o)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	return searches{
		every:  mk(solver.Options{NoSafeMoves: true, NoDeadTest: true, NoPrune: true}),
		pruned: mk(solver.Options{NoSafeMoves: true, NoDeadTest: true}),
		full:   mk(solver.Options{}),
	}
}

// decide runs the three searches, every move and the full search on g and
// the pruned one on c (g itself, or a copy of it that DeadAtStart looked
// at), and fails the test unless all three decide the position alike.
// pruning names the pruned search in the message. It returns the three
// results.
func (ss searches) decide(t *testing.T, g, c env.Game, pruning string) (want, got, all solver.Result) {
	t.Helper()
	want = ss.every.Solve(context.Background(), g)
	got = ss.pruned.Solve(context.Background(), c)
	all = ss.full.Solve(context.Background(), g)
	if want.Verdict == solver.Unknown || got.Verdict == solver.Unknown || all.Verdict == solver.Unknown {
		t.Fatalf("undecided: %v, %v (%s), %v (%s)\n%s", want.Verdict, got.Verdict, got.Err, all.Verdict, all.Err, g.Render())
	}
	if got.Verdict != want.Verdict || all.Verdict != want.Verdict {
		t.Fatalf("every move: %v; %s: %v; full search: %v\n%s", want.Verdict, pruning, got.Verdict, all.Verdict, g.Render())
	}
	return want, got, all
}

// hookedTiny returns random small positions, swap unused, in which
// DeadAtStart makes the search's swap hooked: every allowed swap exchanges
// two intact places. It returns the position as dealt and the search's
// copy that DeadAtStart looked at.
func hookedTiny(rng *cards.Rand) (*Position, *Position) {
	for {
		g := tinyPosition(rng, 12, 4, false)
		c := g.Clone().(*Position)
		if !c.DeadAtStart() && c.allow != nil && c.allow.hooked {
			return g, c
		}
	}
}

// TestHookedSwapNeverLosesAWin: on random small positions whose allowed
// swaps are all hooked, a search that makes only the hooked swaps at the
// start and nothing else before them (with stubborn sets after, and no
// dead test or safe moves), and the full search, decide every position as
// an exhaustive search of every move and every swap of the rules does. The
// winning lines, mapped to the rules by RulesLine, replay to a win through
// Env (Solve checks it), and in some of them the swap comes after a build
// on a king of the pair: the hook found a win that needs the game before
// the swap.
func TestHookedSwapNeverLosesAWin(t *testing.T) {
	n := solvertest.N(3000, 800)
	rng := cards.NewRand(30)
	ss := threeSearches(t)
	won, lost, late, needed := 0, 0, 0, 0
	for range n {
		g, c := hookedTiny(rng)
		want, got, all := ss.decide(t, g, c, "hooked swaps") // c is hooked
		if want.Verdict == solver.Unsolvable {
			lost++
			continue
		}
		won++
		if err := solver.VerifyEnv(g, 0, got.Line); err != nil {
			t.Fatalf("the hooked search's line does not win by the rules: %v\n%s", err, g.Render())
		}
		for _, line := range [][]int{got.Line, all.Line} {
			if i := slices.Index(line, rules.ActSwapBegin); i > 0 {
				late++
				break
			}
		}
		// Does some swap at the start win (an ordinary one)? If none does,
		// the win needs moves before the swap, which the hooked search
		// makes after it.
		start := false
		for _, pq := range c.allow.pairList {
			s := g.Clone().(*Position)
			for _, a := range []int{rules.ActSwapBegin, rules.ActSwap + pq[0].f*rules.SwapDepth + pq[0].k, rules.ActSwap + pq[1].f*rules.SwapDepth + pq[1].k} {
				s.Apply(a)
			}
			if ss.every.Solve(context.Background(), s).Verdict == solver.Solved {
				start = true
				break
			}
		}
		if !start {
			needed++
		}
	}
	t.Logf("%d hooked positions: %d won, %d lost; %d won by a line that swaps after a build on a hook; %d won only so", n, won, lost, late, needed)
	if won < n/10 || lost < n/10 || needed == 0 {
		t.Error("too few positions decided, or no win needs a hook")
	}
}

// TestHookedSwapMoves: on deal 501,543, whose one allowed swap exchanges
// the K♦ on top of fan 7 with the 9♠ at the foot of fan 1, the search's
// copy offers only the swap at the start; made there, it is hooked (made
// in a game that DeadAtStart did not look at, it is not): the 9♠ now on top
// of fan 7 takes the Q♦ of fan 6 as the K♦ would have, the hook stays on,
// and the hash follows. RulesLine puts the swap after the last build on
// the hook.
func TestHookedSwapMoves(t *testing.T) {
	g := deal501543AtStart(t)
	if !g.allow.hooked {
		t.Fatal("deal 501,543 is no longer hooked")
	}
	m := env.NewMask(rules.NumActions)
	g.Legal(&m)
	g.Prune(nil, &m)
	if m.Count() != 1 || !m.Has(rules.ActSwapBegin) {
		t.Fatalf("at the start Prune keeps %d actions, want the swap alone", m.Count())
	}
	play := func(g *Position, s string) {
		t.Helper()
		a := mustParse(t, g, s)
		g.Legal(&m)
		if !m.Has(a) {
			t.Fatalf("%s is not legal\n%s", s, g.Render())
		}
		g.Apply(a)
		if !g.Midway() && g.Hash() != fullHash(g) {
			t.Fatalf("after %s the hash is not the position's", s)
		}
	}
	start := g.Clone().(*Position)
	for _, s := range []string{"swap", "pick 1:1", "pick 7:4"} {
		play(g, s)
	}
	if !g.hook.on {
		t.Fatal("the swap at the start is not hooked")
	}
	// The same swap made by a copy that DeadAtStart did not look at is an
	// ordinary one.
	plain := newPos()
	plain.Deal(501543)
	for _, s := range []string{"swap", "pick 1:1", "pick 7:4"} {
		play(plain, s)
	}
	if plain.hook.on || plain.Hash() == g.Hash() {
		t.Fatal("a swap outside a search is hooked")
	}
	hooked := g.Clone().(*Position)
	play(hooked, "6>7") // Q♦ onto the 9♠, as onto the K♦
	if got := hooked.Fan(6); len(got) != 5 || got[4] != cards.MustParse("Q♦") || got[3] != cards.MustParse("9♠") {
		t.Fatalf("fan 7 after the build on the hook: %v", got)
	}
	if !hooked.hook.on {
		t.Error("a build on the hook turned it off")
	}
	plain.Legal(&m)
	if m.Has(mustParse(t, plain, "6>7")) {
		t.Error("an ordinary game lets Q♦ onto 9♠")
	}
	line := []int{rules.ActSwapBegin, rules.ActSwap + 0*rules.SwapDepth + 0, rules.ActSwap + 6*rules.SwapDepth + 3, mustParse(t, g, "6>7"), rules.ActFoundation + 10}
	got := start.RulesLine(line)
	want := []int{line[3], line[0], line[1], line[2], line[4]}
	if !slices.Equal(got, want) {
		t.Errorf("RulesLine %v, want %v", got, want)
	}
}

// TestHookedPlay: in random games from random small hooked positions,
// swap made at the start, the hash is always the position's, and the hook
// stays on exactly until the first move that involves a swapped place: one
// that moves its card or sends it home, or builds on it other than by the
// hook.
func TestHookedPlay(t *testing.T) {
	rng := cards.NewRand(31)
	m := env.NewMask(rules.NumActions)
	builds, offs := 0, 0
	for range 300 {
		_, g := hookedTiny(rng)
		pq := g.allow.pairList[rng.IntN(len(g.allow.pairList))]
		for _, a := range []int{rules.ActSwapBegin, rules.ActSwap + pq[0].f*rules.SwapDepth + pq[0].k, rules.ActSwap + pq[1].f*rules.SwapDepth + pq[1].k} {
			g.Apply(a)
		}
		if g.hook.on != (g.hook.n > 0) {
			t.Fatalf("hook on %v with %d hooks", g.hook.on, g.hook.n)
		}
		for step := 0; step < 60; step++ {
			g.Legal(&m)
			if m.Empty() {
				break
			}
			a := m.Next(0)
			for k := rng.IntN(m.Count()); k > 0; k-- {
				a = m.Next(a + 1)
			}
			touched := false
			var was [2]cards.Card
			var top [2]bool
			for i, pl := range pq {
				if g.FanLen(pl.f) > pl.k {
					was[i] = g.Fans()[pl.f][pl.k]
				}
				top[i] = g.FanLen(pl.f) == pl.k+1
			}
			on := g.hook.on
			g.Apply(a)
			for i, pl := range pq {
				if g.FanLen(pl.f) <= pl.k || g.Fans()[pl.f][pl.k] != was[i] {
					touched = true // moved or home
				}
				if top[i] && g.FanLen(pl.f) > pl.k+1 && !g.hook.last {
					touched = true // built on, not by the hook
				}
			}
			if g.hook.last {
				builds++
				if !on {
					t.Fatal("a build on a hook with the hook off")
				}
			}
			if want := on && !touched; g.hook.on != want {
				t.Fatalf("after %s the hook is on: %v, want %v", g.ActionString(a), g.hook.on, want)
			}
			if on && !g.hook.on {
				offs++
			}
			if g.Hash() != fullHash(g) {
				t.Fatalf("after %s the hash is not the position's", g.ActionString(a))
			}
		}
	}
	t.Logf("%d builds on hooks, %d hooks turned off", builds, offs)
	if builds == 0 || offs == 0 {
		t.Error("no build on a hook, or no hook turned off")
	}
}

// hookTiny returns a random small position, swap made, with a hook on: a
// place holding a card of another suit takes the run from a queen in play
// as its king would (the rest of the hook's rules need no real swap), and
// one more place counts as swapped, in half of them with a hook of its own. It returns nil where it finds no such
// place.
func hookTiny(rng *cards.Rand) *Position {
	g := tinyPosition(rng, 12, 4, true)
	var places []hookPlace
	for f := range rules.NumFans {
		for k := range g.FanLen(f) {
			places = append(places, hookPlace{uint8(f), uint8(k), g.Fans()[f][k]})
		}
	}
	if len(places) < 2 {
		return nil
	}
	p := places[rng.IntN(len(places))]
	q := places[rng.IntN(len(places))]
	if p == q {
		return nil
	}
	// A queen in play, of another suit than the card at p.
	var queens []cards.Card
	for _, pl := range places {
		if pl.king.Rank() == cards.Queen && pl.king.Suit() != p.king.Suit() {
			queens = append(queens, pl.king)
		}
	}
	if len(queens) == 0 {
		return nil
	}
	king := queens[rng.IntN(len(queens))] + 1
	g.hook = hookState{on: true, n: 1, at: [2]hookPlace{{p.f, p.k, king}}, pair: [2]hookPlace{p, q}}
	// Half of them get a second hook, at q, of a king of a third suit.
	if rng.IntN(2) == 0 {
		for _, c := range queens {
			if c.Suit() != king.Suit() && c.Suit() != q.king.Suit() {
				g.hook.at[1] = hookPlace{q.f, q.k, c + 1}
				g.hook.n = 2
				break
			}
		}
	}
	return g
}

// TestStubbornWithHook: on random small positions with a hook on
// (hookTiny), a search that keeps only the moves of stubborn sets
// (builds on the hook among them), and the full search, decide every
// position of the hooked game as a search of every move of that game does.
func TestStubbornWithHook(t *testing.T) {
	n := solvertest.N(10000, 3000)
	rng := cards.NewRand(32)
	ss := threeSearches(t)
	won, lost, used, needed := 0, 0, 0, 0
	var nodes, nodesEvery int64
	for done := 0; done < n; {
		g := hookTiny(rng)
		if g == nil {
			continue
		}
		done++
		want, got, _ := ss.decide(t, g, g, "stubborn sets")
		if want.Verdict == solver.Unsolvable {
			lost++
			nodes += got.Nodes
			nodesEvery += want.Nodes
			continue
		}
		won++
		off := g.Clone().(*Position)
		off.hook = hookState{}
		if ss.every.Solve(context.Background(), off).Verdict == solver.Unsolvable {
			needed++
		}
		st := g.Clone().(*Position)
		for _, a := range got.Line {
			st.Apply(a)
			if st.hook.last {
				used++
				break
			}
		}
	}
	t.Logf("%d positions: %d won (%d of them by a line with a build on the hook, %d lost without the hook), %d lost (%d nodes with stubborn sets, %d with every move)", n, won, used, needed, lost, nodes, nodesEvery)
	if won < n/10 || lost < n/10 || needed == 0 || nodes >= nodesEvery {
		t.Error("too few positions decided, no build on the hook, or nothing pruned")
	}
}
