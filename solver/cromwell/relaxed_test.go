package cromwell

import (
	"math/rand/v2"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	rules "github.com/patience-gym/patience/env/cromwell"
	"github.com/patience-gym/patience/solver/internal/solvertest"
)

// sweepRelaxed plays the relaxed game of Dead by plain sweeps over the
// fans until nothing changes, as its documentation states it: the
// reference that relaxed, which runs by events, must agree with.
func (g *Position) sweepRelaxed() int {
	var cnt, need [cards.NumSuits][14]uint8
	for s := range cards.NumSuits {
		hi, lo := g.Foundations()[2*s], g.Foundations()[2*s+1]
		cnt[s][0] = 2
		for r := uint8(1); r <= 13; r++ {
			if hi >= r {
				cnt[s][r]++
			}
			if lo >= r {
				cnt[s][r]++
			}
			need[s][r] = cnt[s][r] + 1
		}
	}
	var top [rules.NumFans]int
	var seen [cards.NumCodes]bool
	var free []cards.Card
	left := 0
	for f := range rules.NumFans {
		top[f] = g.FanLen(f)
		left += top[f]
		if top[f] > 0 {
			seen[g.Fans()[f][top[f]-1]] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for f := range rules.NumFans {
			for t := top[f]; t > 0; t = top[f] {
				c := g.Fans()[f][t-1]
				s, r := int(c.Suit()), c.Rank()
				if cnt[s][r-1] >= need[s][r] {
					cnt[s][r]++
					left--
					top[f] = t - 1
				} else {
					b := t - 1
					for b > 0 && g.Fans()[f][b-1] == g.Fans()[f][b]+1 && g.Fans()[f][b].Rank() != cards.King {
						b--
					}
					for ; b < t; b++ {
						if x := g.Fans()[f][b]; x.Rank() != cards.King && seen[x+1] {
							break
						}
					}
					if b == t {
						break
					}
					for k := b; k < t; k++ {
						free = append(free, g.Fans()[f][k])
						seen[g.Fans()[f][k]] = true
					}
					top[f] = b
				}
				changed = true
				if top[f] > 0 {
					seen[g.Fans()[f][top[f]-1]] = true
				}
			}
		}
		for i := 0; i < len(free); i++ {
			c := free[i]
			s, r := int(c.Suit()), c.Rank()
			if cnt[s][r-1] >= need[s][r] {
				cnt[s][r]++
				left--
				free[i] = free[len(free)-1]
				free = free[:len(free)-1]
				i--
				changed = true
			}
		}
	}
	return left
}

// TestRelaxedAgreesWithSweeps: on the positions of random play through
// many deals, before and after the swap, the relaxed game gets exactly as
// many cards home as the plain sweep does, SearchEvaluateDead agrees with
// SearchEvaluate and Dead, and the relaxed game does not allocate.
func TestRelaxedAgreesWithSweeps(t *testing.T) {
	deals := solvertest.N(300, 60)
	g := newPos()
	m := env.NewMask(rules.NumActions)
	rng := rand.New(rand.NewPCG(11, 12))
	positions, stuck := 0, 0
	for seed := range uint64(deals) {
		g.Deal(seed)
		for step := 0; step < 400 && !g.Won(); step++ {
			got, want := g.relaxed(), g.sweepRelaxed()
			if got != want {
				t.Fatalf("deal %d, step %d: relaxed leaves %d cards, the sweep %d\n%s", seed, step, got, want, g.Render())
			}
			if score, dead := g.SearchEvaluateDead(); score != g.SearchEvaluate() || dead != g.Dead() {
				t.Fatalf("deal %d, step %d: SearchEvaluateDead gives %v, %v; SearchEvaluate and Dead %v, %v", seed, step, score, dead, g.SearchEvaluate(), g.Dead())
			}
			positions++
			if got > 0 {
				stuck++
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
			if a == rules.ActSwapBegin && rng.IntN(8) != 0 && len(legal) > 1 {
				a = legal[0]
			}
			g.Apply(a)
		}
	}
	if stuck == 0 || stuck == positions {
		t.Errorf("%d of %d positions leave cards out: the test does not tell the two apart", stuck, positions)
	}
	g.Deal(1)
	if n := testing.AllocsPerRun(100, func() { g.relaxed() }); n != 0 {
		t.Errorf("relaxed allocates %v times", n)
	}
}

// BenchmarkRelaxed times the relaxed game beside its plain reference, and
// the king-lock test, on one deal's start.
func BenchmarkRelaxed(b *testing.B) {
	g := newPos()
	g.Deal(500023)
	for _, bm := range []struct {
		name string
		run  func()
	}{
		{"events", func() { g.relaxed() }},
		{"sweeps", func() { g.sweepRelaxed() }},
		{"king-lock", func() { g.kingLocked() }},
	} {
		b.Run(bm.name, func(b *testing.B) {
			for b.Loop() {
				bm.run()
			}
		})
	}
}
