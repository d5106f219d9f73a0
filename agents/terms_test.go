package agents

import (
	"math"
	"strings"
	"testing"

	"github.com/patience-gym/patience/env"
)

// TestEvalTermsFiles: eval_terms survives a file; a bad one (not a JSON
// object of numbers, or without eval_weight) is an error that names the
// key, and a term the game does not have is refused at Check with the
// game's terms named.
func TestEvalTermsFiles(t *testing.T) {
	spec := mustSpec(t, "cromwell")
	m := randomValueModel(t, spec, nil, 1)
	m.meta.EvalWeight = float64(spec.Cards)
	m.meta.EvalTerms = map[string]float64{"next_buried": -0.5, "builds": 0.25}
	back, err := DecodeModel(encode(t, m), "t.safetensors")
	if err != nil {
		t.Fatal(err)
	}
	if got := back.Meta().EvalTerms; len(got) != 2 || got["next_buried"] != -0.5 || got["builds"] != 0.25 {
		t.Fatalf("read back eval terms %v", got)
	}
	if _, ok := back.Meta().Extra[ModelEvalTermsKey]; ok {
		t.Fatal("eval_terms kept as an unknown key too")
	}
	if err := back.Check(spec); err != nil {
		t.Fatalf("Check: %v", err)
	}
	for _, c := range []struct {
		terms, weight, want string
	}{
		{`{"builds": "many"}`, "104", `metadata eval_terms is "{\"builds\": \"many\"}"; want a JSON object of numbers`},
		{`[1, 2]`, "104", "want a JSON object of numbers by term name"},
		{`{"builds": 1}`, "", "metadata has eval_terms but no eval_weight"},
	} {
		md := m.meta.metadata()
		md[ModelEvalTermsKey] = c.terms
		if c.weight == "" {
			delete(md, ModelEvalWeightKey)
		}
		if _, err := parseModelMeta(md); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("eval_terms %s: %v, want %q", c.terms, err, c.want)
		}
	}
	m.meta.EvalTerms = map[string]float64{"buried": 1}
	odd, err := DecodeModel(encode(t, m), "odd.safetensors")
	if err != nil {
		t.Fatal(err)
	}
	want := `model odd.safetensors weighs the evaluation term "buried"; cromwell's are home, fits, king_depth, pairs, swap_unused, next_buried, builds, empty, run_cards`
	if err := odd.Check(spec); err == nil || err.Error() != want {
		t.Errorf("Check of an unknown term: %v, want %q", err, want)
	}
	// A game whose evaluation has no named terms (Limited) refuses any.
	limited := mustSpec(t, "limited")
	f := randomValueModel(t, limited, nil, 2)
	f.meta.EvalWeight = float64(limited.Cards)
	f.meta.EvalTerms = map[string]float64{"builds": 1}
	fb, err := DecodeModel(encode(t, f), "f.safetensors")
	if err != nil {
		t.Fatal(err)
	}
	if err := fb.Check(limited); err == nil || !strings.Contains(err.Error(), "limited's evaluation has no named terms") {
		t.Errorf("Check on a game without terms: %v", err)
	}
}

// termsPolicy is the policy agent (repeats allowed, no look through a
// move) playing a value file of spec's game whose network outputs 0 and
// whose eval_weight is the game's card count, its metadata then set by
// weigh: the heuristic's score plus the weighed terms.
func termsPolicy(t *testing.T, spec *env.Spec, weigh func(*ModelMeta)) Agent {
	t.Helper()
	flat := randomValueModel(t, spec, []int{4}, 3)
	for _, l := range flat.dense {
		clear(l.w)
		clear(l.b)
	}
	flat.meta.EvalWeight = float64(spec.Cards)
	weigh(&flat.meta)
	a, err := New("policy:repeats=allow,through=none,model=" + saveModel(t, t.TempDir(), "terms.safetensors", flat))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestEvalTermsPolicyPlaysBestScore: a value file with eval_terms plays a
// move of the best score, recomputed here on clones as the heuristic's
// score plus each term of the game (env.Env.Terms) times its weight; and
// the terms change what it plays, against the same file without them. A
// move allocates nothing.
func TestEvalTermsPolicyPlaysBestScore(t *testing.T) {
	spec := mustSpec(t, "cromwell")
	weights := map[string]float64{"next_buried": -1, "builds": 0.75}
	a := termsPolicy(t, spec, func(m *ModelMeta) { m.EvalTerms = weights })
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
	v := NewView(e)
	a.Act(v)
	if allocs := testing.AllocsPerRun(50, func() { a.Act(v) }); allocs != 0 {
		t.Errorf("%v allocations per move with eval_terms", allocs)
	}
}

// TestOpeningTermsFiles: eval_terms_opening and opening_progress survive a
// file; either without the other, either without eval_terms, a progress
// outside (0, 1) or a weight that is not a number is an error that names
// the keys, and a term the game does not have is refused at Check.
func TestOpeningTermsFiles(t *testing.T) {
	spec := mustSpec(t, "cromwell")
	m := randomValueModel(t, spec, nil, 1)
	m.meta.EvalWeight = float64(spec.Cards)
	m.meta.EvalTerms = map[string]float64{"next_buried": -0.5}
	m.meta.OpeningTerms = map[string]float64{"builds": 0.25}
	m.meta.OpeningProgress = 0.2
	back, err := DecodeModel(encode(t, m), "t.safetensors")
	if err != nil {
		t.Fatal(err)
	}
	if got := back.Meta(); len(got.OpeningTerms) != 1 || got.OpeningTerms["builds"] != 0.25 || got.OpeningProgress != 0.2 {
		t.Fatalf("read back the opening %v until %v", got.OpeningTerms, got.OpeningProgress)
	}
	if err := back.Check(spec); err != nil {
		t.Fatalf("Check: %v", err)
	}
	for _, c := range []struct {
		drop, key, value, want string
	}{
		{drop: ModelOpeningProgressKey, want: "metadata has eval_terms_opening but no opening_progress"},
		{drop: ModelOpeningTermsKey, want: "metadata has opening_progress but no eval_terms_opening"},
		{drop: ModelEvalTermsKey, want: "metadata has eval_terms_opening but no eval_terms"},
		{key: ModelOpeningProgressKey, value: "1", want: `metadata opening_progress is "1"; want a fraction of the cards above 0 and below 1`},
		{key: ModelOpeningProgressKey, value: "soon", want: `metadata opening_progress is "soon"`},
		{key: ModelOpeningTermsKey, value: `{"builds": "many"}`, want: "metadata eval_terms_opening is"},
		{key: ModelOpeningTermsKey, value: `{}`, want: "want a JSON object of numbers by term name"},
	} {
		md := m.meta.metadata()
		if c.drop != "" {
			delete(md, c.drop)
		} else {
			md[c.key] = c.value
		}
		if _, err := parseModelMeta(md); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c, err, c.want)
		}
	}
	m.meta.OpeningTerms = map[string]float64{"buried": 1}
	odd, err := DecodeModel(encode(t, m), "odd.safetensors")
	if err != nil {
		t.Fatal(err)
	}
	if err := odd.Check(spec); err == nil || !strings.Contains(err.Error(), `weighs the evaluation term "buried"`) {
		t.Errorf("Check of an unknown opening term: %v", err)
	}
}

// TestOpeningTermsPolicy: a file with an opening plays a move of the best
// score by the opening's weights while the position it moves from has
// placed less than opening_progress of the cards, and by eval_terms' after
// (a term the opening does not name keeps eval_terms' weight); both kinds
// of position are met, and a move allocates nothing.
func TestOpeningTermsPolicy(t *testing.T) {
	spec := mustSpec(t, "cromwell")
	late := map[string]float64{"next_buried": -1, "builds": 0.75}
	early := map[string]float64{"next_buried": 0.5, "builds": 0.75, "empty": -2} // builds kept from eval_terms
	a := termsPolicy(t, spec, func(m *ModelMeta) {
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
	v := NewView(e)
	a.Act(v)
	if allocs := testing.AllocsPerRun(50, func() { a.Act(v) }); allocs != 0 {
		t.Errorf("%v allocations per move with an opening", allocs)
	}
}
