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
	m := env.NewMask(NumActions)
	rng := rand.New(rand.NewPCG(11, 12))
	for seed := range uint64(deals) {
		g.Deal(seed)
		for step := 0; step < 400 && !g.Won(); step++ {
			if got, want := g.Evaluate(), g.pairEvaluate(); got != want {
				t.Fatalf("deal %d, step %d: Evaluate %v, pair by pair %v\n%s", seed, step, got, want, g.Render())
			}
			g.Legal(&m)
			var legal []int
			for a := m.Next(0); a >= 0; a = m.Next(a + 1) {
				legal = append(legal, a)
			}
			if len(legal) == 0 {
				break
			}
			// Mostly moves home and between fans, so that games go deep.
			a := legal[rng.IntN(len(legal))]
			if a == ActSwapBegin && rng.IntN(8) != 0 && len(legal) > 1 {
				a = legal[0]
			}
			g.Apply(a)
		}
	}
	g.Deal(1)
	if n := testing.AllocsPerRun(100, func() { g.Evaluate() }); n != 0 {
		t.Errorf("Evaluate allocates %v times", n)
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
