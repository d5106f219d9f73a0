package policy

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"flag"
	"maps"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
)

// The shared test vectors: model files under testdata/vectors/valid, each
// with NAME.json holding the parse every reader must make of it (the
// metadata typed, every key the format knows with its default, and
// lookahead_samples as the number of copies played) and the network's
// outputs on probe observations; and files under testdata/vectors/invalid,
// each with NAME.json holding words that the error refusing it must hold
// (the key at fault, mostly). TestVectors checks this reader against them,
// python/tests/test_model_vectors.py the Python one (load_model), so that
// the two cannot drift apart. The table below writes them:
//
//	go test ./policy -run TestVectors -write-vectors
var writeVectors = flag.Bool("write-vectors", false, "rewrite testdata/vectors from the table in vectors_test.go")

const vectorDir = "testdata/vectors"

// vectorFile is the JSON beside a vector.
type vectorFile struct {
	Why   string         `json:"why"`
	Meta  map[string]any `json:"meta,omitempty"`
	Probe *vectorProbe   `json:"probe,omitempty"`
	Error []string       `json:"error,omitempty"`
}

// vectorProbe is observations and the network's outputs on each (a policy
// file's logits, a value file's output before any link).
type vectorProbe struct {
	Obs     [][]int     `json:"obs"`
	Outputs [][]float64 `json:"outputs"`
}

// vector is a file of the table and what a reader must make of it.
type vector struct {
	name, why string
	data      []byte
	want      *Model   // valid: the model the file holds
	errs      []string // invalid: words of the error
}

// rawTensor is a tensor as a file stores it.
type rawTensor struct {
	name, dtype string
	shape       []int
	data        []byte
}

// tensorBytes stores xs as dtype (F32, F16, BF16 or F64); the generator's
// values are exact in each.
func tensorBytes(dtype string, xs []float32) []byte {
	var out []byte
	for _, x := range xs {
		switch dtype {
		case "F32":
			out = binary.LittleEndian.AppendUint32(out, math.Float32bits(x))
		case "F16":
			out = binary.LittleEndian.AppendUint16(out, toFloat16(x))
		case "BF16":
			out = binary.LittleEndian.AppendUint16(out, uint16(math.Float32bits(x)>>16))
		case "F64":
			out = binary.LittleEndian.AppendUint64(out, math.Float64bits(float64(x)))
		}
	}
	return out
}

// writeRaw writes tensors (in the order given) and metadata as a
// safetensors file, the header padded with spaces to a multiple of 8.
func writeRaw(tensors []rawTensor, meta map[string]string) []byte {
	type entry struct {
		Dtype       string `json:"dtype"`
		Shape       []int  `json:"shape"`
		DataOffsets [2]int `json:"data_offsets"`
	}
	hdr := map[string]any{"__metadata__": meta}
	var body []byte
	for _, t := range tensors {
		hdr[t.name] = entry{t.dtype, t.shape, [2]int{len(body), len(body) + len(t.data)}}
		body = append(body, t.data...)
	}
	h, _ := json.Marshal(hdr)
	return padded(h, body)
}

// padded joins a header and a body into a file, padding the header.
func padded(header, body []byte) []byte {
	for len(header)%8 != 0 {
		header = append(header, ' ')
	}
	return rawBytes(header, body)
}

// modelTensors returns m's tensors as its file holds them, stored as dtype.
func modelTensors(t testing.TB, m *Model, dtype string) []rawTensor {
	f, err := decodeSafetensors(encode(t, m))
	if err != nil {
		t.Fatal(err)
	}
	names := slices.Sorted(maps.Keys(f.tensors))
	out := make([]rawTensor, len(names))
	for i, name := range names {
		xs, err := f.tensors[name].floats()
		if err != nil {
			t.Fatal(err)
		}
		out[i] = rawTensor{name, dtype, f.tensors[name].shape, tensorBytes(dtype, xs)}
	}
	return out
}

// exactModel returns a model of meta whose weights are multiples of 1/64
// below 2 in magnitude, exact in F16 and BF16, drawn from seed.
func exactModel(t testing.TB, spec *env.Spec, meta Meta, seed uint64) *Model {
	rng := cards.NewRand(seed)
	draw := func(n int) []float32 {
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(rng.IntN(255)-127) / 64
		}
		return x
	}
	widths := append(append([]int{meta.firstInputs()}, meta.Hidden...), meta.outputs())
	var ws, bs [][]float32
	for i := range len(widths) - 1 {
		ws, bs = append(ws, draw(widths[i]*widths[i+1])), append(bs, draw(widths[i+1]))
	}
	var m *Model
	var err error
	if meta.encoding() == EncodingCards {
		m, err = NewCardModel(meta, draw(CardCodes*meta.CardDim), ws, bs)
	} else {
		m, err = NewModel(meta, ws, bs)
	}
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// vectors returns the table: every valid and invalid file.
func vectors(t testing.TB) (valid, invalid []vector) {
	fq, fifteen := mustSpec(t, "fourquarters"), mustSpec(t, "fifteen")
	base := func(spec *env.Spec) Meta {
		return Meta{Game: spec.Name, RulesVersion: spec.RulesVersion, ObsLen: spec.ObsLen, OneHotLen: spec.OneHotLen(),
			Actions: spec.Actions, Command: "go test ./policy -run TestVectors -write-vectors"}
	}
	file := func(m *Model, dtype string) []byte { return writeRaw(modelTensors(t, m, dtype), m.meta.metadata()) }
	add := func(name, why, dtype string, seed uint64, edit func(*Meta)) *Model {
		meta := base(fq)
		edit(&meta)
		m := exactModel(t, fq, meta, seed)
		valid = append(valid, vector{name: name, why: why, data: file(m, dtype), want: m})
		return m
	}
	add("policy-f32", "a policy network (no head) with two hidden units, F32, its optional plain keys and a key the format does not know (kept)", "F32", 1, func(m *Meta) {
		m.Hidden, m.TrainedSteps, m.Notes, m.Extra = []int{2}, 1234, "a test vector", map[string]string{"seed": "7"}
	})
	add("policy-bf16", "a policy network of two hidden layers, BF16 (widened exactly)", "BF16", 2, func(m *Meta) { m.Hidden = []int{2, 3} })
	value := add("value-terms-f16", "a linear value file as the committed ones: eval_weight, eval_terms, lookahead_samples; F16", "F16", 3, func(m *Meta) {
		m.Head, m.EvalWeight, m.EvalTerms, m.LookaheadSamples = HeadValue, 104, map[string]float64{"removed": 0.5, "lonely": -0.25}, 4
	})
	add("value-opening-f16", "a value file with other term weights in the opening", "F16", 4, func(m *Meta) {
		m.Head, m.EvalWeight, m.EvalTerms = HeadValue, 104, map[string]float64{"near": 0.125}
		m.OpeningTerms, m.OpeningProgress = map[string]float64{"pair_now": 1}, 0.25
	})
	add("value-logsigmoid-f16", "a value network whose output is a logit, with a floor", "F16", 5, func(m *Meta) {
		m.Head, m.Hidden, m.ValueLink, m.ValueFloor = HeadValue, []int{2}, LinkLogSigmoid, 0.375
	})
	cardsModel := add("cards-stacks-f32", "a card-embedding value network that reads the cells as 12 sorted stacks of 4", "F32", 6, func(m *Meta) {
		m.Encoding, m.CardDim, m.InputLen, m.Hidden, m.Head = EncodingCards, 2, CardInputLen(fq, 2), []int{3}, HeadValue
		m.Stacks, m.StacksSorted = []StackGroup{{0, 12, 4}}, true
	})
	smallPolicy := exactModel(t, fq, func() Meta { m := base(fq); m.Hidden = []int{1}; return m }(), 7)

	// withMeta is m's file (as dtype) with metadata keys set (a value of
	// "-" deletes the key).
	withMeta := func(m *Model, dtype string, set map[string]string) []byte {
		md := m.meta.metadata()
		for k, v := range set {
			if v == "-" {
				delete(md, k)
			} else {
				md[k] = v
			}
		}
		return writeRaw(modelTensors(t, m, dtype), md)
	}
	bad := func(name, why string, data []byte, errs ...string) {
		invalid = append(invalid, vector{name: name, why: why, data: data, errs: errs})
	}
	meta := func(name, why string, set map[string]string, errs ...string) {
		bad(name, why, withMeta(value, "F16", set), errs...)
	}
	meta("retired-veto", "round 20's veto: its four keys", map[string]string{"veto_terms": `{"lonely": -0.5}`, "veto_floor": "0.5", "veto_bias": "1", "veto_weight": "10"}, "veto_terms")
	meta("retired-veto-weight", "one key of the veto alone", map[string]string{"veto_weight": "10"}, "veto_weight")
	meta("format-other", "another format", map[string]string{"format": "gguf"}, "format", "gguf")
	meta("format-version-2", "a newer version of the format", map[string]string{"format_version": "2"}, "format_version", "2")
	meta("missing-command", "a required key missing", map[string]string{"command": "-"}, "required", "command")
	meta("encoding-raw", "an encoding this build does not read", map[string]string{"obs_encoding": "raw"}, "obs_encoding", "raw")
	meta("activation-tanh", "an activation this build does not have", map[string]string{"activation": "tanh"}, "activation", "tanh")
	meta("head-q", "an unknown head", map[string]string{"head": "q"}, "head", "q")
	meta("hidden-not-widths", "hidden that is not widths", map[string]string{"hidden": "4,x"}, "hidden", "4,x")
	meta("actions-not-a-number", "a size that is not a number", map[string]string{"actions": "many"}, "actions", "many")
	meta("obs-len-other", "the observation length of another build", map[string]string{"obs_len": "99"}, "obs_len", "99")
	meta("rules-version-2", "another rules version", map[string]string{"rules_version": "2"}, "rules version 2")
	meta("eval-weight-nan", "an eval weight that is not a finite number", map[string]string{"eval_weight": "NaN"}, "eval_weight", "NaN")
	bad("eval-weight-on-policy", "an eval weight on a policy network", withMeta(smallPolicy, "F16", map[string]string{"eval_weight": "104"}), "eval_weight", "head")
	meta("eval-terms-not-object", "eval_terms that is not an object of numbers", map[string]string{"eval_terms": "[1, 2]"}, "eval_terms")
	meta("eval-terms-string", "a term weight that is a string", map[string]string{"eval_terms": `{"lonely": "much"}`}, "eval_terms")
	meta("eval-terms-without-weight", "eval_terms without eval_weight", map[string]string{"eval_weight": "-"}, "eval_terms", "eval_weight")
	meta("eval-terms-unknown", "a term the game does not have", map[string]string{"eval_terms": `{"buried": 1}`}, "buried")
	meta("opening-without-progress", "eval_terms_opening without opening_progress", map[string]string{"eval_terms_opening": `{"near": 1}`}, "eval_terms_opening", "opening_progress")
	meta("opening-progress-one", "an opening that never ends", map[string]string{"eval_terms_opening": `{"near": 1}`, "opening_progress": "1"}, "opening_progress")
	meta("value-link-tanh", "a link this build does not read", map[string]string{"value_link": "tanh"}, "value_link", "tanh")
	meta("value-floor-without-link", "a floor without the logsigmoid link", map[string]string{"value_floor": "0.5"}, "value_floor", "value_link")
	meta("value-floor-one", "a floor that is not a probability below 1", map[string]string{"value_link": "logsigmoid", "value_floor": "1"}, "value_floor")
	meta("lookahead-zero", "no copy to look at", map[string]string{"lookahead_samples": "0"}, "lookahead_samples")
	meta("lookahead-257", "more copies than a file may ask", map[string]string{"lookahead_samples": "257"}, "lookahead_samples", "256")
	bad("lookahead-on-policy", "a look-ahead on a policy network", withMeta(smallPolicy, "F16", map[string]string{"lookahead_samples": "4"}), "lookahead_samples", "head")
	openValue := exactModel(t, fifteen, func() Meta {
		m := base(fifteen)
		m.Head, m.EvalWeight, m.LookaheadSamples = HeadValue, 104, 4
		return m
	}(), 8)
	bad("lookahead-open-game", "several reshuffled copies of a game without hidden cards", file(openValue, "F16"), "lookahead_samples", "no hidden cards")
	meta("stacks-malformed", "stacks that are not OFFSET:COUNT:HEIGHT items", map[string]string{"stacks": "0:12"}, "stacks", "0:12")
	meta("stacks-outside", "stacks beyond the card cells", map[string]string{"stacks": "96:2:3"}, "stacks", "card segments")
	meta("stacks-sorted-without-stacks", "stacks_sorted without stacks", map[string]string{"stacks_sorted": "1"}, "stacks_sorted", "stacks")
	meta("stacks-sorted-yes", "stacks_sorted that is not 0 or 1", map[string]string{"stacks": "0:12:4", "stacks_sorted": "yes"}, "stacks_sorted", "yes")
	meta("trained-steps-negative", "a negative number of steps", map[string]string{"trained_steps": "-1"}, "trained_steps")
	bad("card-dim-missing", "a card-embedding file without card_dim", withMeta(cardsModel, "F32", map[string]string{"card_dim": "-"}), "card_dim")
	bad("input-len-other", "a card-embedding file whose input width is not the game's", withMeta(cardsModel, "F32", map[string]string{"input_len": "97"}), "input_len", "97")

	// The tensors and the container.
	tensors := func(edit func([]rawTensor) []rawTensor) []byte {
		return writeRaw(edit(modelTensors(t, value, "F16")), value.meta.metadata())
	}
	bad("tensor-extra", "a tensor the network does not have", tensors(func(ts []rawTensor) []rawTensor {
		return append(ts, rawTensor{"head.weight", "F16", []int{1}, tensorBytes("F16", []float32{1})})
	}), "head.weight")
	bad("tensor-shape", "a first layer one input short", tensors(func(ts []rawTensor) []rawTensor {
		w := &ts[1] // layers.0.bias, layers.0.weight
		w.shape, w.data = []int{1, fq.OneHotLen() - 1}, w.data[2:]
		return ts
	}), "layers.0", "2804")
	bad("tensor-nan", "a weight that is NaN", tensors(func(ts []rawTensor) []rawTensor {
		binary.LittleEndian.PutUint16(ts[1].data[10:], 0x7E00)
		return ts
	}), "layers.0.weight", "NaN")
	bad("tensor-f64", "a dtype this build does not read", tensors(func(ts []rawTensor) []rawTensor {
		ts[0] = rawTensor{"layers.0.bias", "F64", []int{1}, tensorBytes("F64", []float32{0.5})}
		return ts
	}), "F64")
	good := file(value, "F16")
	bad("truncated", "a file cut short", good[:len(good)-10], "truncated")
	bad("tail-bytes", "bytes after the last tensor", append(slices.Clone(good), 0, 0, 0, 0), "belong to no tensor")
	hlen := int(binary.LittleEndian.Uint64(good))
	header, body := bytes.TrimRight(good[8:8+hlen], " "), good[8+hlen:]
	var entries map[string]json.RawMessage
	if err := json.Unmarshal(header, &entries); err != nil {
		t.Fatal(err)
	}
	dup := append([]byte(`{"layers.0.bias":`+string(entries["layers.0.bias"])+`,`), header[1:]...)
	bad("header-duplicate-key", "a header key that appears twice", padded(dup, body), "appears twice")
	bad("header-junk", "data after the header object", padded(append(slices.Clone(header), "xy"...), body), "header", "JSON")
	return valid, invalid
}

// canonical is the parse of m every reader must make (the "meta" of a
// valid vector).
func canonical(m Meta) map[string]any {
	orEmpty := func(t map[string]float64) map[string]float64 {
		if t == nil {
			return map[string]float64{}
		}
		return t
	}
	stacks := [][]int{}
	for _, g := range m.Stacks {
		stacks = append(stacks, []int{g.Offset, g.Count, g.Height})
	}
	extra := m.Extra
	if extra == nil {
		extra = map[string]string{}
	}
	hidden := m.Hidden
	if hidden == nil {
		hidden = []int{}
	}
	return map[string]any{
		"game": m.Game, "rules_version": m.RulesVersion, "obs_len": m.ObsLen, "onehot_len": m.OneHotLen, "actions": m.Actions,
		"obs_encoding": m.encoding(), "hidden": hidden, "card_dim": m.CardDim, "input_len": m.InputLen, "head": m.Head,
		"eval_weight": m.EvalWeight, "eval_terms": orEmpty(m.EvalTerms), "eval_terms_opening": orEmpty(m.OpeningTerms),
		"opening_progress": m.OpeningProgress, "value_link": m.ValueLink, "value_floor": m.ValueFloor, "stacks": stacks,
		"stacks_sorted": m.StacksSorted, "lookahead_samples": max(1, m.LookaheadSamples), "command": m.Command,
		"trained_steps": m.TrainedSteps, "notes": m.Notes, "extra": extra,
	}
}

// asJSON is v as encoding/json reads it back into an any.
func asJSON(t testing.TB, v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// vectorJSON returns the JSON beside vector v: its parse and its outputs
// on the probe observations (from the golden inputs), or its error words.
func vectorJSON(t testing.TB, v vector) []byte {
	f := vectorFile{Why: v.why, Error: v.errs}
	if v.want != nil {
		f.Meta = canonical(v.want.meta)
		var in goldenInputs
		data, err := os.ReadFile("testdata/golden_inputs.json")
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &in); err != nil {
			t.Fatal(err)
		}
		spec := mustSpec(t, v.want.meta.Game)
		n, err := v.want.NewNet(spec)
		if err != nil {
			t.Fatalf("%s: %v", v.name, err)
		}
		f.Probe = &vectorProbe{}
		for _, row := range [][]int{in.Obs[0], in.Obs[len(in.Obs)-1]} { // the last has a cell above its Max
			obs := make([]uint8, len(row))
			for i, x := range row {
				obs[i] = uint8(x)
			}
			var out []float64
			for _, x := range n.Logits(obs) {
				out = append(out, float64(x))
			}
			f.Probe.Obs, f.Probe.Outputs = append(f.Probe.Obs, row), append(f.Probe.Outputs, out)
		}
	}
	b, err := json.MarshalIndent(f, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	// Arrays of numbers (widths, stacks, probe rows) on one line each.
	b = numberArray.ReplaceAllFunc(b, func(a []byte) []byte { return spaces.ReplaceAll(a, nil) })
	return append(b, '\n')
}

var (
	numberArray = regexp.MustCompile(`\[[-0-9.eE+,\s]*\]`)
	spaces      = regexp.MustCompile(`\s+`)
)

// TestVectorsAreTheTable: the files under testdata/vectors are what the
// table writes, no more and no fewer (with -write-vectors it writes them).
func TestVectorsAreTheTable(t *testing.T) {
	valid, invalid := vectors(t)
	want := map[string][]byte{}
	for dir, vs := range map[string][]vector{"valid": valid, "invalid": invalid} {
		for _, v := range vs {
			want[filepath.Join(dir, v.name+".safetensors")] = v.data
			want[filepath.Join(dir, v.name+".json")] = vectorJSON(t, v)
		}
	}
	if *writeVectors {
		os.RemoveAll(vectorDir)
		for name, data := range want {
			path := filepath.Join(vectorDir, name)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	got, _ := filepath.Glob(filepath.Join(vectorDir, "*", "*"))
	if len(got) != len(want) {
		t.Errorf("%d files under %s, the table has %d: go test ./policy -run TestVectors -write-vectors", len(got), vectorDir, len(want))
	}
	for name, data := range want {
		if disk, err := os.ReadFile(filepath.Join(vectorDir, name)); err != nil || !bytes.Equal(disk, data) {
			t.Errorf("%s is not what the table writes (%v): go test ./policy -run TestVectors -write-vectors", name, err)
		}
	}
}

// readVectors returns the vectors of testdata/vectors/dir: each file's
// path and its JSON.
func readVectors(t *testing.T, dir string) map[string]vectorFile {
	files, err := filepath.Glob(filepath.Join(vectorDir, dir, "*.safetensors"))
	if err != nil || len(files) < 5 {
		t.Fatalf("%d vectors under %s/%s (%v)", len(files), vectorDir, dir, err)
	}
	out := map[string]vectorFile{}
	for _, path := range files {
		data, err := os.ReadFile(strings.TrimSuffix(path, ".safetensors") + ".json")
		if err != nil {
			t.Fatal(err)
		}
		var f vectorFile
		if err := json.Unmarshal(data, &f); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out[path] = f
	}
	return out
}

// TestVectors: this reader reads every valid vector as its JSON says
// (parse and outputs) and refuses every invalid one with an error that
// holds its words, when the file is read or checked against its game.
func TestVectors(t *testing.T) {
	for path, f := range readVectors(t, "valid") {
		m, err := Load(path)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if got := asJSON(t, canonical(m.Meta())); !reflect.DeepEqual(got, asJSON(t, f.Meta)) {
			t.Errorf("%s: read as\n%v\nwant\n%v", path, got, asJSON(t, f.Meta))
		}
		n, err := m.NewNet(mustSpec(t, m.Meta().Game))
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		for i, row := range f.Probe.Obs {
			obs := make([]uint8, len(row))
			for j, x := range row {
				obs[j] = uint8(x)
			}
			out := n.Logits(obs)
			if len(out) != len(f.Probe.Outputs[i]) {
				t.Fatalf("%s: %d outputs, want %d", path, len(out), len(f.Probe.Outputs[i]))
			}
			for a, w := range f.Probe.Outputs[i] {
				if !closeTo(float64(out[a]), w) {
					t.Errorf("%s: probe %d output %d is %v, want %v", path, i, a, out[a], w)
				}
			}
		}
	}
	for path, f := range readVectors(t, "invalid") {
		m, err := Load(path)
		if err == nil {
			var spec *env.Spec
			if spec, err = env.Lookup(m.Meta().Game); err == nil {
				_, err = m.NewNet(spec)
			}
		}
		if err == nil {
			t.Errorf("%s (%s): accepted", path, f.Why)
			continue
		}
		for _, w := range f.Error {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s (%s): error %q does not say %q", path, f.Why, err, w)
			}
		}
	}
}
