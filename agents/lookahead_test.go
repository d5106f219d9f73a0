package agents

import (
	"math"
	"strings"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	fq "github.com/patience-gym/patience/env/fourquarters"
)

// TestLookaheadSamplesFiles: lookahead_samples survives a file; a number
// outside 1..MaxLookaheadSamples, or the key on a policy network, is an
// error that names the key; and Check refuses more than one copy for a
// game without hidden cards, where one copy is the position itself.
func TestLookaheadSamplesFiles(t *testing.T) {
	spec := mustSpec(t, "fourquarters")
	m := randomValueModel(t, spec, nil, 1)
	m.meta.EvalWeight = float64(spec.Cards)
	m.meta.LookaheadSamples = 16
	back, err := DecodeModel(encode(t, m), "t.safetensors")
	if err != nil {
		t.Fatal(err)
	}
	if got := back.Meta().LookaheadSamples; got != 16 {
		t.Fatalf("read back lookahead_samples %d, want 16", got)
	}
	if _, ok := back.Meta().Extra[ModelLookaheadSamplesKey]; ok {
		t.Fatal("lookahead_samples kept as an unknown key too")
	}
	if err := back.Check(spec); err != nil {
		t.Fatalf("Check: %v", err)
	}
	for _, c := range []struct{ value, head, want string }{
		{"0", "value", `metadata lookahead_samples is "0"; want a whole number from 1 to 256`},
		{"257", "value", `metadata lookahead_samples is "257"; want a whole number from 1 to 256`},
		{"two", "value", `metadata lookahead_samples is "two"`},
		{"4", "", "metadata has lookahead_samples but no head=value"},
	} {
		md := m.meta.metadata()
		md[ModelLookaheadSamplesKey] = c.value
		if c.head == "" {
			delete(md, "head")
			delete(md, ModelEvalWeightKey)
		}
		if _, err := parseModelMeta(md); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("lookahead_samples %s: %v, want %q", c.value, err, c.want)
		}
	}
	open := mustSpec(t, "cromwell")
	o := randomValueModel(t, open, nil, 2)
	o.meta.LookaheadSamples = 1
	ob, err := DecodeModel(encode(t, o), "open.safetensors")
	if err != nil {
		t.Fatal(err)
	}
	if err := ob.Check(open); err != nil {
		t.Errorf("one copy of an open game: %v", err)
	}
	o.meta.LookaheadSamples = 4
	ob, err = DecodeModel(encode(t, o), "open.safetensors")
	if err != nil {
		t.Fatal(err)
	}
	want := "model open.safetensors looks ahead on lookahead_samples=4 copies, but cromwell has no hidden cards: its one copy is exact (want lookahead_samples 1 or none)"
	if err := ob.Check(open); err == nil || err.Error() != want {
		t.Errorf("Check of 4 copies of an open game: %v, want %q", err, want)
	}
}

// TestLookaheadSamplesAverage: in Four Quarters closing up draws hidden
// cards, so one determinized copy scores it by one draw. At positions
// where the draw decides whether closing scores above the best pair, the
// policy agent with one copy closes under some seeds and pairs under
// others, while with 256 copies it takes the side of the mean, the mean
// recomputed here over 4,000 draws, under every seed. A move allocates
// nothing.
func TestLookaheadSamplesAverage(t *testing.T) {
	spec := mustSpec(t, "fourquarters")
	agent := func(k int) Agent {
		return termsPolicy(t, spec, func(m *ModelMeta) { m.LookaheadSamples = k })
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
	v := NewView(e)
	many.Act(v)
	if allocs := testing.AllocsPerRun(20, func() { many.Act(v) }); allocs != 0 {
		t.Errorf("%v allocations per move with 256 copies", allocs)
	}
}
