package policy

import (
	"math"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
)

// TestScoreLogSigmoid: with value_link logsigmoid a value network's score
// is log σ(output), finite far out on both sides.
func TestScoreLogSigmoid(t *testing.T) {
	spec := mustSpec(t, "fifteen")
	m := randomValueModel(t, spec, []int{4}, 5)
	n, err := m.NewNet(spec)
	if err != nil {
		t.Fatal(err)
	}
	e, _ := env.Make("fifteen", env.Options{})
	e.Reset(2)
	out := float64(n.Value(e.Observation()))
	if got := NewScorer(n).Value(e.Observation()); got != out {
		t.Fatalf("identity link: score %v, output %v", got, out)
	}
	m.meta.ValueLink = LinkLogSigmoid
	sc := NewScorer(n)
	if !sc.LogLink() {
		t.Fatal("value_link logsigmoid: LogLink is false")
	}
	want := math.Log(1 / (1 + math.Exp(-out)))
	if got := sc.Value(e.Observation()); math.Abs(got-want) > 1e-12 {
		t.Fatalf("logsigmoid: score %v, want %v", got, want)
	}
	for _, b := range []float32{-1e4, 1e4} {
		m.dense[len(m.dense)-1].b[0] = b
		if s := sc.Value(e.Observation()); math.IsInf(s, 0) || math.IsNaN(s) || s > 0 {
			t.Fatalf("output near %g: score %v", b, s)
		}
	}
	// value_floor f: min(0, log σ(output) − log f): 0 for a chance of f or
	// more, the log of the chance over f below it.
	m.meta.ValueFloor = 0.5
	sc = NewScorer(n)
	for _, c := range []struct{ b, want float64 }{{3, 0}, {0, 0}, {-2, math.Log(1/(1+math.Exp(2))) - math.Log(0.5)}} {
		m.dense[len(m.dense)-1].b[0] = 0
		out := float64(n.Value(e.Observation()))
		m.dense[len(m.dense)-1].b[0] = float32(c.b - out)
		if got := sc.Value(e.Observation()); math.Abs(got-c.want) > 1e-5 {
			t.Fatalf("floor 0.5, output %v: score %v, want %v", c.b, got, c.want)
		}
	}
}

// TestScorerScore: Score is the network's output plus the eval weight times
// the evaluation given over the cards plus each term times its weight,
// recomputed here by hand on positions of random play; From takes the
// opening's weights (eval_terms' for a term it does not name) while the
// position has placed less than opening_progress of the cards, and
// eval_terms' after. Scoring allocates nothing.
func TestScorerScore(t *testing.T) {
	spec := mustSpec(t, "fifteen")
	m := randomValueModel(t, spec, []int{4}, 7)
	m.meta.EvalWeight = 52
	late := map[string]float64{"lanes": 0.5, "stuck": -0.25}
	m.meta.EvalTerms = late
	m.meta.OpeningTerms, m.meta.OpeningProgress = map[string]float64{"lanes": -2, "fits": 1}, 0.02
	n, err := m.NewNet(spec)
	if err != nil {
		t.Fatal(err)
	}
	sc := NewScorer(n)
	if sc.EvalWeight() != 52 || sc.LogLink() || sc.Samples() != 1 {
		t.Fatalf("eval weight %v, log link %v, samples %d", sc.EvalWeight(), sc.LogLink(), sc.Samples())
	}
	e, _ := env.Make("fifteen", env.Options{})
	terms := make([]float64, len(spec.Terms))
	rng := cards.NewRand(3)
	phases := map[bool]int{}
	for deal := range uint64(4) {
		e.Reset(deal)
		for step := 0; !e.Done() && step < 200; step++ {
			opening := e.ProgressFraction() < 0.02
			weights := late
			if opening {
				weights = map[string]float64{"lanes": -2, "stuck": -0.25, "fits": 1}
			}
			e.Terms(terms)
			ev := e.Evaluate() + 3
			want := float64(n.Value(e.Observation())) + 52*ev/float64(spec.Cards)
			for name, w := range weights {
				want += w * terms[spec.TermIndex(name)]
			}
			sc.From(e)
			if got := sc.Score(e, ev); math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
				t.Fatalf("deal %d step %d (opening %v): score %v, want %v", deal, step, opening, got, want)
			}
			phases[opening]++
			e.Advance(randomLegal(e.Mask(), rng))
		}
	}
	if phases[true] == 0 || phases[false] == 0 {
		t.Fatalf("positions in the opening and after: %v; want both", phases)
	}
	if allocs := testing.AllocsPerRun(50, func() { sc.From(e); sc.Score(e, 1) }); allocs != 0 {
		t.Errorf("scoring allocates %v times", allocs)
	}
}

// countingSampler is a Sampler that counts its draws and leaves dst alone.
type countingSampler struct{ draws int }

func (c *countingSampler) Sample(dst *env.Env, rng *cards.Rand) { c.draws++ }

// TestLookAhead: LookAhead draws lookahead_samples copies (1 without the
// key), calls the scoring once for each, and leaves the mean of what it
// added for each move of the mask, and nothing for the others.
func TestLookAhead(t *testing.T) {
	spec := mustSpec(t, "fourquarters")
	e, _ := env.Make("fourquarters", env.Options{})
	e.Reset(1)
	for _, k := range []int{0, 1, 5} {
		m := randomValueModel(t, spec, nil, 1)
		m.meta.LookaheadSamples = k
		n, err := m.NewNet(spec)
		if err != nil {
			t.Fatal(err)
		}
		sc := NewScorer(n)
		var from countingSampler
		scores := make([]float64, spec.Actions)
		for a := range scores {
			scores[a] = -7 // not in the mask: left alone
		}
		mask := e.Mask()
		call := 0
		sc.LookAhead(&from, cards.NewRand(1), e, mask, scores, func(copy *env.Env) {
			call++
			for a := mask.Next(0); a >= 0; a = mask.Next(a + 1) {
				scores[a] += float64(call * (a + 1))
			}
		})
		want := max(1, k)
		if from.draws != want || call != want || sc.Samples() != want {
			t.Fatalf("lookahead_samples %d: %d draws, %d calls, Samples %d; want %d", k, from.draws, call, sc.Samples(), want)
		}
		mean := float64(want+1) / 2 // the mean of 1..want
		for a := range scores {
			switch {
			case mask.Has(a) && scores[a] != mean*float64(a+1):
				t.Fatalf("lookahead_samples %d: move %d scored %v, want %v", k, a, scores[a], mean*float64(a+1))
			case !mask.Has(a) && scores[a] != -7:
				t.Fatalf("lookahead_samples %d: move %d, not legal, changed to %v", k, a, scores[a])
			}
		}
	}
}
