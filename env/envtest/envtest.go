// Package envtest holds the test helpers every game package shares: the
// property checker run at the size the tests use, random play, and the
// Step and Terms benchmarks.
package envtest

import (
	"bytes"
	"context"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/env/check"
)

// Games is the number of random games Check plays (ShortGames under
// `go test -short`); `patience check --games N` plays more.
const (
	Games      = 300
	ShortGames = 40
)

// Check runs the property checker on the named game and fails t on any
// failure. It returns the report for further assertions.
func Check(t testing.TB, game string) *check.Report {
	t.Helper()
	games := Games
	if testing.Short() {
		games = ShortGames
	}
	rep, err := check.Run(context.Background(), game, check.Options{Games: games, Workers: runtime.GOMAXPROCS(0)})
	if err != nil {
		t.Fatal(err)
	}
	if err := rep.Err(); err != nil {
		t.Fatal(err)
	}
	t.Log(rep)
	return rep
}

// BenchmarkTerms times the named game's Terms beside its Evaluate, on the
// start of deal seed. The game must be a Termer and an Evaluator.
func BenchmarkTerms(b *testing.B, game string, seed uint64) {
	g, err := env.NewGame(game)
	if err != nil {
		b.Fatal(err)
	}
	g.Deal(seed)
	t, ok := g.(interface {
		env.Termer
		env.Evaluator
	})
	if !ok {
		b.Fatalf("%s names no evaluation terms", game)
	}
	dst := make([]float64, len(g.Spec().Terms))
	b.Run("terms", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			t.Terms(dst)
		}
	})
	b.Run("evaluate", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			t.Evaluate()
		}
	})
}

// BenchmarkStep measures one Step of the named game with a uniformly random
// legal action, the mask and the observation produced, dealing the next
// deal whenever an episode ends (or a deal offers no move at all).
func BenchmarkStep(b *testing.B, game string) {
	e, err := env.Make(game, env.Options{})
	if err != nil {
		b.Fatal(err)
	}
	rng := cards.NewRand(1)
	seed := uint64(0)
	e.Reset(seed)
	b.ReportAllocs()
	for b.Loop() {
		for e.Done() {
			seed++
			e.Reset(seed)
		}
		m := e.Mask()
		if _, _, _, _, _, err := e.Step(m.Nth(rng.IntN(m.Count()))); err != nil {
			b.Fatal(err)
		}
	}
}

// Legal returns the names of g's legal actions, in id order.
func Legal(g env.Game) []string {
	m := env.NewMask(g.Spec().Actions)
	g.Legal(&m)
	var out []string
	for _, a := range m.AppendActions(nil) {
		out = append(out, g.ActionString(a))
	}
	return out
}

// CheckInterfaces pins the optional interfaces of every registered game:
// each game of want, as wrap gives it (the game itself where wrap is nil),
// must implement exactly the interfaces of optional that want lists for it,
// by name (reflect.Type.Name) in the order of optional, and want must name
// every game. A method whose signature drifts would otherwise drop out
// silently.
func CheckInterfaces(t *testing.T, optional []reflect.Type, want map[string][]string, wrap func(env.Game) env.Game) {
	t.Helper()
	if names := env.Names(); len(names) != len(want) {
		t.Errorf("games %v, want the %d pinned here", names, len(want))
	}
	for name, w := range want {
		g, err := env.NewGame(name)
		if err != nil {
			t.Fatal(err)
		}
		if wrap != nil {
			g = wrap(g)
		}
		var got []string
		for _, it := range optional {
			if reflect.TypeOf(g).Implements(it) {
				got = append(got, it.Name())
			}
		}
		if !slices.Equal(got, w) {
			t.Errorf("%s: its %T implements %v, want %v", name, g, got, w)
		}
	}
}

// Action parses a move that is exactly one action, failing t otherwise.
func Action(t testing.TB, g env.Game, s string) int {
	t.Helper()
	ids, err := g.ParseActions(s)
	if err != nil || len(ids) != 1 {
		t.Fatalf("parse %q: %v %v", s, ids, err)
	}
	return ids[0]
}

// Play plays the named moves on g, failing t unless both the rules' check
// and the mask accept each of them.
func Play(t testing.TB, g env.Game, moves ...string) {
	t.Helper()
	m := env.NewMask(g.Spec().Actions)
	for _, mv := range moves {
		a := Action(t, g, mv)
		if err := g.Explain(a); err != nil {
			t.Fatalf("%s refused: %v", mv, err)
		}
		g.Legal(&m)
		if !m.Has(a) {
			t.Fatalf("%s is not in the mask %v", mv, Legal(g))
		}
		g.Apply(a)
	}
}

// PlayToWin plays actions from position g through an Env (deal 0, default
// options) and fails t unless each is accepted, the last ends the episode
// won with a positive reward, and g then reports the win with all its
// Spec().Cards cards home.
func PlayToWin(t testing.TB, g env.Game, actions ...int) {
	t.Helper()
	e := env.FromPosition(g, 0, env.Options{})
	for i, a := range actions {
		_, r, term, _, info, err := e.Step(a)
		if err != nil {
			t.Fatal(err)
		}
		if i == len(actions)-1 && (!term || info.Outcome != env.Won || r <= 0) {
			t.Errorf("last move: terminated=%v outcome=%v reward=%v", term, info.Outcome, r)
		}
	}
	if !g.Won() || g.Progress() != g.Spec().Cards {
		t.Errorf("won=%v progress=%d", g.Won(), g.Progress())
	}
}

// CheckLost fails t unless position g offers no legal action and an Env on
// it reports the episode lost.
func CheckLost(t testing.TB, g env.Game) {
	t.Helper()
	if m := Mask(g); !m.Empty() {
		t.Errorf("moves offered in a dead position: %v", Legal(g))
	}
	if e := env.FromPosition(g, 0, env.Options{}); e.Outcome() != env.Lost {
		t.Errorf("outcome %v, want lost", e.Outcome())
	}
}

// CheckStepAllocs fails t if stepping the named game allocates. It plays
// runs uniformly random legal actions (drawn from a generator seeded with
// seed) through an Env, dealing the next deal whenever an episode ends,
// and reads the hash, the evaluation, the class, the progress and the win
// after each.
func CheckStepAllocs(t testing.TB, game string, runs int, seed uint64) {
	t.Helper()
	e, err := env.Make(game, env.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rng, deal := cards.NewRand(seed), uint64(0)
	e.Reset(deal)
	allocs := testing.AllocsPerRun(runs, func() {
		if e.Done() {
			deal++
			e.Reset(deal)
		}
		e.Step(e.Mask().Nth(rng.IntN(e.Mask().Count())))
		e.Hash()
		e.Evaluate()
		e.Class()
		e.Game().Progress()
		e.Game().Won()
	})
	if allocs != 0 {
		t.Errorf("%.1f allocations per step", allocs)
	}
}

// SameView reports whether a and b show the same observation and the same
// legal actions: states a player cannot tell apart.
func SameView(a, b env.Game) bool {
	oa, ob := make([]uint8, a.Spec().ObsLen), make([]uint8, b.Spec().ObsLen)
	a.Observe(oa)
	b.Observe(ob)
	ma, mb := Mask(a), Mask(b)
	return slices.Equal(oa, ob) && ma.Equal(&mb)
}

// CheckHash plays random games of the named game, of type G, on the given
// number of deals and fails t whenever the hash the game keeps up to date
// move by move differs from full, its computation from scratch (a method
// expression such as (*Game).fullHash).
func CheckHash[G env.Game](t testing.TB, game string, deals int, full func(G) uint64) {
	t.Helper()
	RandomPlay(t, game, deals, 1, func(e *env.Env) {
		if h, f := e.Game().Hash(), full(e.Game().(G)); h != f {
			t.Fatalf("deal %d step %d: incremental hash %x, computed from scratch %x", e.Seed(), e.Steps(), h, f)
		}
	})
}

// RandomPlay plays the named game on deals 0 to deals-1, every move a
// uniformly random legal one (drawn from a generator seeded with seed), and
// calls visit on every position of every game, the first and the last too.
func RandomPlay(t testing.TB, game string, deals int, seed uint64, visit func(e *env.Env)) {
	t.Helper()
	e, err := env.Make(game, env.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rng := cards.NewRand(seed)
	for deal := range uint64(deals) {
		e.Reset(deal)
		visit(e)
		for !e.Done() {
			m := e.Mask()
			if _, _, _, err := e.Advance(m.Nth(rng.IntN(m.Count()))); err != nil {
				t.Fatal(err)
			}
			visit(e)
		}
	}
}

// Mask returns g's legal actions.
func Mask(g env.Game) env.Mask {
	m := env.NewMask(g.Spec().Actions)
	g.Legal(&m)
	return m
}

// IsLegal reports whether the named move is legal, failing t unless the
// mask and the rules' own check agree.
func IsLegal(t testing.TB, g env.Game, move string) bool {
	t.Helper()
	a := Action(t, g, move)
	m := Mask(g)
	why := g.Explain(a)
	if m.Has(a) != (why == nil) {
		t.Fatalf("%s: the mask says %v, the rules' check says %v", move, m.Has(a), why)
	}
	return why == nil
}

// Refused fails t unless both the mask and the rules' own check refuse the
// named move, the check with a message containing want.
func Refused(t testing.TB, g env.Game, move, want string) {
	t.Helper()
	a := Action(t, g, move)
	m := Mask(g)
	err := g.Explain(a)
	if m.Has(a) || err == nil {
		t.Fatalf("%s accepted (in the mask: %v, the rules' check: %v)", move, m.Has(a), err)
	}
	if !strings.Contains(err.Error(), want) {
		t.Errorf("%s refused with %q, want it to mention %q", move, err, want)
	}
}

// FuzzPlay is the body of every game's action-sequence fuzz target: the
// fuzzer chooses a deal and bytes, each byte picks one of the legal actions
// (check.Sequence), and every property of the checker must hold at every
// step.
func FuzzPlay(f *testing.F, game string) {
	f.Add(uint64(0), []byte{})
	f.Add(uint64(1), []byte{0, 1, 2, 3, 4, 5, 6, 7})
	f.Add(uint64(2), bytes.Repeat([]byte{255, 0, 17}, 100))
	f.Add(uint64(1_000_003), bytes.Repeat([]byte{3}, 400))
	f.Fuzz(func(t *testing.T, seed uint64, data []byte) {
		rep, err := check.Sequence(game, seed, data, check.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := rep.Err(); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzMoveNames is the body of every game's move-name fuzz target: parsing
// any text never panics, every id a move parses to is in the action space,
// and each id's name parses back to that id alone.
func FuzzMoveNames(f *testing.F, game string) {
	g, err := env.NewGame(game)
	if err != nil {
		f.Fatal(err)
	}
	n := g.Spec().Actions
	for a := 0; a < n; a += max(1, n/40) {
		f.Add(g.ActionString(a))
	}
	for _, s := range []string{"", " ", ">", "1>", ">F", "99>99", "-1>F", "swap", "0>0", "\x00", "ⅻ>F", "1 > f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ids, err := g.ParseActions(s)
		if err != nil {
			if len(ids) != 0 {
				t.Errorf("ParseActions(%q) failed with ids %v", s, ids)
			}
			return
		}
		if len(ids) == 0 {
			t.Fatalf("ParseActions(%q) accepted a move of no action", s)
		}
		for _, a := range ids {
			if a < 0 || a >= n {
				t.Fatalf("ParseActions(%q) gave action %d outside 0..%d", s, a, n-1)
			}
			name := g.ActionString(a)
			back, err := g.ParseActions(name)
			if err != nil || len(back) != 1 || back[0] != a {
				t.Fatalf("ParseActions(%q) gave %d, named %q, which parses to %v (%v)", s, a, name, back, err)
			}
		}
	})
}

// CardLists parses each of lists as a list of cards (cards.MustParseList):
// the piles of a position set up by hand.
func CardLists(lists ...string) [][]cards.Card {
	out := make([][]cards.Card, len(lists))
	for i, l := range lists {
		out[i] = cards.MustParseList(l)
	}
	return out
}

// TinyCards returns, for each suit, foundation tops that leave a few cards
// of the suit in play (up to left/2, split at random between the suit's two
// foundations), and those cards shuffled: the makings of the small
// positions on which tests compare a search with game knowledge against an
// exhaustive one.
func TinyCards(rng *cards.Rand, left int) (tops [cards.NumSuits][2]cards.Rank, rest []cards.Card) {
	for s := range cards.NumSuits {
		miss := rng.IntN(left/2 + 1)
		a := rng.IntN(miss + 1)
		tops[s] = [2]cards.Rank{cards.Rank(13 - a), cards.Rank(13 - (miss - a))}
		for _, top := range tops[s] {
			for r := top + 1; r <= cards.King; r++ {
				rest = append(rest, cards.New(cards.Suit(s), r))
			}
		}
	}
	rng.Shuffle(rest)
	return tops, rest
}
