package agents

import (
	"math"
	"strings"
	"testing"

	"github.com/patience-gym/patience/env"
)

// TestVetoFiles: the veto's keys survive a file (bias and weight default to
// 0 and 1); terms without a floor, a floor or bias without terms, terms on a
// file without eval_weight, a floor outside (0, 1) and a weight that is not
// above 0 are errors that name the keys; a term the game does not have is
// refused at Check.
func TestVetoFiles(t *testing.T) {
	spec := mustSpec(t, "fifteen")
	m := randomValueModel(t, spec, nil, 1)
	m.meta.EvalWeight = float64(spec.Cards)
	m.meta.VetoTerms = map[string]float64{"stuck": -0.5, "lanes": 0.25}
	m.meta.VetoBias, m.meta.VetoFloor, m.meta.VetoWeight = 1.5, 0.3, 10
	back, err := DecodeModel(encode(t, m), "t.safetensors")
	if err != nil {
		t.Fatal(err)
	}
	got := back.Meta()
	if len(got.VetoTerms) != 2 || got.VetoTerms["stuck"] != -0.5 || got.VetoBias != 1.5 || got.VetoFloor != 0.3 || got.VetoWeight != 10 {
		t.Fatalf("read back %v %v %v %v", got.VetoTerms, got.VetoBias, got.VetoFloor, got.VetoWeight)
	}
	if len(got.Extra) != 0 {
		t.Fatalf("veto keys kept as unknown keys too: %v", got.Extra)
	}
	if err := back.Check(spec); err != nil {
		t.Fatalf("Check: %v", err)
	}
	md := m.meta.metadata()
	delete(md, ModelVetoBiasKey)
	delete(md, ModelVetoWeightKey)
	if d, err := parseModelMeta(md); err != nil || d.VetoBias != 0 || d.VetoWeight != 1 {
		t.Fatalf("without bias and weight: %v, bias %v weight %v; want 0 and 1", err, d.VetoBias, d.VetoWeight)
	}
	for _, c := range []struct {
		set  map[string]string
		drop []string
		want string
	}{
		{drop: []string{ModelVetoFloorKey}, want: "metadata has veto_terms but no veto_floor"},
		{drop: []string{ModelVetoTermsKey}, want: "but no veto_terms"},
		{drop: []string{ModelEvalWeightKey}, want: "metadata has veto_terms but no eval_weight"},
		{set: map[string]string{ModelVetoFloorKey: "1"}, want: `metadata veto_floor is "1"; want a probability above 0 and below 1`},
		{set: map[string]string{ModelVetoFloorKey: "x"}, want: `metadata veto_floor is "x"`},
		{set: map[string]string{ModelVetoWeightKey: "0"}, want: `metadata veto_weight is "0"; want a finite number above 0`},
		{set: map[string]string{ModelVetoBiasKey: "NaN"}, want: `metadata veto_bias is "NaN"; want a finite number`},
		{set: map[string]string{ModelVetoTermsKey: "{}"}, want: "metadata veto_terms is \"{}\"; want a JSON object of numbers"},
	} {
		md := m.meta.metadata()
		for k, v := range c.set {
			md[k] = v
		}
		for _, k := range c.drop {
			delete(md, k)
		}
		if _, err := parseModelMeta(md); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v without %v: %v, want %q", c.set, c.drop, err, c.want)
		}
	}
	m.meta.VetoTerms = map[string]float64{"buried": 1}
	odd, err := DecodeModel(encode(t, m), "odd.safetensors")
	if err != nil {
		t.Fatal(err)
	}
	if err := odd.Check(spec); err == nil || !strings.Contains(err.Error(), `weighs the evaluation term "buried"; fifteen's are home, lanes`) {
		t.Errorf("Check of an unknown veto term: %v", err)
	}
}

// TestVetoPolicyPlaysBestScore: a file with a veto plays a move of the best
// score, recomputed here on clones as the heuristic's score plus the
// weighed terms plus weight × min(0, log σ(z) − log f) for a running
// position (z the veto's logit of its terms); the veto changes choices
// against the same file without it, and a move allocates nothing.
func TestVetoPolicyPlaysBestScore(t *testing.T) {
	spec := mustSpec(t, "fifteen")
	weights := map[string]float64{"under_stuck": -0.4}
	veto := map[string]float64{"stuck": -0.8, "lanes": 0.6, "marriages": 0.3}
	const bias, floor, weight = 3.0, 0.6, 4.0
	a := termsPolicy(t, spec, func(m *ModelMeta) {
		m.EvalTerms = weights
		m.VetoTerms, m.VetoBias, m.VetoFloor, m.VetoWeight = veto, bias, floor, weight
	})
	e, _ := env.Make("fifteen", env.Options{MaxSteps: 200})
	terms := make([]float64, len(spec.Terms))
	differs, held, free := 0, 0, 0
	for seed := range uint64(6) {
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
				ch.Terms(terms)
				s := score(ch)
				for name, w := range weights {
					s += w * terms[spec.TermIndex(name)]
				}
				plain[b] = s
				if ch.Outcome() == env.Running {
					z := bias
					for name, w := range veto {
						z += w * terms[spec.TermIndex(name)]
					}
					pen := weight * math.Min(0, math.Log(1/(1+math.Exp(-z)))-math.Log(floor))
					if pen < 0 {
						held++
					} else {
						free++
					}
					s += pen
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
	if differs == 0 || held == 0 || free == 0 {
		t.Fatalf("the veto held back %d moves, let %d by and changed %d choices; want some of each", held, free, differs)
	}
	t.Logf("%d moves held back, %d let by, %d choices changed", held, free, differs)
	resetBoth(t, e, a, spec, 9)
	v := NewView(e)
	a.Act(v)
	if allocs := testing.AllocsPerRun(50, func() { a.Act(v) }); allocs != 0 {
		t.Errorf("%v allocations per move with a veto", allocs)
	}
}
