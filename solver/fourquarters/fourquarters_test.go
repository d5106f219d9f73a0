package fourquarters

import (
	"context"
	"flag"
	"fmt"
	"math/bits"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	rules "github.com/patience-gym/patience/env/fourquarters"
	"github.com/patience-gym/patience/solver"
	"github.com/patience-gym/patience/solver/internal/solvertest"
)

// stress sets the number of positions of the verdict tests for a longer
// run: go test ./solver/fourquarters -run Keep -stress 5000.
var stress = flag.Int("stress", 0, "positions per kind in the verdict tests")

func cardsOf(t testing.TB, s string) []cards.Card {
	t.Helper()
	if s == "" {
		return nil
	}
	return cards.MustParseList(s)
}

// cross lays out cells given by name ("N1": "5S") and a stock.
func cross(t testing.TB, variant string, cells map[string]string, stock string) *rules.Game {
	t.Helper()
	var cs [rules.NumCells]cards.Card
	for name, c := range cells {
		i, err := rules.ParseCell(name)
		if err != nil {
			t.Fatal(err)
		}
		cs[i] = cards.MustParse(c)
	}
	g := rules.New()
	if err := g.SetVariant(variant); err != nil {
		t.Fatal(err)
	}
	g.Setup(cs, cardsOf(t, stock))
	return g
}

// TestDeadByParity: a position is dead when more quarters hold an odd
// number of cards of a rank than the stock has cards of it, and never in
// the variant hub.
func TestDeadByParity(t *testing.T) {
	three := map[string]string{"N1": "5S", "N2": "5H", "N3": "5D"}
	if g := NewWith(cross(t, "", three, ""), Parity); !g.Dead() {
		t.Error("an odd number of fives in one quarter, none to come: not dead")
	}
	if g := NewWith(cross(t, "", three, "5C"), Parity); g.Dead() {
		t.Error("the stock's five can still even it out: dead")
	}
	two := map[string]string{"N1": "5S", "N2": "5H", "N3": "5D", "E2": "5C"}
	if g := NewWith(cross(t, "", two, "5C"), Parity); !g.Dead() {
		t.Error("two odd quarters, one five to come: not dead")
	}
	if g := NewWith(cross(t, rules.VariantHub, three, ""), Parity); g.Dead() {
		t.Error("the hub variant pairs across quarters: parity proves nothing")
	}
}

// TestDeadByFrozenArm: an arm with cards, no pair and nothing closing up
// would change is frozen; one with a gap is not while the stock can
// refill it, and with the stock empty it is judged as closing up leaves
// it.
func TestDeadByFrozenArm(t *testing.T) {
	cases := []struct {
		name  string
		cells map[string]string
		stock string
		dead  bool
	}{
		{"two lone cards, packed, stock empty", map[string]string{"N1": "5S", "N2": "7H"}, "", true},
		{"a pair", map[string]string{"N1": "5S", "N2": "5H"}, "", false},
		{"five and five do not touch", map[string]string{"N1": "5S", "N3": "7H", "N5": "5H"}, "", true},
		{"an empty cell the stock refills", map[string]string{"N1": "5S", "N2": "7H"}, "5C 7C", false},
		{"a gap that closing up closes into a pair", map[string]string{"N1": "5S", "N5": "5H", "N7": "7H"}, "", false},
		{"a gap that closing up leaves without a pair", map[string]string{"N1": "5S", "N5": "7H", "N9": "5H"}, "", true},
		{"a gap, stock to come", map[string]string{"N1": "5S", "N5": "7H", "N9": "5H"}, "5C", false},
	}
	for _, c := range cases {
		g := NewWith(cross(t, "", c.cells, c.stock), Frozen)
		if got := g.Dead(); got != c.dead {
			t.Errorf("%s: dead %v, want %v\n%s", c.name, got, c.dead, g.Render())
		}
		h := NewWith(cross(t, rules.VariantHub, c.cells, c.stock), Frozen)
		if h.Dead() {
			t.Errorf("%s: dead in the hub variant", c.name)
		}
	}
	// A full arm without a pair is frozen with the stock still full.
	g := rules.New()
	g.Deal(500013)
	p := NewWith(g, Frozen)
	frozen := false
	for a := range rules.NumArms {
		r := p.ranksOf(a)
		frozen = frozen || !r.hasPair()
	}
	if p.Dead() != frozen {
		t.Errorf("deal 500013: dead %v, an arm without a pair %v", p.Dead(), frozen)
	}
}

// TestOneArmRoundIsArmByArm is the fact the pruning rests on: pairs
// removed in several arms before one close-up leave the position that the
// same pairs, removed arm by arm in the order N, E, S, W with a close-up
// after each arm, leave.
func TestOneArmRoundIsArmByArm(t *testing.T) {
	rng := cards.NewRand(3)
	m := env.NewMask(rules.NumActions)
	tried := 0
	for seed := uint64(0); seed < 400 && tried < 300; seed++ {
		g := rules.New()
		g.Deal(seed)
		for step := 0; step < 60 && !g.Won(); step++ {
			// One round: a random choice of pairs, in any arms, then close.
			joint, byArm := g.Clone().(*rules.Game), g.Clone().(*rules.Game)
			var taken [rules.NumArms][]int
			for {
				joint.Legal(&m)
				m.Unset(rules.ActClose)
				if m.Count() == 0 || rng.IntN(3) == 0 {
					break
				}
				a := m.Nth(rng.IntN(m.Count()))
				joint.Apply(a)
				i, _, _ := joint.ActionCells(a)
				taken[i/rules.ArmCells] = append(taken[i/rules.ArmCells], a)
			}
			n := 0
			for _, as := range taken {
				n += len(as)
			}
			if n == 0 || joint.Explain(rules.ActClose) != nil {
				break
			}
			joint.Apply(rules.ActClose)
			for _, as := range taken {
				if len(as) == 0 {
					continue
				}
				for _, a := range as {
					if err := byArm.Explain(a); err != nil {
						t.Fatalf("deal %d: %v", seed, err)
					}
					byArm.Apply(a)
				}
				if byArm.Explain(rules.ActClose) == nil {
					byArm.Apply(rules.ActClose)
				}
			}
			if joint.Hash() != byArm.Hash() {
				t.Fatalf("deal %d: the round and its arm-by-arm form differ\n%s\n%s", seed, joint.Render(), byArm.Render())
			}
			if n > 1 {
				tried++
			}
			g = joint
		}
	}
	if tried < 100 {
		t.Fatalf("only %d rounds with several pairs", tried)
	}
}

// TestViewKeepsItsCounts: the lookahead's stock counts and arm parities,
// kept up to date round by round, are those of the position it reaches
// counted afresh, and its parity verdict is that of the count.
func TestViewKeepsItsCounts(t *testing.T) {
	rng := cards.NewRand(5)
	checked, deadSeen := 0, 0
	for seed := uint64(0); seed < 60; seed++ {
		g := rules.New()
		g.Deal(seed)
		v := New(g).view()
		for step := 0; step < 30; step++ {
			var fresh view
			fresh.left = [14]uint8{}
			for _, c := range v.stock {
				fresh.left[c.Rank()]++
			}
			if fresh.left != v.left {
				t.Fatalf("deal %d step %d: stock counts %v, counted afresh %v", seed, step, v.left, fresh.left)
			}
			var odd [14]uint8
			for a := range rules.NumArms {
				var n [14]uint8
				for _, x := range v.arms[a] {
					n[x]++
				}
				for k := 1; k <= 13; k++ {
					if got := v.odd[a]>>k&1 == 1; got != (n[k]%2 == 1) {
						t.Fatalf("deal %d step %d: arm %d rank %d odd %v, %d cards", seed, step, a, k, got, n[k])
					}
					odd[k] += n[k] % 2
				}
			}
			want := false
			for k := 1; k <= 13; k++ {
				want = want || odd[k] > fresh.left[k]
			}
			v.parity = true
			a := rng.IntN(rules.NumArms)
			r := v.arms[a]
			var ps [rules.ArmPairs]uint16
			n := r.pairs(&ps)
			if n == 0 {
				break
			}
			for b := ps[rng.IntN(n)]; b != 0; b &= b - 1 {
				r[bits.TrailingZeros16(b)] = 0
			}
			// dead(a) is the parity verdict where arm a is not frozen.
			if c := &v.arms[a]; c.count() == 0 || c.hasPair() {
				if got := v.dead(a); got != want {
					t.Fatalf("deal %d step %d: parity dead %v, counted afresh %v", seed, step, got, want)
				}
				if want {
					deadSeen++
				}
			}
			v = v.after(a, &r)
			checked++
		}
	}
	if checked < 200 || deadSeen == 0 {
		t.Fatalf("only %d rounds checked, %d of them dead by parity", checked, deadSeen)
	}
}

// TestPruneKeepsOneArm: in a round under way in arm N, only N's pairs
// whose outer cell lies beyond N's emptied cells, and closing up, are
// kept; with no round under way, every move is.
func TestPruneKeepsOneArm(t *testing.T) {
	cells := map[string]string{}
	// Every arm full, with pairs in N (N3-N4, N9-N10, N11-N12) and E (E1-E2).
	ranks := "KQJT98765432AKQJT98765432AKQJT98765432AKQJT98765432"
	suit := "SHDC"
	for i := range rules.NumCells {
		cells[rules.CellName(i)] = string(ranks[i]) + string(suit[i%4])
	}
	cells["N4"], cells["N10"], cells["N12"], cells["E2"] = cells["N3"][:1]+"C", cells["N9"][:1]+"C", cells["N11"][:1]+"H", cells["E1"][:1]+"D"
	// (Without the parity test: with six stock cards this cross's parity is
	// past mending, which would leave closing up out.)
	g := NewWith(cross(t, "", cells, "AS AH AD AC 2S 2H"), All&^Parity)
	if !g.regular {
		t.Fatal("a full cross is not calm")
	}
	m := env.NewMask(rules.NumActions)
	g.Legal(&m)
	all := m.Count()
	g.Prune(nil, &m)
	if m.Count() != all {
		t.Errorf("no round under way: %d of %d moves kept", m.Count(), all)
	}
	pair := func(a, b string) int {
		for x := range rules.ActClose {
			i, j, _ := g.ActionCells(x)
			if rules.CellName(i) == a && rules.CellName(j) == b {
				return x
			}
		}
		t.Fatalf("no pair %s-%s", a, b)
		return -1
	}
	g.Apply(pair("N9", "N10"))
	g.Legal(&m)
	g.Prune(nil, &m)
	want := map[int]bool{pair("N11", "N12"): true, rules.ActClose: true}
	for x := m.Next(0); x >= 0; x = m.Next(x + 1) {
		if !want[x] {
			t.Errorf("kept %s", g.ActionString(x))
		}
	}
	if m.Count() != len(want) {
		t.Errorf("kept %d moves, want N11-N12 and close", m.Count())
	}
	// After N1-N4, the pair of nines N3-N5, whose outer cell N5 lies just
	// beyond the emptied N4, is kept.
	g = New(cross(t, "", map[string]string{"N1": "5S", "N2": "KC", "N3": "9C", "N4": "5H", "N5": "9D", "N6": "KD"}, ""))
	g.Apply(pair("N1", "N4"))
	g.Legal(&m)
	g.Prune(nil, &m)
	if !m.Has(pair("N3", "N5")) {
		t.Error("N3-N5 left out after N1-N4")
	}
}

// TestKeepsVerdicts compares, on small positions (verdictSample), the
// verdict of the search with every technique against the search with none
// (the dead tests and the pruning off).
func TestKeepsVerdicts(t *testing.T) {
	n := 600
	if *stress > 0 {
		n = *stress
	}
	v := solvertest.NewVerdicts(t, map[string]solver.Options{"the search with the techniques": {}}, 200000)
	for _, p := range verdictSample(n) {
		v.Check(t, p.name, p.g)
	}
	count := v.Count
	t.Logf("decided by the reference: %d solved, %d unsolvable", count[solver.Solved], count[solver.Unsolvable])
	if count[solver.Solved] < n/20 || count[solver.Unsolvable] < n/20 {
		t.Errorf("too few decided positions of each kind: %v", count)
	}
}

// TestEachTechniqueKeepsVerdicts is TestKeepsVerdicts for each technique
// alone (NewWith(g, needs|use), the search's own switches on), on the
// same positions: a user who measures the techniques one at a time, or
// searches with some of them switched off, relies on each of them keeping
// every verdict by itself, and not only beside the others, whose cuts
// could hide its error. A technique that left the search unchanged on
// every position would pass without being tested, so each must also change
// the node count of the search with only what it needs (NewWith(g,
// needs)) on some position.
func TestEachTechniqueKeepsVerdicts(t *testing.T) {
	n := solvertest.N(600, 150)
	if *stress > 0 {
		n = *stress
	}
	const nodes = 200000
	plain := solvertest.New(t, solvertest.Plain(nodes, 18))
	search := solvertest.New(t, solver.Options{Nodes: nodes, TableBits: 18})
	sample := verdictSample(n)
	want := make([]solver.Verdict, len(sample))
	var count [3]int
	for i, p := range sample {
		want[i] = plain.Solve(t.Context(), p.g).Verdict
		count[want[i]]++
	}
	if count[solver.Solved] < n/20 || count[solver.Unsolvable] < n/20 {
		t.Fatalf("too few decided positions of each kind: %v", count)
	}
	for _, c := range []struct {
		name string
		use  Technique
		// needs is what the technique does nothing without.
		needs Technique
	}{
		{"parity", Parity, 0},
		{"frozen arms", Frozen, 0},
		{"one arm a round", OneArm, 0},
		// The lookahead is part of the pruning to one arm a round: Prune
		// returns before it without OneArm. Without Parity it judges dead
		// positions by frozen arms alone. With Parity the pruning changes
		// no search of this sample (it cuts only in starts that the parity
		// proves lost), so the lookahead's parity is left to
		// TestPruneLeavesOutFreezingClose.
		{"dead rounds left out", Lookahead, OneArm},
		{"ranks as keys", RankKeys, 0},
		// The proof first plans the passes of the default rules only: the
		// sample's hub positions keep the default passes.
		{"the proof first", ProofFirst, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			searches := map[string]*solver.Solver{c.name: search}
			changed := false
			for i, p := range sample {
				if want[i] == solver.Unknown {
					continue
				}
				q := NewWith(p.g, c.needs|c.use)
				solvertest.Agree(t, fmt.Sprint(p.name, " ", i), q, want[i], searches)
				if !changed {
					without := search.Solve(t.Context(), NewWith(p.g, c.needs)).Nodes
					changed = search.Solve(t.Context(), q).Nodes != without
				}
			}
			if !changed {
				t.Errorf("%s changes the search on none of the %d positions", c.name, len(sample))
			}
		})
	}
}

// sampled is a position of verdictSample and the kind it is of.
type sampled struct {
	name string
	g    *rules.Game
}

// verdictSample returns the small positions of the verdict tests, the same
// on every call: n endgames (stock empty, few cards, files packed or not)
// and n/3 ends of real deals (a few stock cards left).
func verdictSample(n int) []sampled {
	var out []sampled
	rng := cards.NewRand(7)
	for k := range n {
		// An endgame: a few ranks in a few arms, the files packed in half
		// of them (a start from which the pruning works), and in a third
		// a stock that gives every arm's odd ranks a partner.
		var cs [rules.NumCells]cards.Card
		ranks := 2 + rng.IntN(3)
		var odd [rules.NumArms][14]bool
		for a := range rules.NumArms {
			if rng.IntN(2) == 0 || k%3 == 2 && a > 0 {
				continue // in a third, only arm N, which the refill serves first
			}
			for f := range 2 {
				d := rng.IntN(5)
				for x := 0; x < d; x++ {
					if k%2 == 1 && x > 0 && rng.IntN(5) == 0 {
						continue // leave a gap
					}
					c := cards.New(cards.Suit(rng.IntN(4)), cards.Rank(1+rng.IntN(ranks)))
					cs[a*rules.ArmCells+2*x+f] = c
					odd[a][c.Rank()] = !odd[a][c.Rank()]
				}
			}
		}
		var stock []cards.Card
		if rng.IntN(3) == 0 {
			for a := range rules.NumArms {
				for r, o := range odd[a] {
					if o {
						stock = append(stock, cards.New(cards.Suit(rng.IntN(4)), cards.Rank(r)))
					}
				}
			}
			if len(stock)%2 == 1 {
				stock = stock[:len(stock)-1]
			}
			rng.Shuffle(stock)
		}
		g := rules.New()
		if k%4 == 3 {
			g.SetVariant(rules.VariantHub)
		}
		g.Setup(cs, stock)
		out = append(out, sampled{"endgame", g})
	}
	// The ends of real deals: random pairs and close-ups until a few stock
	// cards are left.
	m := env.NewMask(rules.NumActions)
	for k := 0; k < n/3; k++ {
		g := rules.New()
		g.Deal(uint64(700000 + k))
		for g.StockLeft() > 4+k%5 {
			g.Legal(&m)
			if m.Count() == 0 {
				break
			}
			g.Apply(m.Nth(rng.IntN(m.Count())))
		}
		if g.Explain(rules.ActClose) == nil {
			g.Apply(rules.ActClose) // a calm start, from which the pruning works
		}
		out = append(out, sampled{"late", g})
	}
	return out
}

// TestKeyIgnoresSuits: positions with the same ranks in the same cells
// and the same stock share a key; a rank moved to another cell, or a card
// fewer in the stock, does not.
func TestKeyIgnoresSuits(t *testing.T) {
	a := New(cross(t, "", map[string]string{"N1": "5S", "N2": "5H", "E3": "KD"}, "2C 3C"))
	b := New(cross(t, "", map[string]string{"N1": "5D", "N2": "5C", "E3": "KS"}, "2C 3C"))
	c := New(cross(t, "", map[string]string{"N1": "5S", "N3": "5H", "E3": "KD"}, "2C 3C"))
	d := New(cross(t, "", map[string]string{"N1": "5S", "N2": "5H", "E3": "KD"}, "3C"))
	if a.Key() != b.Key() {
		t.Error("the same ranks in other suits: different keys")
	}
	if a.Hash() == b.Hash() {
		t.Error("the hashes do not tell the suits apart")
	}
	if a.Key() == c.Key() || a.Key() == d.Key() {
		t.Error("other cells or another stock: the same key")
	}
	if off := NewWith(cross(t, "", map[string]string{"N1": "5S"}, ""), All&^RankKeys); off.Key() != off.Hash() {
		t.Error("without RankKeys the key is not the hash")
	}
}

// TestPruneLeavesOutFreezingClose: in a round under way, closing up is
// left out when it would leave the arm frozen (its files slid, no pair),
// and kept when the slide makes a pair; and left out when the parity
// after it cannot be mended.
func TestPruneLeavesOutFreezingClose(t *testing.T) {
	m := env.NewMask(rules.NumActions)
	for _, c := range []struct {
		cells map[string]string
		kept  bool
	}{
		{map[string]string{"N1": "5S", "N5": "7H", "N9": "5H", "N11": "7C"}, false},
		{map[string]string{"N1": "5S", "N5": "5H", "N7": "7H", "N9": "7C"}, true},
	} {
		g := New(cross(t, "", c.cells, ""))
		g.regular = true // as if a search from a calm start had made the gap
		g.Legal(&m)
		if !m.Has(rules.ActClose) {
			t.Fatal("closing up is not legal")
		}
		g.Prune(nil, &m)
		if m.Has(rules.ActClose) != c.kept {
			t.Errorf("%v: close kept %v, want %v", c.cells, m.Has(rules.ActClose), c.kept)
		}
	}
	// A lone 9 in arm E and none to come: dead after closing up, by parity
	// (the frozen arm E is the dead test's to find, not the lookahead's).
	cells := map[string]string{"N1": "5S", "N5": "5H", "N7": "7H", "N9": "7C", "E1": "9S"}
	g := New(cross(t, "", cells, ""))
	g.regular = true
	g.Legal(&m)
	g.Prune(nil, &m)
	if m.Has(rules.ActClose) {
		t.Error("closing up kept though the parity after it is past mending")
	}
	g = NewWith(cross(t, "", cells, ""), All&^Parity)
	g.regular = true
	g.Legal(&m)
	g.Prune(nil, &m)
	if !m.Has(rules.ActClose) {
		t.Error("closing up left out by parity without the parity test")
	}
}

// TestPruneLeavesOutDeadRounds: at a calm position, an arm whose every
// round (a set of its pairs removed, then closing up) leaves it frozen is
// left out; an arm with a round that lives is kept.
func TestPruneLeavesOutDeadRounds(t *testing.T) {
	// Arm N: 5♠ 5♥ side by side, then 9♣ alone: removing the fives slides
	// 9♣ to the hub and leaves it without a pair; the stock is spent.
	// Arm E: two pairs of sevens, one above the other: a round clears it.
	cells := map[string]string{"N1": "5S", "N2": "5H", "N3": "9C", "E1": "7S", "E2": "7H", "E3": "8S", "E4": "8H"}
	m := env.NewMask(rules.NumActions)
	g := NewWith(cross(t, "", cells, ""), All&^Parity)
	g.Legal(&m)
	g.Prune(nil, &m)
	for x := m.Next(0); x >= 0; x = m.Next(x + 1) {
		if i, _, _ := g.ActionCells(x); i/rules.ArmCells == 0 {
			t.Errorf("kept %s, a pair of arm N, whose rounds all freeze it", g.ActionString(x))
		}
	}
	if m.Count() == 0 {
		t.Error("arm E's rounds left out too")
	}
	v := g.view()
	if !v.armLives(1) || v.armLives(0) {
		t.Errorf("rounds that live: N %v, E %v", v.armLives(0), v.armLives(1))
	}
}

// TestHotPathAllocatesNothing: the dead tests, the pruning and the key run
// at every position a search expands, without allocating.
func TestHotPathAllocatesNothing(t *testing.T) {
	g := rules.New()
	g.Deal(500001)
	p := New(g)
	m := env.NewMask(rules.NumActions)
	p.Legal(&m)
	a := m.Next(0)
	q := p.Clone().(*Position)
	q.Apply(a) // a round under way
	for _, x := range []*Position{p, q} {
		if n := testing.AllocsPerRun(20, func() {
			x.Legal(&m)
			x.Prune(nil, &m)
			_ = x.Dead()
			_ = x.Key()
		}); n != 0 {
			t.Errorf("%v allocations a position", n)
		}
	}
}

// BenchmarkPrune: the pruning with its lookahead, at the start of a deal
// and in a round under way.
func BenchmarkPrune(b *testing.B) {
	g := rules.New()
	g.Deal(500066)
	p := New(g)
	m := env.NewMask(rules.NumActions)
	for b.Loop() {
		p.Legal(&m)
		p.Prune(nil, &m)
	}
}

// TestProofFirstGivesTheProofTheBudget: with ProofFirst the default rules'
// search runs one line and then the exhaustive pass, which proves tuning
// deal 500,020 lost within 300k nodes; with the solver's default passes,
// which spend most of the budget hunting wins, the deal stays open at that
// budget. The hub variant keeps the default passes.
func TestProofFirstGivesTheProofTheBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("two searches of 300k nodes")
	}
	g := rules.New()
	g.Deal(500020)
	s, err := solver.New(solver.Options{Nodes: 300_000})
	if err != nil {
		t.Fatal(err)
	}
	if r := s.Solve(context.Background(), NewWith(g, All)); r.Verdict != solver.Unsolvable {
		t.Errorf("with ProofFirst: %v after %d nodes, want proved lost", r.Verdict, r.Nodes)
	}
	if r := s.Solve(context.Background(), NewWith(g, All&^ProofFirst)); r.Verdict != solver.Unknown {
		t.Errorf("without ProofFirst: %v after %d nodes, want undecided (the test's deal no longer tells the plans apart)", r.Verdict, r.Nodes)
	}
	h := cross(t, rules.VariantHub, map[string]string{"N1": "5S"}, "")
	if p := NewWith(h, All).Passes(); len(p) != len(solver.DefaultPasses) {
		t.Errorf("the hub variant plans %d limited passes, want the default %d", len(p), len(solver.DefaultPasses))
	}
}
