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

// TestEvalTermsPolicyPlaysBestScore: a value file with eval_terms plays a
// move of the best score, recomputed here on clones as the heuristic's
// score plus each term of the game (env.Env.Terms) times its weight; and
// the terms change what it plays, against the same file without them. A
// move allocates nothing.
func TestEvalTermsPolicyPlaysBestScore(t *testing.T) {
	spec := mustSpec(t, "cromwell")
	weights := map[string]float64{"next_buried": -1, "builds": 0.75}
	flat := randomValueModel(t, spec, []int{4}, 3)
	for _, l := range flat.dense {
		clear(l.w)
		clear(l.b)
	}
	flat.meta.EvalWeight = float64(spec.Cards)
	flat.meta.EvalTerms = weights
	path := saveModel(t, t.TempDir(), "terms.safetensors", flat)
	a, err := New("policy:repeats=allow,through=none,model=" + path)
	if err != nil {
		t.Fatal(err)
	}
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
