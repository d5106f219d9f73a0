package agents

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
)

// randomModel returns a model for spec with the given hidden widths and
// weights drawn from seed, large enough that ReLUs cut and logits differ.
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
// ModelHeadValue).
func newRandomNetwork(spec *env.Spec, hidden []int, seed uint64, head string) (*Model, error) {
	rng := cards.NewRand(seed)
	out := spec.Actions
	if head == ModelHeadValue {
		out = 1
	}
	widths := append(append([]int{spec.OneHotLen()}, hidden...), out)
	var ws, bs [][]float32
	for i := range len(widths) - 1 {
		in, out := widths[i], widths[i+1]
		scale := 2 / math.Sqrt(float64(min(in, spec.ObsLen)))
		w := make([]float32, in*out)
		for j := range w {
			w[j] = float32((rng.Float64()*2 - 1) * scale)
		}
		b := make([]float32, out)
		for j := range b {
			b[j] = float32(rng.Float64()*0.2 - 0.1)
		}
		ws, bs = append(ws, w), append(bs, b)
	}
	return NewModel(ModelMeta{Game: spec.Name, RulesVersion: spec.RulesVersion, ObsLen: spec.ObsLen, OneHotLen: spec.OneHotLen(),
		Actions: spec.Actions, Hidden: hidden, Head: head, Command: "randomModel (test)"}, ws, bs)
}

// encode returns m as a file's bytes.
func encode(t testing.TB, m *Model) []byte {
	t.Helper()
	var b bytes.Buffer
	if _, err := m.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// saveModel writes m to a file in dir and returns its path.
func saveModel(t testing.TB, dir, name string, m *Model) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, encode(t, m), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func mustSpec(t testing.TB, game string) *env.Spec {
	t.Helper()
	spec, err := env.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	return spec
}

// denseLogits is the reference forward pass: the one-hot vector times every
// layer, densely, in float64.
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

// observations returns a few observations of random play on game.
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

func closeTo(got, want float64) bool { return math.Abs(got-want) <= 1e-5*(1+math.Abs(want)) }

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
			got, err := DecodeModel(encode(t, m), "mem")
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

// The golden files: testdata/golden_inputs.json is written by this test
// with -golden-inputs (observations of Four Quarters and the layout needed
// to one-hot them); testdata/golden.py reads it and writes
// testdata/golden_policy.safetensors (a random model) and
// testdata/golden_logits.json (its logits on those observations, computed
// independently of Go). A trainer's exporter can replace golden.py: it reads
// the same inputs and writes the same two files.
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
		t.Skip("wrote testdata/golden_inputs.json; now run python3 agents/testdata/golden.py")
	}
	for _, g := range []struct{ model, logits string }{
		{"testdata/golden_policy.safetensors", "testdata/golden_logits.json"},
		{"testdata/golden_cards_policy.safetensors", "testdata/golden_cards_logits.json"},
		{"testdata/golden_stacks_policy.safetensors", "testdata/golden_stacks_logits.json"},
	} {
		t.Run(filepath.Base(g.model), func(t *testing.T) { checkGoldenLogits(t, spec, g.model, g.logits) })
	}
}

// checkGoldenLogits compares the logits and masked argmax of the model at
// path, on the golden inputs, with those Python wrote to logitsPath.
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
	m, err := LoadModel(path)
	if err != nil {
		t.Fatal(err)
	}
	if in.RulesVersion != spec.RulesVersion || in.ObsLen != spec.ObsLen || in.OneHotLen != spec.OneHotLen() {
		t.Fatalf("%s changed (rules version %d, observation %d cells): regenerate the golden files: go test ./agents -run TestGoldenLogits -golden-inputs && python3 agents/testdata/golden.py",
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

func TestReadF16AndBF16(t *testing.T) {
	for _, tc := range []struct {
		bits uint16
		f16  float32
	}{{0x3C00, 1}, {0xC000, -2}, {0x3800, 0.5}, {0x0001, 1.0 / (1 << 24)}, {0x8000, float32(math.Copysign(0, -1))}, {0x7BFF, 65504}} {
		if got := float16to32(tc.bits); got != tc.f16 || math.Signbit(float64(got)) != math.Signbit(float64(tc.f16)) {
			t.Errorf("float16 %#04x = %v, want %v", tc.bits, got, tc.f16)
		}
	}
	// A file whose tensors are F16 or BF16 reads as the F32 file with the
	// same (representable) values.
	spec := mustSpec(t, goldenGame)
	m := randomModel(t, spec, []int{4}, 1)
	for i := range m.w0t {
		m.w0t[i] = float32(i%7) - 3 // exact in both half formats
	}
	data := encode(t, m)
	for _, dtype := range []string{"F16", "BF16"} {
		half := toHalf(t, data, dtype)
		got, err := DecodeModel(half, dtype)
		if err != nil {
			t.Fatalf("%s: %v", dtype, err)
		}
		if !slices.Equal(got.w0t, m.w0t) {
			t.Errorf("%s weights differ", dtype)
		}
	}
}

// toHalf rewrites an F32 file as dtype (F16 or BF16), truncating values.
func toHalf(t *testing.T, data []byte, dtype string) []byte {
	f, err := decodeSafetensors(data)
	if err != nil {
		t.Fatal(err)
	}
	type ent struct {
		Dtype       string `json:"dtype"`
		Shape       []int  `json:"shape"`
		DataOffsets [2]int `json:"data_offsets"`
	}
	hdr := map[string]any{"__metadata__": f.metadata}
	var body []byte
	names := make([]string, 0, len(f.tensors))
	for n := range f.tensors {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		tn := f.tensors[n]
		start := len(body)
		for i := 0; i < len(tn.data); i += 4 {
			x := math.Float32frombits(binary.LittleEndian.Uint32(tn.data[i:]))
			var h uint16
			if dtype == "BF16" {
				h = uint16(math.Float32bits(x) >> 16)
			} else {
				h = toFloat16(x)
			}
			body = binary.LittleEndian.AppendUint16(body, h)
		}
		hdr[n] = ent{dtype, tn.shape, [2]int{start, len(body)}}
	}
	return rawFile(t, hdr, body)
}

// toFloat16 converts small integers and halves exactly (enough for tests).
func toFloat16(x float32) uint16 {
	if x == 0 {
		return 0
	}
	sign := uint16(0)
	if x < 0 {
		sign, x = 0x8000, -x
	}
	e := int(math.Floor(math.Log2(float64(x))))
	frac := float64(x)/math.Pow(2, float64(e)) - 1
	return sign | uint16(e+15)<<10 | uint16(math.Round(frac*1024))
}

// rawFile builds a safetensors file from a header value and a body.
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

// TestBadModelFiles: every kind of wrong file is refused with a message
// that says what is wrong.
func TestBadModelFiles(t *testing.T) {
	spec := mustSpec(t, goldenGame)
	good := encode(t, randomModel(t, spec, []int{4}, 1))
	hlen := int(binary.LittleEndian.Uint64(good))
	header, body := good[8:8+hlen], good[8+hlen:]
	var hdr map[string]json.RawMessage
	if err := json.Unmarshal(header, &hdr); err != nil {
		t.Fatal(err)
	}
	var meta map[string]string
	json.Unmarshal(hdr["__metadata__"], &meta)
	// withMeta returns the good file with metadata key k set to v ("" with
	// del removes it).
	withMeta := func(k, v string, del bool) []byte {
		m := map[string]string{}
		for a, b := range meta {
			m[a] = b
		}
		if del {
			delete(m, k)
		} else {
			m[k] = v
		}
		h := map[string]any{}
		for a, b := range hdr {
			h[a] = b
		}
		h["__metadata__"] = m
		return rawFile(t, h, body)
	}
	withTensor := func(name, entry string) []byte {
		h := map[string]any{}
		for a, b := range hdr {
			h[a] = b
		}
		h[name] = json.RawMessage(entry)
		return rawFile(t, h, body)
	}
	var w0 struct {
		DataOffsets [2]int `json:"data_offsets"`
	}
	json.Unmarshal(hdr["layers.0.weight"], &w0)
	w0off := fmt.Sprintf("[%d,%d]", w0.DataOffsets[0], w0.DataOffsets[1])
	nanBody := slices.Clone(body)
	binary.LittleEndian.PutUint32(nanBody[w0.DataOffsets[0]:], math.Float32bits(float32(math.NaN())))

	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "not a safetensors file: 0 bytes"},
		{"truncated header", good[:8+hlen/2], "truncated safetensors file: the header is"},
		{"truncated data", good[:len(good)-10], "truncated safetensors file: tensor"},
		{"huge header length", binary.LittleEndian.AppendUint64(nil, 1<<40), "header length 1099511627776 is over the"},
		{"not JSON", rawBytes([]byte("{\"a\":"), nil), "safetensors header: invalid JSON"},
		{"not an object", rawBytes([]byte("[1,2]   "), nil), "does not start with a JSON object"},
		{"trailing junk", rawBytes(append(slices.Clone(header), []byte("xy")...), body), "only space padding"},
		{"duplicate key", rawBytes([]byte(`{"a":{"dtype":"F32","shape":[0],"data_offsets":[0,0]},"a":{"dtype":"F32","shape":[0],"data_offsets":[0,0]}}`), nil), `key "a" appears twice`},
		{"metadata not strings", rawBytes([]byte(`{"__metadata__":{"a":1}}`), nil), "__metadata__ must map names to strings"},
		{"no metadata", rawBytes([]byte(`{}`), nil), "no __metadata__"},
		{"other format", withMeta("format", "gguf", false), `format is "gguf", not "patience-policy"`},
		{"missing keys", withMeta("command", "", true), "lacks the required keys command"},
		{"newer version", withMeta("format_version", "2", false), `format_version is "2"; this build reads version 1`},
		{"other encoding", withMeta("obs_encoding", "raw", false), `obs_encoding is "raw"; this build reads "onehot" and "card-embedding"`},
		{"other activation", withMeta("activation", "tanh", false), `activation is "tanh"`},
		{"bad hidden", withMeta("hidden", "4,x", false), `hidden is "4,x"`},
		{"hidden disagrees", withMeta("hidden", "4,4", false), "tensor layers.1.weight has shape [105 4], want [4 4] ([hidden, previous hidden])"},
		{"bad number", withMeta("actions", "many", false), `actions is "many"`},
		{"wrong dtype", withTensor("layers.0.bias", strings.Replace(strings.Replace(string(hdr["layers.0.bias"]), "F32", "F64", 1), "[4]", "[2]", 1)), "tensor layers.0.bias has dtype F64; want F32"},
		{"unknown dtype", withTensor("layers.0.bias", `{"dtype":"Q4","shape":[4],"data_offsets":[0,16]}`), `unknown dtype "Q4"`},
		{"size mismatch", withTensor("layers.0.weight", `{"dtype":"F32","shape":[4,3],"data_offsets":`+w0off+`}`), "needs 48 bytes"},
		{"wrong shape", withTensor("layers.0.weight", `{"dtype":"F32","shape":[2,`+fmt.Sprint(2*spec.OneHotLen())+`],"data_offsets":`+w0off+`}`), fmt.Sprintf("has shape [2 %d], want [4 %d]", 2*spec.OneHotLen(), spec.OneHotLen())},
		{"extra tensor", withTensor("head.weight", `{"dtype":"F32","shape":[0],"data_offsets":[0,0]}`), `unexpected tensor "head.weight"`},
		{"bad offsets", withTensor("layers.0.weight", `{"dtype":"F32","shape":[4],"data_offsets":[16,0]}`), "invalid data_offsets"},
		{"unknown field", withTensor("layers.0.weight", `{"dtype":"F32","shape":[4],"data_offsets":[0,16],"x":1}`), `unknown field "x"`},
		{"gap", rawBytes([]byte(`{"__metadata__":{},"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}}`), make([]byte, 8)), "4 bytes of data before tensor \"a\" belong to no tensor"},
		{"tail", rawBytes([]byte(`{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}`), make([]byte, 8)), "4 bytes after the last tensor"},
		{"NaN weight", rawBytes(header, nanBody), "element 0 is NaN; weights must be finite"},
	} {
		_, err := DecodeModel(tc.data, "bad.safetensors")
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "model bad.safetensors: ") {
			t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.want)
		}
	}
}

// TestModelForOtherGame: a well-formed file for another game, rules
// version, observation or action space is refused naming both values.
func TestModelForOtherGame(t *testing.T) {
	spec := mustSpec(t, goldenGame)
	m := randomModel(t, spec, []int{4}, 1)
	if err := m.Check(spec); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		edit func(*ModelMeta)
		want string
	}{
		{func(mm *ModelMeta) { mm.Game = "limited" }, "was trained for limited, not fourquarters"},
		{func(mm *ModelMeta) { mm.RulesVersion = spec.RulesVersion + 1 }, fmt.Sprintf("rules version %d; this build plays rules version %d", spec.RulesVersion+1, spec.RulesVersion)},
		{func(mm *ModelMeta) { mm.ObsLen = 99 }, fmt.Sprintf("observations of 99 cells; fourquarters's have %d", spec.ObsLen)},
		{func(mm *ModelMeta) { mm.OneHotLen++ }, fmt.Sprintf("one-hot input of %d; fourquarters's one-hot observation has %d", spec.OneHotLen()+1, spec.OneHotLen())},
		{func(mm *ModelMeta) { mm.Actions = 3 }, fmt.Sprintf("has 3 actions; fourquarters has %d", spec.Actions)},
	} {
		other := *m
		tc.edit(&other.meta)
		other.source = "x.safetensors"
		if _, err := other.NewNet(spec); err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "x.safetensors") {
			t.Errorf("error %v, want one saying %q", err, tc.want)
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

// BenchmarkForward measures one forward pass and masked argmax with hidden
// layers 256,256 on each game (go test ./agents -run - -bench Forward).
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

// FuzzDecodeModel: no file, however broken, panics the reader; whatever it
// accepts writes back and reads again to the same model.
func FuzzDecodeModel(f *testing.F) {
	spec := mustSpec(f, goldenGame)
	good := encode(f, randomModel(f, spec, []int{2}, 1))
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add(rawBytes([]byte(`{"__metadata__":{"format":"patience-policy"}}`), nil))
	f.Add(rawBytes([]byte(`{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}`), make([]byte, 4)))
	if golden, err := os.ReadFile("testdata/golden_policy.safetensors"); err == nil {
		f.Add(golden)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := DecodeModel(data, "fuzz")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "model fuzz: ") {
				t.Fatalf("error without the file's name: %v", err)
			}
			return
		}
		again, err := DecodeModel(encode(t, m), "again")
		if err != nil || !slices.Equal(again.w0t, m.w0t) || fmt.Sprint(again.Meta()) != fmt.Sprint(m.Meta()) {
			t.Fatalf("an accepted file does not round-trip: %v", err)
		}
		if m.Check(spec) == nil {
			n, err := m.NewNet(spec)
			if err != nil {
				t.Fatal(err)
			}
			obs, _ := observations(t, goldenGame, 1, 1)
			n.Logits(obs[0])
		}
	})
}
