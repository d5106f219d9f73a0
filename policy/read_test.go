package policy

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
)

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
		got, err := Decode(half, dtype)
		if err != nil {
			t.Fatalf("%s: %v", dtype, err)
		}
		if !slices.Equal(got.w0t, m.w0t) {
			t.Errorf("%s weights differ", dtype)
		}
	}
}

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
		_, err := Decode(tc.data, "bad.safetensors")
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "model bad.safetensors: ") {
			t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.want)
		}
	}
}

func TestModelForOtherGame(t *testing.T) {
	spec := mustSpec(t, goldenGame)
	m := randomModel(t, spec, []int{4}, 1)
	if err := m.Check(spec); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		edit func(*Meta)
		want string
	}{
		{func(mm *Meta) { mm.Game = "limited" }, "was trained for limited, not fourquarters"},
		{func(mm *Meta) { mm.RulesVersion = spec.RulesVersion + 1 }, fmt.Sprintf("rules version %d; this build plays rules version %d", spec.RulesVersion+1, spec.RulesVersion)},
		{func(mm *Meta) { mm.ObsLen = 99 }, fmt.Sprintf("obs_len is 99, but fourquarters's observations have %d cells", spec.ObsLen)},
		{func(mm *Meta) { mm.OneHotLen++ }, fmt.Sprintf("onehot_len is %d, but fourquarters's one-hot observation has %d inputs", spec.OneHotLen()+1, spec.OneHotLen())},
		{func(mm *Meta) { mm.Actions = 3 }, fmt.Sprintf("actions is 3, but fourquarters has %d actions", spec.Actions)},
	} {
		other := *m
		tc.edit(&other.meta)
		other.source = "x.safetensors"
		if _, err := other.NewNet(spec); err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "x.safetensors") {
			t.Errorf("error %v, want one saying %q", err, tc.want)
		}
	}
}

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
		m, err := Decode(data, "fuzz")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "model fuzz: ") {
				t.Fatalf("error without the file's name: %v", err)
			}
			return
		}
		again, err := Decode(encode(t, m), "again")
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
