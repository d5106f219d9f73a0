package agents

import (
	"math"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	fq "github.com/patience-gym/patience/env/fourquarters"
	"github.com/patience-gym/patience/policy"
)

func TestLookaheadSamplesAverage(t *testing.T) {
	spec := mustSpec(t, "fourquarters")
	agent := func(k int) Agent {
		return termsPolicy(t, spec, func(m *policy.Meta) { m.LookaheadSamples = k })
	}
	one, many := agent(1), agent(256)
	e, _ := env.Make("fourquarters", env.Options{})
	h, _ := New("heuristic")
	sample, child := e.Clone(), e.Clone()
	var rng cards.Rand
	rng.Seed(5)
	checked, flipped := 0, 0
	for deal := uint64(0); deal < 40 && checked < 6; deal++ {
		e.Reset(deal)
		h.Reset(deal)
		for !e.Done() && checked < 6 {
			v := NewView(e)
			m := e.Mask()
			if m.Has(fq.ActClose) && m.Count() > 1 {
				// The best pair's score (pairs draw nothing) and the
				// close-up's score by 4,000 draws.
				pair := math.Inf(-1)
				for a := m.Next(0); a < fq.ActClose; a = m.Next(a + 1) {
					child.CopyFrom(e)
					if err := child.Try(a); err != nil {
						t.Fatal(err)
					}
					pair = math.Max(pair, score(child))
				}
				const draws = 4000
				sum, above := 0.0, 0
				for range draws {
					v.Sample(sample, &rng)
					if err := sample.Try(fq.ActClose); err != nil {
						t.Fatal(err)
					}
					s := score(sample)
					sum += s
					if s > pair {
						above++
					}
				}
				mean, share := sum/draws, float64(above)/draws
				if math.Abs(mean-pair) > 0.5 && share > 0.2 && share < 0.8 {
					checked++
					closes := map[bool]int{}
					for seed := range uint64(30) {
						one.Reset(seed)
						closes[one.Act(v) == fq.ActClose]++
						many.Reset(seed)
						if got := many.Act(v) == fq.ActClose; got != (mean > pair) {
							t.Fatalf("deal %d step %d seed %d: 256 copies closed=%v; closing scores %.3f on average, the best pair %.3f",
								deal, e.Steps(), seed, got, mean, pair)
						}
					}
					if closes[true] > 0 && closes[false] > 0 {
						flipped++
					}
				}
			}
			if _, _, _, err := e.Advance(h.Act(v)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if checked < 3 || flipped < checked/2 {
		t.Fatalf("%d positions where one draw decides, one copy changed its mind under the seeds at %d", checked, flipped)
	}
	e.Reset(7)
	many.Reset(7)
	noActAllocs(t, many, e, 20, "with 256 copies")
}
