package agents

import (
	"math"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/policy"
)

func termsPolicy(t *testing.T, spec *env.Spec, weigh func(*policy.Meta)) Agent {
	t.Helper()
	flat := flatValueModel(t, spec, []int{4}, 3, func(m *policy.Meta) {
		m.EvalWeight = float64(spec.Cards)
		weigh(m)
	})
	a, err := New("policy:repeats=allow,through=none,model=" + saveModel(t, t.TempDir(), "terms.safetensors", flat))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestEvalTermsPolicyPlaysBestScore(t *testing.T) {
	spec := mustSpec(t, "cromwell")
	weights := map[string]float64{"next_buried": -1, "builds": 0.75}
	a := termsPolicy(t, spec, func(m *policy.Meta) { m.EvalTerms = weights })
	e, _ := env.Make("cromwell", env.Options{MaxSteps: 150})
	terms := make([]float64, len(spec.Terms))
	differs := 0
	for seed := range uint64(4) {
		resetBoth(t, e, a, spec, seed)
		for !e.Done() {
			mask := e.Mask()
			best, plainBest := math.Inf(-1), math.Inf(-1)
			scores, plain := map[int]float64{}, map[int]float64{}
			for b := mask.Next(0); b >= 0; b = mask.Next(b + 1) {
				ch := e.Clone()
				if _, _, _, err := ch.Advance(b); err != nil {
					t.Fatal(err)
				}
				if !ch.Terms(terms) {
					t.Fatal("cromwell has no terms")
				}
				s := score(ch)
				plain[b] = s
				for name, w := range weights {
					s += w * terms[spec.TermIndex(name)]
				}
				scores[b] = s
				best, plainBest = math.Max(best, s), math.Max(plainBest, plain[b])
			}
			got := a.Act(NewView(e))
			if mask.Count() > 1 {
				if math.Abs(scores[got]-best) > 1e-9*math.Max(1, math.Abs(best)) {
					t.Fatalf("deal %d step %d: played %s (score %v), the best score is %v", seed, e.Steps(), e.ActionString(got), scores[got], best)
				}
				if plain[got] < plainBest {
					differs++
				}
			}
			if _, _, _, err := e.Advance(got); err != nil {
				t.Fatal(err)
			}
		}
	}
	if differs == 0 {
		t.Fatal("the terms never changed a choice from the heuristic's best")
	}
	t.Logf("%d choices below the heuristic's best", differs)
	resetBoth(t, e, a, spec, 9)
	noActAllocs(t, a, e, 50, "with eval_terms")
}

func TestOpeningTermsPolicy(t *testing.T) {
	spec := mustSpec(t, "cromwell")
	late := map[string]float64{"next_buried": -1, "builds": 0.75}
	early := map[string]float64{"next_buried": 0.5, "builds": 0.75, "empty": -2} // builds kept from eval_terms
	a := termsPolicy(t, spec, func(m *policy.Meta) {
		m.EvalTerms = late
		m.OpeningTerms = map[string]float64{"next_buried": 0.5, "empty": -2}
		m.OpeningProgress = 0.05
	})
	e, _ := env.Make("cromwell", env.Options{MaxSteps: 150})
	terms := make([]float64, len(spec.Terms))
	phases := map[bool]int{}
	for seed := range uint64(6) {
		resetBoth(t, e, a, spec, seed)
		for !e.Done() {
			mask := e.Mask()
			opening := e.ProgressFraction() < 0.05
			weights := late
			if opening {
				weights = early
			}
			best := math.Inf(-1)
			scores := map[int]float64{}
			for b := mask.Next(0); b >= 0; b = mask.Next(b + 1) {
				ch := e.Clone()
				if _, _, _, err := ch.Advance(b); err != nil {
					t.Fatal(err)
				}
				ch.Terms(terms)
				s := score(ch)
				for name, w := range weights {
					s += w * terms[spec.TermIndex(name)]
				}
				scores[b] = s
				best = math.Max(best, s)
			}
			got := a.Act(NewView(e))
			if mask.Count() > 1 {
				if math.Abs(scores[got]-best) > 1e-9*math.Max(1, math.Abs(best)) {
					t.Fatalf("deal %d step %d (opening %v): played %s (score %v), the best score is %v", seed, e.Steps(), opening, e.ActionString(got), scores[got], best)
				}
				phases[opening]++
			}
			if _, _, _, err := e.Advance(got); err != nil {
				t.Fatal(err)
			}
		}
	}
	if phases[true] == 0 || phases[false] == 0 {
		t.Fatalf("choices in the opening and after: %v; want both", phases)
	}
	resetBoth(t, e, a, spec, 9)
	noActAllocs(t, a, e, 50, "with an opening")
}
