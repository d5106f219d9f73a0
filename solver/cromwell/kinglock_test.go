package cromwell

import (
	"context"
	"encoding/json"
	"fmt"
	"math/bits"
	"os"
	"slices"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	rules "github.com/patience-gym/patience/env/cromwell"
	"github.com/patience-gym/patience/env/envtest"
	"github.com/patience-gym/patience/solver"
	"github.com/patience-gym/patience/solver/internal/solvertest"
)

// kingTiny returns a random position with a few cards of each suit in play
// (kings among them, so that they lock cards beneath them) in three to
// five fans, the swap used or not.
func kingTiny(rng *cards.Rand, swapUsed bool) *Position {
	return tinyPosition(rng, 8, 3, swapUsed)
}

// tinyPosition returns a random position with up to left/2 cards of each
// suit in play (envtest.TinyCards) in 3 to 2+fanChoices fans, the swap
// used or not.
func tinyPosition(rng *cards.Rand, left, fanChoices int, swapUsed bool) *Position {
	tops, rest := envtest.TinyCards(rng, left)
	fans := make([][]cards.Card, 3+rng.IntN(fanChoices))
	for _, c := range rest {
		f := rng.IntN(len(fans))
		fans[f] = append(fans[f], c)
	}
	g := newPos()
	g.SetFans(fans...)
	for s, tp := range tops {
		g.SetFoundation(cards.Suit(s), tp[0], tp[1])
	}
	g.SetSwapUsed(swapUsed)
	return g
}

// exhaustive decides g by a search that uses no game knowledge: the
// transposition table alone, every move tried.
func exhaustive(t *testing.T, g env.Game) solver.Verdict {
	t.Helper()
	s, err := solver.New(solver.Options{NoSafeMoves: true, NoDeadTest: true, NoPrune: true, Passes: []solver.Pass{}, Nodes: 300000, TableBits: 18})
	if err != nil {
		t.Fatal(err)
	}
	return s.Solve(context.Background(), g).Verdict
}

// TestKingLockedNeverLosesAWin: on random small positions with the swap
// used, every position the king-lock test calls dead is unsolvable by an
// exhaustive search, and the test finds dead positions that the relaxed
// game of Dead does not.
func TestKingLockedNeverLosesAWin(t *testing.T) {
	n := solvertest.N(3000, 600)
	rng := cards.NewRand(25)
	fired, beyond, lost := 0, 0, 0
	for range n {
		g := kingTiny(rng, true)
		v := exhaustive(t, g)
		if v == solver.Unsolvable {
			lost++
		}
		if !g.kingLocked() {
			continue
		}
		fired++
		if g.relaxed() == 0 {
			beyond++
		}
		if v != solver.Unsolvable {
			t.Fatalf("king-locked, but the exhaustive search says %v\n%s", v, g.Render())
		}
	}
	t.Logf("%d positions, %d lost: the king-lock test fired on %d, %d of them alive in the relaxed game", n, lost, fired, beyond)
	g := newPos()
	g.Deal(500194) // king-locked at the start: the order search runs in full
	g.SetSwapUsed(true)
	if !g.kingLocked() {
		t.Fatal("deal 500,194 is not king-locked")
	}
	if n := testing.AllocsPerRun(100, func() { g.Dead() }); n != 0 {
		t.Errorf("Dead allocates %v times", n)
	}
	if beyond < n/100 {
		t.Errorf("the king-lock test found only %d dead positions the relaxed game misses", beyond)
	}
}

// TestSwapLockedNeverLosesAWin: on random small positions with the swap
// unused, every position swapLocked calls dead is unsolvable by an
// exhaustive search that tries every swap at every step.
func TestSwapLockedNeverLosesAWin(t *testing.T) {
	n := solvertest.N(20000, 5000)
	rng := cards.NewRand(26)
	fired, decided := 0, 0
	for range n {
		g := kingTiny(rng, false)
		if !g.swapLocked() {
			continue
		}
		fired++
		switch v := exhaustive(t, g); v {
		case solver.Unsolvable:
			decided++
		case solver.Solved:
			t.Fatalf("swap-locked, but the exhaustive search wins\n%s", g.Render())
		}
	}
	t.Logf("%d positions: swapLocked fired on %d, %d of them decided by the exhaustive search", n, fired, decided)
	if decided < n/1000 {
		t.Errorf("only %d swap-locked positions decided", decided)
	}
}

// TestKingLocksOnRealDeals: on the measuring deals of two committed solver
// runs (their verdicts copied from docs/solver/cromwell-noswap.json and
// cromwell.json into testdata/verdicts.json), no deal won without the swap is king-locked and no deal won with
// it swap-locked, while the king-lock test proves more than half of the
// deals lost without the swap.
func TestKingLocksOnRealDeals(t *testing.T) {
	b, err := os.ReadFile("testdata/verdicts.json")
	if err != nil {
		t.Fatal(err)
	}
	// The verdicts of two runs of patience solve (their commands in the
	// file), one letter a deal from seed_start up: s solved, u
	// unsolvable, ? unknown.
	var runs map[string]struct {
		SeedStart uint64 `json:"seed_start"`
		Verdicts  string `json:"verdicts"`
	}
	if err := json.Unmarshal(b, &runs); err != nil {
		t.Fatal(err)
	}
	read := func(name string) map[uint64]string {
		out := map[uint64]string{}
		for i, v := range runs[name].Verdicts {
			out[runs[name].SeedStart+uint64(i)] = map[rune]string{'s': "solved", 'u': "unsolvable", '?': "unknown"}[v]
		}
		return out
	}
	g := newPos()
	noswap := read("noswap")
	won, locked := 0, 0
	for seed, v := range noswap {
		g.Deal(seed)
		g.SetSwapUsed(true)
		k := g.kingLocked()
		if v == "solved" {
			won++
			if k {
				t.Errorf("deal %d: won without the swap, but king-locked", seed)
			}
		}
		if k {
			locked++
		}
	}
	t.Logf("without the swap: %d won, %d king-locked of %d", won, locked, len(noswap))
	if locked < len(noswap)/2 {
		t.Errorf("only %d of %d deals king-locked without the swap", locked, len(noswap))
	}
	with := read("swap")
	won = 0
	for seed, v := range with {
		if v != "solved" {
			continue
		}
		won++
		g.Deal(seed)
		if g.swapLocked() {
			t.Errorf("deal %d: won with the swap, but swap-locked", seed)
		}
	}
	if won < 900 || len(noswap) < 1000 {
		t.Errorf("only %d won deals, %d deals without the swap: the runs are not the committed ones", won, len(noswap))
	}
}

// TestSwapAllowNeverLosesAWin: on random small positions with the swap
// unused and kings that lock cards only the swap can free, the solver,
// which then offers only the swaps that pass the king-lock test and gives
// up positions where none can be made any more, decides as an exhaustive
// search that tries every swap at every step.
func TestSwapAllowNeverLosesAWin(t *testing.T) {
	n := solvertest.N(6000, 1500)
	rng := cards.NewRand(27)
	s, err := solver.New(solver.Options{Passes: []solver.Pass{}, Nodes: 300000, TableBits: 18})
	if err != nil {
		t.Fatal(err)
	}
	restricted, cut, won, lost := 0, 0, 0, 0
	for range n {
		g := kingTiny(rng, false)
		if a, empty := g.buildAllow(); a == nil || empty {
			continue
		}
		restricted++
		var all, kept env.Mask = env.NewMask(rules.NumActions), env.NewMask(rules.NumActions)
		c := g.Clone().(*Position)
		c.DeadAtStart()
		c.Apply(rules.ActSwapBegin)
		c.Legal(&all)
		c.Legal(&kept)
		c.restrictSwap(&kept)
		if kept.Count() < all.Count() {
			cut++
		}
		want := exhaustive(t, g)
		got := s.Solve(context.Background(), g).Verdict
		if want != solver.Unknown && got != solver.Unknown && got != want {
			t.Fatalf("exhaustive search: %v, search with the allowed swaps: %v\n%s", want, got, g.Render())
		}
		switch {
		case want == solver.Solved && got == solver.Solved:
			won++
		case want == solver.Unsolvable && got == solver.Unsolvable:
			lost++
		}
	}
	t.Logf("%d positions: %d with swaps restricted (first picks cut at the start in %d), %d of them won and %d lost by both searches", n, restricted, cut, won, lost)
	if won < n/100 || lost < n/200 || cut < restricted/2 {
		t.Errorf("too few restricted positions decided: %d won, %d lost", won, lost)
	}
}

// TestSwapAllowOnADeal: on tuning deal 500,169 the kings lock cards that
// only the swap can free, and the one card that can help is the 7♥ beneath
// a K♥: the swaps allowed at the start are the 7♥ with either K♠, which
// sends that king to the bottom of the 7♥'s fan. Checking them costs no
// allocation.
func TestSwapAllowOnADeal(t *testing.T) {
	g := newPos()
	g.Deal(500169)
	if g.DeadAtStart() {
		t.Fatal("deal 500,169 proved lost")
	}
	if g.allow == nil {
		t.Fatal("no swaps listed")
	}
	c := g.Clone().(*Position)
	c.Apply(rules.ActSwapBegin)
	first, second := env.NewMask(rules.NumActions), env.NewMask(rules.NumActions)
	c.Legal(&first)
	c.Prune(nil, &first)
	var got []string
	for a := first.Next(0); a >= 0; a = first.Next(a + 1) {
		d := c.Clone().(*Position)
		d.Apply(a)
		d.Legal(&second)
		d.Prune(nil, &second)
		for b := second.Next(a + 1); b >= 0; b = second.Next(b + 1) {
			x, y := (a-rules.ActSwap)/rules.SwapDepth, (a-rules.ActSwap)%rules.SwapDepth
			u, v := (b-rules.ActSwap)/rules.SwapDepth, (b-rules.ActSwap)%rules.SwapDepth
			got = append(got, fmt.Sprintf("%v<->%v", g.Fans()[x][y], g.Fans()[u][v]))
		}
	}
	if want := []string{"7♥<->K♠", "7♥<->K♠"}; !slices.Equal(got, want) {
		t.Errorf("allowed swaps %v, want %v", got, want)
	}
	if g.Dead() {
		t.Error("Dead with the allowed swaps still to make")
	}
	if n := testing.AllocsPerRun(100, func() { g.Dead(); g.Prune(nil, &first) }); n != 0 {
		t.Errorf("Dead and Prune with the swaps listed allocate %v times", n)
	}
}

// TestSwapOfferedOnlyWithAPick: after a move from fan to fan, Prune offers
// to begin the swap only where a pick it allows then remains, so that no
// search node is spent on a swap that cannot be made. On deal 501,543,
// whose one allowed swap exchanges the K♦ on top of fan 7 with the 9♠ at
// the foot of fan 1, the swap is offered after Q♦ goes onto that king and
// after no move that builds elsewhere; every offer leaves a pick. (The
// deal's swap is hooked, and a search makes it at the start only; the
// test turns that off, as in a deal whose swaps are not all hooked.)
func TestSwapOfferedOnlyWithAPick(t *testing.T) {
	g := deal501543AtStart(t)
	if !g.allow.pairsOnly {
		t.Fatal("deal 501,543 no longer allows its one pair")
	}
	g.allow.hooked, g.hook.arm = false, false
	m, picks := env.NewMask(rules.NumActions), env.NewMask(rules.NumActions)
	g.Legal(&m)
	offered, moves := 0, 0
	for a := m.Next(0); a >= 0; a = m.Next(a + 1) {
		if kind, _, _ := rules.Decode(a); kind != rules.ActMove {
			continue
		}
		moves++
		c := g.Clone().(*Position)
		c.Apply(a)
		onKing := c.ActionString(a) == "6>7" // Q♦ onto K♦
		c.Legal(&picks)
		c.Prune([]int{a}, &picks)
		if !picks.Has(rules.ActSwapBegin) {
			if onKing {
				t.Error("the swap not offered after Q♦ onto K♦")
			}
			continue
		}
		offered++
		if !onKing {
			t.Errorf("the swap offered after %s", c.ActionString(a))
		}
		c.Apply(rules.ActSwapBegin)
		c.Legal(&picks)
		c.Prune([]int{a, rules.ActSwapBegin}, &picks)
		if picks.Empty() {
			t.Errorf("the swap offered after %s, but no pick left", g.ActionString(a))
		}
	}
	if offered != 1 || moves < 3 {
		t.Errorf("the swap offered after %d of %d moves, want 1", offered, moves)
	}
}

// TestKingLockMemo: the memo answers as the king-lock test run afresh. One
// memo serves random small positions and the positions of random games
// from real deals, swap made at the start; the games meet the same lock
// structures again and again, so the memo holds far fewer verdicts than
// it is asked for.
func TestKingLockMemo(t *testing.T) {
	memo := new(lockMemo)
	calls, locked := 0, 0
	check := func(g *Position) {
		g.lockMemo = nil
		want := g.kingLocked()
		g.lockMemo = memo
		if got := g.kingLocked(); got != want {
			t.Fatalf("memo says king-locked %v, the test %v\n%s", got, want, g.Render())
		}
		if g.kingLocked() != want { // the second answer comes from the memo
			t.Fatalf("memo changed its answer\n%s", g.Render())
		}
		calls++
		if want {
			locked++
		}
	}
	rng := cards.NewRand(31)
	for range 500 {
		check(kingTiny(rng, true))
	}
	m := env.NewMask(rules.NumActions)
	for deal := range uint64(20) {
		g := newPos()
		g.Deal(500000 + deal)
		g.Apply(rules.ActSwapBegin)
		g.Apply(rules.ActSwap + 0*rules.SwapDepth + 3)
		g.Apply(rules.ActSwap + 1*rules.SwapDepth + 0)
		for range 150 {
			check(g)
			g.Legal(&m)
			n := m.Count()
			if n == 0 {
				break
			}
			a := m.Next(0)
			for k := rng.IntN(n); k > 0; k-- {
				a = m.Next(a + 1)
			}
			g.Apply(a)
		}
	}
	kept := 0
	for _, k := range memo.keys {
		if k != 0 {
			kept++
		}
	}
	t.Logf("%d calls, %d king-locked; the memo holds %d verdicts", calls, locked, kept)
	if locked == 0 || locked == calls {
		t.Error("the positions do not test both verdicts")
	}
	if kept > calls/2 {
		t.Errorf("the memo holds %d verdicts for %d calls: structures should repeat", kept, calls)
	}
}

// TestSwapAllowDeepFan: a position set up by hand with a fan deeper than
// the swap allows (not reachable in play) lists no swaps and is not called
// lost, rather than failing.
func TestSwapAllowDeepFan(t *testing.T) {
	// Both copies of the spades from ace to nine, then the kings of
	// spades and hearts on top: the K♠ locks every copy of its suit's
	// low cards, so the deal is king-locked without the swap.
	var deep, rest []cards.Card
	for r := cards.Ace; r <= cards.Rank(9); r++ {
		deep = append(deep, cards.New(cards.Spades, r), cards.New(cards.Spades, r))
	}
	deep = append(deep, cards.New(cards.Spades, cards.King), cards.New(cards.Hearts, cards.King))
	for r := cards.Rank(10); r <= cards.King; r++ {
		rest = append(rest, cards.New(cards.Spades, r))
	}
	g := newPos()
	g.SetFans(deep, rest)
	if g.SetSwapUsed(true); !g.kingLocked() {
		t.Fatal("the deep fan is not king-locked")
	}
	g.SetSwapUsed(false)
	if g.DeadAtStart() || g.allow != nil {
		t.Errorf("a fan of %d cards: dead %v, swaps listed %v", len(g.Fan(0)), g.DeadAtStart(), g.allow != nil)
	}
}

// TestSwapAllowRenewed: DeadAtStart on a game whose position has changed
// since its last call lists the swaps of the new position, and clears the
// list where the kings lock nothing that needs the swap.
func TestSwapAllowRenewed(t *testing.T) {
	g := newPos()
	g.Deal(500169)
	g.DeadAtStart()
	if g.allow == nil {
		t.Fatal("deal 500,169: no swaps listed")
	}
	old := g.allow
	free := newPos()
	free.Deal(1) // its kings lock nothing that needs the swap
	g.CopyFrom(free)
	g.allow = old // a stale list, as a caller's copy could carry
	if g.DeadAtStart() || g.allow != nil {
		t.Errorf("deal 1 after deal 500,169: dead %v, a list kept %v", g.DeadAtStart(), g.allow != nil)
	}
}

// ownRunTiny returns a random small position, the swap used, in which a
// king of one suit carries a run of its suit whose cards' twins are home
// (the first foundation of the suit shows the queen, the second a lower
// card; half the time the first stops short of the queen, so that some
// twins are in play and the rule must not apply), the suit's other king and the second copies below the run lie
// in the fans, and the other suits have a few cards in play as in
// kingTiny: what addRuns reasons about.
func ownRunTiny(rng *cards.Rand) *Position {
	tops, rest := envtest.TinyCards(rng, 6)
	s := cards.Suit(rng.IntN(cards.NumSuits))
	low := cards.Rank(rng.IntN(5))         // the second foundation's top
	x := low + 2 + cards.Rank(rng.IntN(4)) // the run's lowest card
	run := []cards.Card{cards.New(s, cards.King)}
	for r := cards.Queen; r >= x; r-- {
		run = append(run, cards.New(s, r))
	}
	var loose []cards.Card
	for _, c := range rest {
		if c.Suit() != s {
			loose = append(loose, c)
		}
	}
	loose = append(loose, cards.New(s, cards.King))
	for r := low + 1; r < x; r++ {
		loose = append(loose, cards.New(s, r))
	}
	// Half the time the first foundation stops short of the queen: the
	// twins of the run's top cards are in play, and a part of the run may
	// go onto them.
	high := cards.Queen
	if rng.IntN(2) == 0 {
		high -= cards.Rank(1 + rng.IntN(3))
		for r := high + 1; r <= cards.Queen; r++ {
			loose = append(loose, cards.New(s, r))
		}
	}
	rng.Shuffle(loose)
	fans := make([][]cards.Card, 3+rng.IntN(2))
	at := rng.IntN(len(fans))
	for i, c := range loose {
		if i == len(loose)/2 {
			fans[at] = append(fans[at], run...) // the king and its run, somewhere in the middle
		}
		f := rng.IntN(len(fans))
		fans[f] = append(fans[f], c)
	}
	g := newPos()
	g.SetFans(fans...)
	for t, tp := range tops {
		if cards.Suit(t) == s {
			g.SetFoundation(s, high, low)
			continue
		}
		g.SetFoundation(cards.Suit(t), tp[0], tp[1])
	}
	g.SetSwapUsed(true)
	return g
}

// kingLockedWithoutRuns is the king-lock test without addRuns.
func (g *Position) kingLockedWithoutRuns() bool {
	var l kingLocks
	return g.locks(&l) && !l.feasible()
}

// TestOwnRunsNeverLoseAWin: on random small positions where a king
// carries its own run (ownRunTiny), every position the king-lock test
// calls dead is unsolvable by an exhaustive search, and the run rule
// (addRuns) finds dead positions the test without it does not.
func TestOwnRunsNeverLoseAWin(t *testing.T) {
	n := solvertest.N(3000, 600)
	rng := cards.NewRand(31)
	ruled, fired := 0, 0
	for range n {
		g := ownRunTiny(rng)
		var l kingLocks
		if g.locks(&l) {
			l.addRuns(g)
			if l.ownRun != 0 {
				ruled++
			}
		}
		if !g.kingLocked() {
			continue
		}
		if !g.kingLockedWithoutRuns() {
			fired++
		}
		if v := exhaustive(t, g); v != solver.Unsolvable {
			t.Fatalf("king-locked, but the exhaustive search says %v\n%s", v, g.Render())
		}
	}
	t.Logf("%d positions, %d with a king's own run: the run rule alone locked %d", n, ruled, fired)
	if fired < n/200 {
		t.Errorf("the run rule locked only %d of %d positions that the king-lock test without it leaves open", fired, n)
	}
}

// ownRunLock returns a position set up by hand, the swap spent, that the
// king-lock test proves lost only by the rule of a king's own run
// (addRuns); with run false, the same cards with the run taken off its
// king and laid under the lone Q♥, a position that is won:
//
//	fan 1:  Q♥  K♠  Q♠  J♠  10♠   (the run Q♠ J♠ 10♠ on the K♠)
//	fan 2:  K♠  9♠  K♥  K♣
//	fan 3:  Q♣  K♥
//	fan 4:  Q♥                     (without the run: Q♠ J♠ 10♠ Q♥)
//
//	foundations:  ♣ K, J   ♦ K, K   ♥ J, J   ♠ Q, 8
func ownRunLock(run bool) *Position {
	fan1, fan4 := "Q♥ K♠ Q♠ J♠ 10♠", "Q♥"
	if !run {
		fan1, fan4 = "Q♥ K♠", "Q♠ J♠ 10♠ Q♥"
	}
	g := position(fan1, "K♠ 9♠ K♥ K♣", "Q♣ K♥", fan4)
	g.SetFoundation(cards.Clubs, cards.King, cards.Jack)
	g.SetFoundation(cards.Diamonds, cards.King, cards.King)
	g.SetFoundation(cards.Hearts, cards.Jack, cards.Jack)
	g.SetFoundation(cards.Spades, cards.Queen, 8)
	g.SetSwapUsed(true)
	return g
}

// TestOwnRunLocksByHand: the position of ownRunLock is king-locked only by
// the rule of a king's own run, which the relaxed game of Dead misses too,
// and the plain search, which knows nothing but the rules, agrees that it
// is lost; with the run taken off its king it is won, and neither test
// calls it dead.
//
// Why it is lost, as a player sees it. The lone Q♥ goes home, the K♥ of
// fan 3 on it, then the Q♣ and the K♣, and play stops. The other K♥ is now
// the second king of hearts, so it needs the other Q♥, which lies under the
// K♠ of fan 1. That K♠ could go home at once on the spade foundation
// showing the queen, but the Q♠ J♠ 10♠ lie on it, and their twins are
// home: a card of the run can go only onto the second spade foundation,
// which waits at the 8♠ for the 9♠, or, the run whole, onto the other K♠.
// Both the 9♠ and the other K♠ lie under the K♥. So that K♥ waits for the
// K♠ of fan 1, which waits for its run, which waits for the K♥.
//
// Without the rule the king-lock test misses this: it lets the K♠ of fan
// 1 go home as the first king of its suit, whose lower cards are all home
// on one foundation, and after it the K♥ and the other K♠. addRuns adds
// that the K♠ under the run waits for the kings above a copy of a spade
// lower than the 10♠ (the K♥ and the K♣ above the 9♠), or for those above
// the other K♠ (the same two). The relaxed game of Dead misses it as well:
// it lets both K♥ go home on the one Q♥ home, so the 9♠ comes free.
func TestOwnRunLocksByHand(t *testing.T) {
	g := ownRunLock(true)
	if n := g.relaxed(); n != 0 {
		t.Fatalf("the relaxed game leaves %d cards out: the run rule is not alone\n%s", n, g.Render())
	}
	if g.kingLockedWithoutRuns() {
		t.Fatalf("king-locked without the run rule\n%s", g.Render())
	}
	if !g.kingLocked() || !g.Dead() {
		t.Fatalf("not king-locked (dead %v): the run rule misses the K♠ under its own run\n%s", g.Dead(), g.Render())
	}
	var l kingLocks
	g.locks(&l)
	l.addRuns(g)
	if bits.OnesCount8(l.ownRun) != 1 {
		t.Errorf("own runs on kings %08b, want the K♠ of fan 1 alone", l.ownRun)
	}
	plain := solvertest.New(t, solvertest.Plain(200000, 16))
	r := plain.Solve(context.Background(), g)
	if r.Verdict != solver.Unsolvable {
		t.Fatalf("the plain search says %v (%d nodes)\n%s", r.Verdict, r.Nodes, g.Render())
	}
	t.Logf("lost: the plain search proves it in %d nodes", r.Nodes)

	g = ownRunLock(false)
	if g.kingLocked() || g.Dead() {
		t.Fatalf("the run off its king, still king-locked %v, dead %v\n%s", g.kingLocked(), g.Dead(), g.Render())
	}
	if r := plain.Solve(context.Background(), g); r.Verdict != solver.Solved {
		t.Fatalf("the run off its king, the plain search says %v (%d nodes)\n%s", r.Verdict, r.Nodes, g.Render())
	}
}
