package policy

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"slices"
	"testing"

	"github.com/patience-gym/patience/env"
	_ "github.com/patience-gym/patience/env/all"
	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/internal/modeltest"
)

func randomModel(t testing.TB, spec *env.Spec, hidden []int, seed uint64) *Model {
	t.Helper()
	m, err := newRandomModel(spec, hidden, seed)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func newRandomModel(spec *env.Spec, hidden []int, seed uint64) (*Model, error) {
	return newRandomNetwork(spec, hidden, seed, "")
}

// newRandomNetwork draws a policy (head "") or a value network (head
// HeadValue) for spec (modeltest.Weights).
func newRandomNetwork(spec *env.Spec, hidden []int, seed uint64, head string) (*Model, error) {
	out := spec.Actions
	if head == HeadValue {
		out = 1
	}
	ws, bs := modeltest.Weights(spec, hidden, seed, out, false)
	return NewModel(Meta{Game: spec.Name, RulesVersion: spec.RulesVersion, ObsLen: spec.ObsLen, OneHotLen: spec.OneHotLen(),
		Actions: spec.Actions, Hidden: hidden, Head: head, Command: "randomModel (test)"}, ws, bs)
}

// randomValueModel returns a value network (head=value) for spec with
// random weights.
func randomValueModel(t testing.TB, spec *env.Spec, hidden []int, seed uint64) *Model {
	t.Helper()
	m, err := newRandomNetwork(spec, hidden, seed, HeadValue)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// encode returns m as a file's bytes.
func encode(t testing.TB, m *Model) []byte {
	t.Helper()
	return modeltest.Encode(t, m)
}

// saveModel writes m to a file in dir and returns its path.
func saveModel(t testing.TB, dir, name string, m *Model) string {
	t.Helper()
	return modeltest.Save(t, dir, name, m)
}

// mustSpec returns the named game's Spec.
func mustSpec(t testing.TB, game string) *env.Spec {
	t.Helper()
	return modeltest.Spec(t, game)
}

func denseLogits(m *Model, spec *env.Spec, obs []uint8) []float64 {
	x32 := make([]float32, spec.OneHotLen())
	spec.OneHot(obs, x32)
	x := make([]float64, len(x32))
	for i, v := range x32 {
		x[i] = float64(v)
	}
	w0 := len(m.b0)
	h := make([]float64, w0)
	for o := range w0 {
		s := float64(m.b0[o])
		for j, v := range x {
			s += v * float64(m.w0t[j*w0+o])
		}
		h[o] = s
	}
	for _, l := range m.dense {
		for i := range h {
			h[i] = max(h[i], 0)
		}
		y := make([]float64, l.out)
		for o := range l.out {
			s := float64(l.b[o])
			for j := range l.in {
				s += float64(l.w[o*l.in+j]) * h[j]
			}
			y[o] = s
		}
		h = y
	}
	return h
}

func observations(t testing.TB, game string, seed uint64, n int) (obs [][]uint8, masks []env.Mask) {
	t.Helper()
	e, err := env.Make(game, env.Options{})
	if err != nil {
		t.Fatal(err)
	}
	e.Reset(seed)
	rng := cards.NewRand(seed)
	for len(obs) < n && !e.Done() {
		obs = append(obs, slices.Clone(e.Observation()))
		m := env.NewMask(e.Spec().Actions)
		m.CopyFrom(e.Mask())
		masks = append(masks, m)
		for range 3 {
			if e.Done() {
				break
			}
			e.Advance(randomLegal(e.Mask(), rng))
		}
	}
	return obs, masks
}

// randomLegal returns a legal action of mask drawn with rng.
func randomLegal(mask *env.Mask, rng *cards.Rand) int { return mask.Nth(rng.IntN(mask.Count())) }

func closeTo(got, want float64) bool { return math.Abs(got-want) <= 1e-5*(1+math.Abs(want)) }

func rawFile(t *testing.T, hdr any, body []byte) []byte {
	t.Helper()
	h, err := json.Marshal(hdr)
	if err != nil {
		t.Fatal(err)
	}
	return rawBytes(h, body)
}

func rawBytes(header, body []byte) []byte {
	out := binary.LittleEndian.AppendUint64(nil, uint64(len(header)))
	return append(append(out, header...), body...)
}
