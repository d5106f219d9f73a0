package envtest

import (
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
)

// Worlds says where a game with hidden cards, of type G, keeps the cards a
// player has never seen, for CheckWorlds. In every game of this module such
// cards lie where the deal put them until they are turned (a stock,
// face-down ladder cards): what the player saw decides the rest.
type Worlds[G env.Game] struct {
	// Unseen appends to dst the cards of g that the player has never seen,
	// in the order of their places (the same places for every state with
	// the same history).
	Unseen func(g G, dst []cards.Card) []cards.Card
	// Rewind puts into start, the position as dealt, world's unseen cards
	// in their places: the deal from which the moves played so far lead to
	// world, if world agrees with what the player saw.
	Rewind func(start, world G)
}

// UnseenDeterminizer is implemented by games whose Determinize reshuffles
// cards a player who remembers has seen (Limited's and Ladder's waste,
// which the observation no longer shows): DeterminizeUnseen reshuffles
// only the cards never seen. The fair search agents sample their worlds
// with it where a game has it, and with Determinize elsewhere.
type UnseenDeterminizer interface {
	DeterminizeUnseen(rng *cards.Rand)
}

// sampleWorld reshuffles g's cards never seen: DeterminizeUnseen where g
// has it, else Determinize.
func sampleWorld(g env.Game, rng *cards.Rand) {
	if u, ok := g.(UnseenDeterminizer); ok {
		u.DeterminizeUnseen(rng)
		return
	}
	g.(env.Determinizer).Determinize(rng)
}

// CheckWorlds checks that the game samples the worlds a player who
// remembers every card seen cannot tell apart (with DeterminizeUnseen where
// the game has it, else with Determinize). It plays random games of
// the named game and, at points along each, determinizes copies of the
// position; each copy must show the same observation and legal moves, hold
// the same unseen cards, and be the end of a history that shows the player
// exactly what the real one showed: the moves played so far, replayed from
// the deal with the copy's unseen cards put back in their places (Rewind),
// give the same observation at every step and end in the copy. Then, at a
// few positions with many unseen cards, it draws many copies and tests by
// chi-square that the card in each of several unseen places is uniform
// over the unseen cards (p above 10^-3; the test is seeded, so it passes or
// fails every time alike).
func CheckWorlds[G env.Game](t *testing.T, game string, w Worlds[G]) {
	t.Helper()
	unseen := func(g env.Game, dst []cards.Card) []cards.Card { return w.Unseen(g.(G), dst) }
	deals, every := 24, 5
	if testing.Short() {
		deals = 6
	}
	ng := func() env.Game {
		g, err := env.NewGame(game)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	g, world, start := ng(), ng(), ng()
	spec := g.Spec()
	mask, wmask := env.NewMask(spec.Actions), env.NewMask(spec.Actions)
	obs, wobs := make([]uint8, spec.ObsLen), make([]uint8, spec.ObsLen)
	var seen [][]uint8 // the observations so far
	var moves []int
	var u1, u2 []cards.Card
	checked, differed := 0, 0
	// uniform holds positions for the chi-square test: the states with the
	// most unseen cards among the checkpoints of a few deals.
	var uniform []env.Game
	for seed := range uint64(deals) {
		rng := cards.NewRand(seed)
		g.Deal(seed)
		seen, moves = seen[:0], moves[:0]
		best, bestN := env.Game(nil), 0
		for step := 0; ; step++ {
			g.Observe(obs)
			seen = append(seen, slices.Clone(obs))
			g.Legal(&mask)
			if step%every == 0 || mask.Empty() {
				for k := range 3 {
					world.CopyFrom(g)
					sampleWorld(world, cards.NewRand(seed<<20^uint64(step)<<4^uint64(k)))
					checked++
					if world.Hash() != g.Hash() {
						differed++
					}
					world.Observe(wobs)
					world.Legal(&wmask)
					if !slices.Equal(obs, wobs) || !mask.Equal(&wmask) {
						t.Fatalf("deal %d step %d: a world shows another observation or other moves", seed, step)
					}
					u1, u2 = unseen(g, u1[:0]), unseen(world, u2[:0])
					cards.Sort(u1)
					cards.Sort(u2)
					if !slices.Equal(u1, u2) {
						t.Fatalf("deal %d step %d: a world's unseen cards are not the position's", seed, step)
					}
					start.Deal(seed)
					w.Rewind(start.(G), world.(G))
					for i, a := range moves {
						start.Observe(wobs)
						start.Legal(&wmask)
						if !slices.Equal(seen[i], wobs) || !wmask.Has(a) {
							t.Fatalf("deal %d step %d: a world disagrees with what the player saw at step %d", seed, step, i)
						}
						start.Apply(a)
					}
					if start.Hash() != world.Hash() {
						t.Fatalf("deal %d step %d: the world is not where its history leads: it moved cards the player saw", seed, step)
					}
				}
				if n := len(unseen(g, u1[:0])); n > bestN && seed < 4 {
					best, bestN = g.Clone(), n
				}
			}
			if mask.Empty() || step == 300 {
				break
			}
			a := mask.Nth(rng.IntN(mask.Count()))
			moves = append(moves, a)
			g.Apply(a)
		}
		if best != nil && bestN >= 8 {
			uniform = append(uniform, best)
		}
	}
	if checked == 0 || differed == 0 {
		t.Fatalf("%d worlds checked, %d differed from the position", checked, differed)
	}
	if len(uniform) == 0 {
		t.Fatal("no position with eight unseen cards for the chi-square test")
	}
	draws := 12000
	if testing.Short() {
		draws = 3000
	}
	for pi, p := range uniform {
		u := unseen(p, nil)
		n := len(u)
		var want [cards.NumCodes]float64
		for _, c := range u {
			want[c]++
		}
		places := []int{0, 1, n / 2, n - 1}
		counts := make([][cards.NumCodes]float64, len(places))
		for d := range draws {
			world.CopyFrom(p)
			sampleWorld(world, cards.NewRand(uint64(d)*0x9e3779b97f4a7c15+uint64(pi)))
			u2 = unseen(world, u2[:0])
			for i, at := range places {
				counts[i][u2[at]]++
			}
		}
		for i, at := range places {
			chi, df := 0.0, -1
			for c, m := range want {
				if m == 0 {
					if counts[i][c] != 0 {
						t.Fatalf("position %d place %d: card %v drawn, which is not unseen", pi, at, cards.Card(c))
					}
					continue
				}
				e := m / float64(n) * float64(draws)
				d := counts[i][c] - e
				chi += d * d / e
				df++
			}
			if df < 1 {
				continue
			}
			p := distuv.ChiSquared{K: float64(df)}.Survival(chi)
			if p < 1e-3 {
				t.Errorf("position %d (%d unseen cards), place %d: chi-square %.1f on %d degrees of freedom, p = %.2g: not uniform", pi, n, at, chi, df, p)
			}
		}
	}
}
