package policy

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
)

func TestModelRoundTripAndForward(t *testing.T) {
	for _, game := range env.Names() {
		spec := mustSpec(t, game)
		for _, hidden := range [][]int{nil, {6}, {5, 7}} {
			if hidden == nil && spec.OneHotLen()*spec.Actions > 1e6 {
				continue // a linear model of a large game is slow to draw
			}
			m := randomModel(t, spec, hidden, 3)
			m.meta.Notes, m.meta.TrainedSteps = "a note", 12345
			m.meta.Extra = map[string]string{"seed": "7"}
			got, err := Decode(encode(t, m), "mem")
			if err != nil {
				t.Fatalf("%s %v: %v", game, hidden, err)
			}
			gm, mm := got.Meta(), m.Meta()
			if fmt.Sprint(gm) != fmt.Sprint(mm) {
				t.Errorf("%s %v: meta %+v read back as %+v", game, hidden, mm, gm)
			}
			if !slices.Equal(got.w0t, m.w0t) || !slices.Equal(got.b0, m.b0) || len(got.dense) != len(m.dense) {
				t.Fatalf("%s %v: weights differ after a round trip", game, hidden)
			}
			n, err := got.NewNet(spec)
			if err != nil {
				t.Fatal(err)
			}
			obs, _ := observations(t, game, 5, 2)
			for _, o := range obs {
				logits := n.Logits(o)
				want := denseLogits(m, spec, o)
				if len(logits) != spec.Actions {
					t.Fatalf("%d logits, want %d", len(logits), spec.Actions)
				}
				for a := range want {
					if !closeTo(float64(logits[a]), want[a]) {
						t.Fatalf("%s %v: logit %d = %v, dense reference %v", game, hidden, a, logits[a], want[a])
					}
				}
			}
		}
	}
}

var writeGoldenInputs = flag.Bool("golden-inputs", false, "rewrite testdata/golden_inputs.json (then run testdata/golden.py)")

const goldenGame = "fourquarters"

type goldenInputs struct {
	Game         string          `json:"game"`
	RulesVersion int             `json:"rules_version"`
	ObsLen       int             `json:"obs_len"`
	OneHotLen    int             `json:"onehot_len"`
	Actions      int             `json:"actions"`
	Segments     []goldenSegment `json:"segments"`
	Obs          [][]int         `json:"obs"`
	Legal        [][]int         `json:"legal"`
}

type goldenSegment struct {
	Name   string `json:"name"`
	Offset int    `json:"offset"`
	Len    int    `json:"len"`
	Max    int    `json:"max"`
	Card   bool   `json:"card"`
}

type goldenLogits struct {
	Logits [][]float64 `json:"logits"`
	Argmax []int       `json:"argmax"`
}

func TestGoldenLogits(t *testing.T) {
	spec := mustSpec(t, goldenGame)
	if *writeGoldenInputs {
		in := goldenInputs{Game: spec.Name, RulesVersion: spec.RulesVersion, ObsLen: spec.ObsLen, OneHotLen: spec.OneHotLen(), Actions: spec.Actions}
		for _, g := range spec.Segments {
			in.Segments = append(in.Segments, goldenSegment{g.Name, g.Offset, g.Len, int(g.Max), g.Card})
		}
		obs, masks := observations(t, goldenGame, 7, 6)
		for i, o := range obs {
			row := make([]int, len(o))
			for j, v := range o {
				row[j] = int(v)
			}
			in.Obs = append(in.Obs, row)
			in.Legal = append(in.Legal, masks[i].AppendActions(nil))
		}
		// Cells over their segment's Max clip to it: one such cell shows that
		// both sides clip alike.
		in.Obs[len(in.Obs)-1][0] = 255
		data, _ := json.Marshal(in)
		if err := os.WriteFile("testdata/golden_inputs.json", append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Skip("wrote testdata/golden_inputs.json; now run python3 policy/testdata/golden.py")
	}
	for _, g := range []struct{ model, logits string }{
		{"testdata/golden_policy.safetensors", "testdata/golden_logits.json"},
		{"testdata/golden_cards_policy.safetensors", "testdata/golden_cards_logits.json"},
		{"testdata/golden_stacks_policy.safetensors", "testdata/golden_stacks_logits.json"},
	} {
		t.Run(filepath.Base(g.model), func(t *testing.T) { checkGoldenLogits(t, spec, g.model, g.logits) })
	}
}

func checkGoldenLogits(t *testing.T, spec *env.Spec, path, logitsPath string) {
	var in goldenInputs
	var want goldenLogits
	for _, f := range []struct {
		path string
		v    any
	}{{"testdata/golden_inputs.json", &in}, {logitsPath, &want}} {
		data, err := os.ReadFile(f.path)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, f.v); err != nil {
			t.Fatalf("%s: %v", f.path, err)
		}
	}
	m, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if in.RulesVersion != spec.RulesVersion || in.ObsLen != spec.ObsLen || in.OneHotLen != spec.OneHotLen() {
		t.Fatalf("%s changed (rules version %d, observation %d cells): regenerate the golden files: go test ./policy -run TestGoldenLogits -golden-inputs && python3 policy/testdata/golden.py",
			goldenGame, spec.RulesVersion, spec.ObsLen)
	}
	n, err := m.NewNet(spec)
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Logits) != len(in.Obs) || len(in.Obs) == 0 {
		t.Fatalf("%d golden logit rows for %d observations", len(want.Logits), len(in.Obs))
	}
	obs := make([]uint8, spec.ObsLen)
	for i, row := range in.Obs {
		for j, v := range row {
			obs[j] = uint8(v)
		}
		logits := n.Logits(obs)
		for a, w := range want.Logits[i] {
			if !closeTo(float64(logits[a]), w) {
				t.Fatalf("observation %d, action %d: Go logit %.7g, Python %.7g", i, a, logits[a], w)
			}
		}
		mask := env.NewMask(spec.Actions)
		for _, a := range in.Legal[i] {
			mask.Set(a)
		}
		if got := n.Argmax(&mask); got != want.Argmax[i] {
			t.Errorf("observation %d: masked argmax %d, Python %d", i, got, want.Argmax[i])
		}
	}
}

func TestMaskedArgmaxAndSampleStayLegal(t *testing.T) {
	inf := float32(math.Inf(1))
	nan := float32(math.NaN())
	for _, tc := range []struct {
		logits []float32
		legal  []int
		want   int
	}{
		{[]float32{9, -1e30, -2e30, 5}, []int{1, 2}, 1},                 // all legal logits hugely negative, an illegal one larger
		{[]float32{-3e38, -3e38, -3e38, 1}, []int{0, 1, 2}, 0},          // ties: the lowest id
		{[]float32{1, 7, 7, 7}, []int{2, 3}, 2},                         // ties among the legal
		{[]float32{nan, 2, nan, 3}, []int{0, 2}, 0},                     // NaN only: still a legal action
		{[]float32{nan, -5, nan, 3}, []int{0, 1, 2}, 1},                 // NaN loses to any number
		{[]float32{inf, -inf, -inf, 0}, []int{1, 2}, 1},                 // −∞ only
		{[]float32{float32(math.Inf(-1)), 0, inf, inf}, []int{2, 3}, 2}, // +∞ ties
	} {
		mask := env.NewMask(len(tc.logits))
		for _, a := range tc.legal {
			mask.Set(a)
		}
		n := &Net{logits: tc.logits, probs: make([]float64, len(tc.logits))}
		if got := n.Argmax(&mask); got != tc.want {
			t.Errorf("argmax of %v over %v = %d, want %d", tc.logits, tc.legal, got, tc.want)
		}
		rng := cards.NewRand(1)
		for range 50 {
			for _, temp := range []float64{0, 0.1, 1, 100} {
				if a := n.Sample(&mask, temp, rng); !mask.Has(a) {
					t.Fatalf("sample of %v over %v at %g = %d, illegal", tc.logits, tc.legal, temp, a)
				}
			}
		}
		logp := make([]float64, len(tc.logits))
		n.LogProbs(&mask, logp)
		for _, a := range tc.legal {
			if math.IsNaN(logp[a]) || logp[a] > 0 {
				t.Errorf("log-probability of %d among %v over %v: %v", a, tc.logits, tc.legal, logp[a])
			}
		}
	}
	// Random logits and masks: argmax is the largest legal logit.
	rng := cards.NewRand(9)
	for range 2000 {
		k := 1 + rng.IntN(300)
		logits := make([]float32, k)
		for i := range logits {
			logits[i] = float32(rng.IntN(7)) - 1e6 // many ties, all negative
		}
		mask := env.NewMask(k)
		mask.Set(rng.IntN(k))
		for range rng.IntN(k) {
			mask.Set(rng.IntN(k))
		}
		a := argmaxMasked(logits, &mask)
		if !mask.Has(a) {
			t.Fatalf("argmax chose illegal %d", a)
		}
		for b := mask.Next(0); b >= 0; b = mask.Next(b + 1) {
			if logits[b] > logits[a] || logits[b] == logits[a] && b < a {
				t.Fatalf("argmax chose %d (%v), but %d has %v", a, logits[a], b, logits[b])
			}
		}
	}
}

func TestSampleFollowsSoftmax(t *testing.T) {
	n := &Net{logits: []float32{0, float32(math.Log(3)), 100, 0}, probs: make([]float64, 4)}
	mask := env.NewMask(4)
	mask.Set(0)
	mask.Set(1)
	mask.Set(3)
	rng := cards.NewRand(4)
	var counts [4]int
	const draws = 20000
	for range draws {
		counts[n.Sample(&mask, 1, rng)]++
	}
	// Probabilities 1/5, 3/5, 0, 1/5.
	for a, p := range []float64{0.2, 0.6, 0, 0.2} {
		if got := float64(counts[a]) / draws; math.Abs(got-p) > 0.02 {
			t.Errorf("action %d drawn %.3f of the time, want %.2f", a, got, p)
		}
	}
}

func TestNetAllocatesNothing(t *testing.T) {
	for _, game := range env.Names() {
		spec := mustSpec(t, game)
		n, err := randomModel(t, spec, []int{16, 8}, 2).NewNet(spec)
		if err != nil {
			t.Fatal(err)
		}
		obs, masks := observations(t, game, 1, 1)
		rng := cards.NewRand(1)
		logp := make([]float64, spec.Actions)
		if allocs := testing.AllocsPerRun(50, func() {
			n.Logits(obs[0])
			n.Argmax(&masks[0])
			n.Sample(&masks[0], 1, rng)
			n.LogProbs(&masks[0], logp)
		}); allocs != 0 {
			t.Errorf("%s: %v allocations per forward pass", game, allocs)
		}
	}
}

func BenchmarkForward(b *testing.B) {
	for _, game := range env.Names() {
		b.Run(game, func(b *testing.B) {
			spec := mustSpec(b, game)
			n, err := randomModel(b, spec, []int{256, 256}, 1).NewNet(spec)
			if err != nil {
				b.Fatal(err)
			}
			obs, masks := observations(b, game, 1, 1)
			b.ReportAllocs()
			for b.Loop() {
				n.Logits(obs[0])
				n.Argmax(&masks[0])
			}
		})
	}
}
