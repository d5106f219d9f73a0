package cromwell

import (
	"math/rand/v2"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
)

// pairEvaluate is Evaluate as its documentation states it, pair by pair:
// the reference that Evaluate, which counts with bit masks, must agree
// with.
func (g *Game) pairEvaluate() float64 {
	score := float64(g.home)
	for f := range NumFans {
		n := int(g.n[f])
		for k := 1; k < n; k++ {
			c := g.fans[f][k]
			if c.Rank() == cards.King {
				score -= float64(k) * 0.5
			}
			for j := 0; j < k; j++ {
				if b := g.fans[f][j]; b.Suit() == c.Suit() && b.Rank() < c.Rank() {
					score -= 0.25
				}
			}
		}
		if n > 0 && g.found.Fits(g.fans[f][n-1]) {
			score += 0.5
		}
	}
	if g.swap == SwapUnused {
		score += 2
	}
	return score
}

// TestEvaluateAgreesWithPairs: on the positions of random play through
// many deals, before and after the swap, Evaluate gives exactly the score
// its pair-by-pair reference gives, and it does not allocate.
func TestEvaluateAgreesWithPairs(t *testing.T) {
	deals := 300
	if testing.Short() {
		deals = 60
	}
	g := New()
	playRandom(g, deals, 400, rand.New(rand.NewPCG(11, 12)), func(seed uint64, step int) {
		if got, want := g.Evaluate(), g.pairEvaluate(); got != want {
			t.Fatalf("deal %d, step %d: Evaluate %v, pair by pair %v\n%s", seed, step, got, want, g.Render())
		}
	})
	g.Deal(1)
	if n := testing.AllocsPerRun(100, func() { g.Evaluate() }); n != 0 {
		t.Errorf("Evaluate allocates %v times", n)
	}
}

// playRandom plays deals 0..deals-1 of g at random for at most steps steps
// each, mostly moving home and between fans so that games go deep (the
// swap is begun one time in eight it is drawn), and calls visit on every
// position before its move.
func playRandom(g *Game, deals, steps int, rng *rand.Rand, visit func(seed uint64, step int)) {
	m := env.NewMask(NumActions)
	var legal []int
	for seed := range uint64(deals) {
		g.Deal(seed)
		for step := 0; step < steps && !g.Won(); step++ {
			visit(seed, step)
			g.Legal(&m)
			legal = m.AppendActions(legal[:0])
			if len(legal) == 0 {
				break
			}
			a := legal[rng.IntN(len(legal))]
			if a == ActSwapBegin && rng.IntN(8) != 0 && len(legal) > 1 {
				a = legal[0]
			}
			g.Apply(a)
		}
	}
}

// BenchmarkEvaluate times Evaluate beside its plain reference, on one
// deal's start.
func BenchmarkEvaluate(b *testing.B) {
	g := New()
	g.Deal(500023)
	b.Run("masks", func(b *testing.B) {
		for b.Loop() {
			g.Evaluate()
		}
	})
	b.Run("pairs", func(b *testing.B) {
		for b.Loop() {
			g.pairEvaluate()
		}
	})
}
