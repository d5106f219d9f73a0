package policy

import (
	"fmt"
	"strings"
	"testing"

	"github.com/patience-gym/patience/env"
)

func TestValueModelRoundTrip(t *testing.T) {
	for _, hidden := range [][]int{{7}, nil, {1}} {
		for _, game := range env.Names() {
			spec := mustSpec(t, game)
			m := randomValueModel(t, spec, hidden, 3)
			back, err := Decode(encode(t, m), "value.safetensors")
			if err != nil {
				t.Fatalf("%s %v: %v", game, hidden, err)
			}
			if !back.IsValue() || back.Meta().Head != HeadValue {
				t.Fatalf("%s %v: read back as head %q", game, hidden, back.Meta().Head)
			}
			n, err := back.NewNet(spec)
			if err != nil {
				t.Fatal(err)
			}
			obs, _ := observations(t, game, 5, 4)
			for _, o := range obs {
				want := denseLogits(back, spec, o)
				if got := n.Logits(o); len(got) != 1 || !closeTo(float64(n.Value(o)), want[0]) {
					t.Fatalf("%s %v: value output %v, want [%v]", game, hidden, got, want[0])
				}
			}
			if allocs := testing.AllocsPerRun(20, func() { n.Logits(obs[0]) }); allocs != 0 {
				t.Errorf("%s %v: Logits allocates %v times", game, hidden, allocs)
			}
		}
	}
}

func TestBadValueFiles(t *testing.T) {
	spec := mustSpec(t, "fifteen")
	m := randomModel(t, spec, []int{4}, 1)
	m.meta.Head = "q"
	if _, err := Decode(encode(t, m), "q.safetensors"); err == nil || !strings.Contains(err.Error(), `metadata head is "q"`) {
		t.Errorf("head q: %v", err)
	}
	m.meta.Head = HeadValue // a policy's layers under a value head
	_, err := Decode(encode(t, m), "v.safetensors")
	if err == nil || !strings.Contains(err.Error(), "tensor layers.1.weight has shape [511 4], want [1 4] ([1 (a value head), previous hidden])") {
		t.Errorf("value head over a policy's layers: %v", err)
	}
}

func TestEvalWeightFiles(t *testing.T) {
	spec := mustSpec(t, "limited")
	m := randomValueModel(t, spec, []int{4}, 1)
	m.meta.EvalWeight = 12.5
	back, err := Decode(encode(t, m), "v.safetensors")
	if err != nil || back.Meta().EvalWeight != 12.5 {
		t.Fatalf("read back eval weight %v, %v", back.Meta().EvalWeight, err)
	}
	if _, ok := back.Meta().Extra[KeyEvalWeight]; ok {
		t.Fatal("eval_weight kept as an unknown key too")
	}
	for _, c := range []struct {
		head, weight, want string
	}{
		{HeadValue, "lots", `metadata eval_weight is "lots"; want a finite number`},
		{HeadValue, "NaN", `metadata eval_weight is "NaN"`},
		{"", "2", "metadata has eval_weight but no head=value"},
	} {
		md := m.meta.metadata()
		md[KeyEvalWeight] = c.weight
		if c.head == "" {
			delete(md, "head")
		}
		if _, err := parseMeta(md); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("eval_weight %q, head %q: %v, want %q", c.weight, c.head, err, c.want)
		}
	}
}

func TestEvalTermsFiles(t *testing.T) {
	spec := mustSpec(t, "cromwell")
	m := randomValueModel(t, spec, nil, 1)
	m.meta.EvalWeight = float64(spec.Cards)
	m.meta.EvalTerms = map[string]float64{"next_buried": -0.5, "builds": 0.25}
	back, err := Decode(encode(t, m), "t.safetensors")
	if err != nil {
		t.Fatal(err)
	}
	if got := back.Meta().EvalTerms; len(got) != 2 || got["next_buried"] != -0.5 || got["builds"] != 0.25 {
		t.Fatalf("read back eval terms %v", got)
	}
	if _, ok := back.Meta().Extra[KeyEvalTerms]; ok {
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
		md[KeyEvalTerms] = c.terms
		if c.weight == "" {
			delete(md, KeyEvalWeight)
		}
		if _, err := parseMeta(md); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("eval_terms %s: %v, want %q", c.terms, err, c.want)
		}
	}
	m.meta.EvalTerms = map[string]float64{"buried": 1}
	odd, err := Decode(encode(t, m), "odd.safetensors")
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
	fb, err := Decode(encode(t, f), "f.safetensors")
	if err != nil {
		t.Fatal(err)
	}
	if err := fb.Check(limited); err == nil || !strings.Contains(err.Error(), "limited's evaluation has no named terms") {
		t.Errorf("Check on a game without terms: %v", err)
	}
}

func TestOpeningTermsFiles(t *testing.T) {
	spec := mustSpec(t, "cromwell")
	m := randomValueModel(t, spec, nil, 1)
	m.meta.EvalWeight = float64(spec.Cards)
	m.meta.EvalTerms = map[string]float64{"next_buried": -0.5}
	m.meta.OpeningTerms = map[string]float64{"builds": 0.25}
	m.meta.OpeningProgress = 0.2
	back, err := Decode(encode(t, m), "t.safetensors")
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
		{drop: KeyOpeningProgress, want: "metadata has eval_terms_opening but no opening_progress"},
		{drop: KeyOpeningTerms, want: "metadata has opening_progress but no eval_terms_opening"},
		{drop: KeyEvalTerms, want: "metadata has eval_terms_opening but no eval_terms"},
		{key: KeyOpeningProgress, value: "1", want: `metadata opening_progress is "1"; want a fraction of the cards above 0 and below 1`},
		{key: KeyOpeningProgress, value: "soon", want: `metadata opening_progress is "soon"`},
		{key: KeyOpeningTerms, value: `{"builds": "many"}`, want: "metadata eval_terms_opening is"},
		{key: KeyOpeningTerms, value: `{}`, want: "want a JSON object of numbers by term name"},
	} {
		md := m.meta.metadata()
		if c.drop != "" {
			delete(md, c.drop)
		} else {
			md[c.key] = c.value
		}
		if _, err := parseMeta(md); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c, err, c.want)
		}
	}
	m.meta.OpeningTerms = map[string]float64{"buried": 1}
	odd, err := Decode(encode(t, m), "odd.safetensors")
	if err != nil {
		t.Fatal(err)
	}
	if err := odd.Check(spec); err == nil || !strings.Contains(err.Error(), `weighs the evaluation term "buried"`) {
		t.Errorf("Check of an unknown opening term: %v", err)
	}
}

func TestLookaheadSamplesFiles(t *testing.T) {
	spec := mustSpec(t, "fourquarters")
	m := randomValueModel(t, spec, nil, 1)
	m.meta.EvalWeight = float64(spec.Cards)
	m.meta.LookaheadSamples = 16
	back, err := Decode(encode(t, m), "t.safetensors")
	if err != nil {
		t.Fatal(err)
	}
	if got := back.Meta().LookaheadSamples; got != 16 {
		t.Fatalf("read back lookahead_samples %d, want 16", got)
	}
	if _, ok := back.Meta().Extra[KeyLookaheadSamples]; ok {
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
		md[KeyLookaheadSamples] = c.value
		if c.head == "" {
			delete(md, "head")
			delete(md, KeyEvalWeight)
		}
		if _, err := parseMeta(md); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("lookahead_samples %s: %v, want %q", c.value, err, c.want)
		}
	}
	open := mustSpec(t, "cromwell")
	o := randomValueModel(t, open, nil, 2)
	o.meta.LookaheadSamples = 1
	ob, err := Decode(encode(t, o), "open.safetensors")
	if err != nil {
		t.Fatal(err)
	}
	if err := ob.Check(open); err != nil {
		t.Errorf("one copy of an open game: %v", err)
	}
	o.meta.LookaheadSamples = 4
	ob, err = Decode(encode(t, o), "open.safetensors")
	if err != nil {
		t.Fatal(err)
	}
	want := "model open.safetensors looks ahead on lookahead_samples=4 copies, but cromwell has no hidden cards: its one copy is exact (want lookahead_samples 1 or none)"
	if err := ob.Check(open); err == nil || err.Error() != want {
		t.Errorf("Check of 4 copies of an open game: %v, want %q", err, want)
	}
}

// TestBadStacksAndLinkMetadata: a malformed stacks or value_link key, and
// stacks that leave the game's card cells, are errors that say what is
// wrong.
func TestBadStacksAndLinkMetadata(t *testing.T) {
	spec := mustSpec(t, "fifteen")
	for _, tc := range []struct {
		set  func(md map[string]string)
		want string
	}{
		{func(md map[string]string) { md[KeyStacks] = "0:15" }, "want OFFSET:COUNT:HEIGHT"},
		{func(md map[string]string) { md[KeyStacks] = "0:0:31" }, "want OFFSET:COUNT:HEIGHT"},
		{func(md map[string]string) { md[KeyStacks] = "0:15:31"; md[KeyStacksSorted] = "yes" }, "stacks_sorted is \"yes\""},
		{func(md map[string]string) { md[KeyStacksSorted] = "1" }, "has stacks_sorted but no stacks"},
		{func(md map[string]string) { md[KeyValueLink] = "tanh" }, "value_link is \"tanh\""},
		{func(md map[string]string) { delete(md, "head"); md[KeyValueLink] = "logsigmoid" }, "only a value network has a link"},
		{func(md map[string]string) { md[KeyValueLink] = "logsigmoid"; md[KeyValueFloor] = "1" }, "want a probability above 0 and below 1"},
		{func(md map[string]string) { md[KeyValueLink] = "logsigmoid"; md[KeyValueFloor] = "x" }, "value_floor is \"x\""},
		{func(md map[string]string) { md[KeyValueFloor] = "0.5" }, "value_floor but no value_link=logsigmoid"},
	} {
		m := randomValueModel(t, spec, []int{4}, 1)
		md := m.meta.metadata()
		tc.set(md)
		if _, err := parseMeta(md); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want one that says %q", md, err, tc.want)
		}
	}
	m := randomValueModel(t, spec, []int{4}, 1)
	m.meta.Stacks = []StackGroup{{Offset: 460, Count: 2, Height: 4}} // runs into the foundations' cells and past the card cells
	if _, err := m.NewNet(spec); err == nil || !strings.Contains(err.Error(), "do not lie within one of fifteen's card segments") {
		t.Errorf("stacks past the card cells: %v", err)
	}
	m.meta.Stacks = []StackGroup{{Offset: 0, Count: 15, Height: 31}}
	if _, err := Decode(encode(t, m), "s.safetensors"); err != nil {
		t.Errorf("a file with the game's columns as stacks: %v", err)
	}
}

// TestEveryKeyRoundTrips: a Meta with every optional key set is written
// and read back unchanged, and none of its keys is kept as an unknown one.
func TestEveryKeyRoundTrips(t *testing.T) {
	spec := mustSpec(t, "fifteen")
	m := randomValueModel(t, spec, []int{3}, 1)
	m.meta.EvalWeight = 104
	m.meta.EvalTerms = map[string]float64{"lanes": 0.5, "stuck": -0.25}
	m.meta.OpeningTerms, m.meta.OpeningProgress = map[string]float64{"lanes": 1}, 0.125
	m.meta.ValueLink, m.meta.ValueFloor = LinkLogSigmoid, 0.375
	m.meta.Stacks, m.meta.StacksSorted = []StackGroup{{0, 15, 31}}, true
	m.meta.LookaheadSamples = 1
	m.meta.TrainedSteps, m.meta.Notes = 99, "all the keys"
	m.meta.Extra = map[string]string{"seed": "7"}
	back, err := Decode(encode(t, m), "all.safetensors")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprintf("%+v", back.Meta()), fmt.Sprintf("%+v", m.Meta()); got != want {
		t.Fatalf("read back\n%s\nwant\n%s", got, want)
	}
	if err := back.Check(spec); err != nil {
		t.Fatal(err)
	}
	md := m.meta.metadata()
	for _, k := range optionalKeys {
		if _, ok := md[k.key]; !ok {
			t.Errorf("optional key %s not written", k.key)
		}
	}
}

// TestRetiredKeysAreRefused: a file that carries a key of the veto that
// round 20 wrote (any of them, alone or with the others) is refused, and
// the error names the key, rather than the file being played without it.
func TestRetiredKeysAreRefused(t *testing.T) {
	spec := mustSpec(t, "fifteen")
	m := randomValueModel(t, spec, nil, 1)
	m.meta.EvalWeight = float64(spec.Cards)
	for _, k := range RetiredKeys {
		m.meta.Extra = map[string]string{k: "0.5"}
		_, err := Decode(encode(t, m), "veto.safetensors")
		if err == nil || !strings.Contains(err.Error(), "metadata has "+k+", a key of the veto") {
			t.Errorf("%s: %v, want an error naming the key", k, err)
		}
	}
	m.meta.Extra = map[string]string{"veto_terms": `{"stuck": -0.5}`, "veto_floor": "0.5", "veto_bias": "1", "veto_weight": "10"}
	if _, err := Decode(encode(t, m), "veto.safetensors"); err == nil || !strings.Contains(err.Error(), "metadata has veto_terms") {
		t.Errorf("round 20's four keys: %v, want an error naming veto_terms", err)
	}
}
