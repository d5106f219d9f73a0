package policy

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
)

// randomCardModel returns a card-embedding model for spec (embedding width
// d, the given hidden widths) with weights drawn from seed.
func randomCardModel(t testing.TB, spec *env.Spec, d int, hidden []int, seed uint64) *Model {
	t.Helper()
	rng := cards.NewRand(seed)
	fill := func(n int, scale float64) []float32 {
		x := make([]float32, n)
		for i := range x {
			x[i] = float32((rng.Float64()*2 - 1) * scale)
		}
		return x
	}
	in := CardInputLen(spec, d)
	widths := append(append([]int{in}, hidden...), spec.Actions)
	var ws, bs [][]float32
	for i := range len(widths) - 1 {
		ws = append(ws, fill(widths[i]*widths[i+1], 2/math.Sqrt(float64(min(widths[i], spec.ObsLen*d)))))
		bs = append(bs, fill(widths[i+1], 0.1))
	}
	m, err := NewCardModel(Meta{Game: spec.Name, RulesVersion: spec.RulesVersion, ObsLen: spec.ObsLen, OneHotLen: spec.OneHotLen(),
		Actions: spec.Actions, Hidden: hidden, Encoding: EncodingCards, CardDim: d, InputLen: in, Command: "randomCardModel (test)"},
		fill(CardCodes*d, 1), ws, bs)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// cardReference is the card-embedding network written out plainly in
// float64: each card cell's code looked up in the embedding, every other
// cell one-hot, the compact first layer over that, then the dense layers.
func cardReference(m *Model, spec *env.Spec, obs []uint8) []float64 {
	d := m.meta.CardDim
	var x []float64
	for _, g := range spec.Segments {
		for _, v := range obs[g.Offset : g.Offset+g.Len] {
			v = min(v, g.Max)
			if g.Card {
				for j := range d {
					x = append(x, float64(m.cards[int(v)*d+j]))
				}
				continue
			}
			for k := 0; k <= int(g.Max); k++ {
				x = append(x, float64(b2f(k == int(v))))
			}
		}
	}
	in := m.meta.InputLen
	h := make([]float64, len(m.b0))
	for o := range h {
		s := float64(m.b0[o])
		for j, v := range x {
			s += float64(m.w0c[o*in+j]) * v
		}
		h[o] = s
	}
	for _, l := range m.dense {
		y := make([]float64, l.out)
		for o := range y {
			s := float64(l.b[o])
			for j := range l.in {
				s += float64(l.w[o*l.in+j]) * max(h[j], 0)
			}
			y[o] = s
		}
		h = y
	}
	return h
}

func b2f(b bool) float32 {
	if b {
		return 1
	}
	return 0
}

func TestCardModelIsTheCardNetwork(t *testing.T) {
	for _, game := range env.Names() {
		spec := mustSpec(t, game)
		m := randomCardModel(t, spec, 3, []int{12, 7}, 5)
		n, err := m.NewNet(spec)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Decode(encode(t, m), "round-trip")
		if err != nil {
			t.Fatalf("%s: %v", game, err)
		}
		if back.Meta().Encoding != EncodingCards || back.Meta().CardDim != 3 || back.Meta().InputLen != m.Meta().InputLen {
			t.Fatalf("%s: read back as %+v", game, back.Meta())
		}
		nb, err := back.NewNet(spec)
		if err != nil {
			t.Fatal(err)
		}
		obs, _ := observations(t, game, 3, 4)
		obs[len(obs)-1][0] = 255 // over its segment's Max: clips
		for i, o := range obs {
			want := cardReference(m, spec, o)
			got := n.Logits(o)
			for a, w := range want {
				if math.Abs(float64(got[a])-w) > 1e-4*(1+math.Abs(w)) {
					t.Fatalf("%s observation %d action %d: logit %g, reference %g", game, i, a, got[a], w)
				}
			}
			again := nb.Logits(o)
			for a := range got {
				if again[a] != got[a] {
					t.Fatalf("%s: the model read back computes %g, not %g", game, again[a], got[a])
				}
			}
		}
		if allocs := testing.AllocsPerRun(20, func() { n.Logits(obs[0]) }); allocs != 0 {
			t.Errorf("%s: Logits of a card-embedding model allocates %v times", game, allocs)
		}
	}
}

func TestCardModelErrors(t *testing.T) {
	spec := mustSpec(t, "limited")
	m := randomCardModel(t, spec, 2, []int{4}, 1)
	other := *m
	other.meta.InputLen++
	other.source = "c.safetensors"
	if _, err := other.NewNet(spec); err == nil || !strings.Contains(err.Error(), "first-layer input of") || !strings.Contains(err.Error(), "c.safetensors") {
		t.Errorf("wrong input_len: error %v", err)
	}
	data := encode(t, m)
	for _, tc := range []struct {
		name, old, new, want string
	}{
		{"no card_dim", `"card_dim":"2"`, `"card_dix":"2"`, "card_dim"},
		{"bad card_dim", `"card_dim":"2"`, `"card_dim":"x"`, `card_dim is "x"`},
		{"no embedding", `"cards.weight"`, `"cards.weighz"`, `unexpected tensor "cards.weighz"`},
	} {
		bad := bytes.Replace(data, []byte(tc.old), []byte(tc.new), 1)
		if bytes.Equal(bad, data) {
			t.Fatalf("%s: %s not in the file", tc.name, tc.old)
		}
		if _, err := Decode(bad, "bad.safetensors"); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.want)
		}
	}
	if _, err := NewModel(m.Meta(), nil, nil); err == nil || !strings.Contains(err.Error(), "NewCardModel") {
		t.Errorf("NewModel of card metadata: %v", err)
	}
}
