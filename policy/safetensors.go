package policy

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
)

// This file reads and writes the safetensors container
// (https://huggingface.co/docs/safetensors): an 8-byte little-endian header
// length N, N bytes of JSON (an object mapping each tensor name to
// {"dtype", "shape", "data_offsets"}, plus an optional "__metadata__"
// object of strings), then the tensors' raw little-endian bytes, whose
// offsets are relative to the end of the header. The reader is strict: a
// file that the reference implementation would refuse is refused here too,
// with a message that says what is wrong.

// maxHeaderLen bounds the JSON header (the reference implementation allows
// 100 MB).
const maxHeaderLen = 100 << 20

// stTensor is one tensor of a safetensors file: its dtype, shape and raw
// little-endian bytes (aliasing the file's buffer).
type stTensor struct {
	name  string
	dtype string
	shape []int
	data  []byte
}

// stFile is a decoded safetensors file.
type stFile struct {
	tensors  map[string]*stTensor
	metadata map[string]string
}

// dtypeSizes are the element sizes of the safetensors dtypes.
var dtypeSizes = map[string]int{
	"BOOL": 1, "U8": 1, "I8": 1, "F8_E5M2": 1, "F8_E4M3": 1,
	"I16": 2, "U16": 2, "F16": 2, "BF16": 2,
	"I32": 4, "U32": 4, "F32": 4,
	"I64": 8, "U64": 8, "F64": 8,
}

// stEntry is a tensor as the JSON header describes it.
type stEntry struct {
	Dtype       *string  `json:"dtype"`
	Shape       *[]int64 `json:"shape"`
	DataOffsets *[]int64 `json:"data_offsets"`
}

// decodeSafetensors parses a whole safetensors file held in data. The
// tensors' bytes alias data.
func decodeSafetensors(data []byte) (*stFile, error) {
	if len(data) < 8 {
		return nil, fmt.Errorf("not a safetensors file: %d bytes, shorter than the 8-byte header length", len(data))
	}
	n := binary.LittleEndian.Uint64(data)
	if n > maxHeaderLen {
		return nil, fmt.Errorf("not a safetensors file: header length %d is over the %d-byte limit", n, maxHeaderLen)
	}
	if n > uint64(len(data)-8) {
		return nil, fmt.Errorf("truncated safetensors file: the header is %d bytes, but only %d bytes follow the length", n, len(data)-8)
	}
	header := data[8 : 8+n]
	body := data[8+n:]
	if len(header) == 0 || header[0] != '{' {
		return nil, errors.New("not a safetensors file: the header does not start with a JSON object")
	}
	raw, err := decodeHeaderObject(header)
	if err != nil {
		return nil, fmt.Errorf("safetensors header: %w", err)
	}
	f := &stFile{tensors: map[string]*stTensor{}}
	type span struct {
		lo, hi int64
		name   string
	}
	var spans []span
	for _, kv := range raw {
		if kv.key == "__metadata__" {
			if err := json.Unmarshal(kv.value, &f.metadata); err != nil {
				return nil, fmt.Errorf("safetensors header: __metadata__ must map names to strings: %w", err)
			}
			continue
		}
		var e stEntry
		dec := json.NewDecoder(bytes.NewReader(kv.value))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&e); err != nil {
			return nil, fmt.Errorf("safetensors header: tensor %q: %w", kv.key, err)
		}
		if e.Dtype == nil || e.Shape == nil || e.DataOffsets == nil {
			return nil, fmt.Errorf("safetensors header: tensor %q needs dtype, shape and data_offsets", kv.key)
		}
		size, ok := dtypeSizes[*e.Dtype]
		if !ok {
			return nil, fmt.Errorf("safetensors header: tensor %q has unknown dtype %q", kv.key, *e.Dtype)
		}
		if len(*e.DataOffsets) != 2 {
			return nil, fmt.Errorf("safetensors header: tensor %q: data_offsets must be [begin, end], not %v", kv.key, *e.DataOffsets)
		}
		lo, hi := (*e.DataOffsets)[0], (*e.DataOffsets)[1]
		if lo < 0 || hi < lo {
			return nil, fmt.Errorf("safetensors header: tensor %q has invalid data_offsets [%d, %d]", kv.key, lo, hi)
		}
		if hi > int64(len(body)) {
			return nil, fmt.Errorf("truncated safetensors file: tensor %q ends at byte %d of the data, which has only %d bytes", kv.key, hi, len(body))
		}
		elems := int64(1)
		shape := make([]int, len(*e.Shape))
		for i, d := range *e.Shape {
			if d < 0 {
				return nil, fmt.Errorf("safetensors header: tensor %q has a negative dimension in shape %v", kv.key, *e.Shape)
			}
			if d > 0 && elems > math.MaxInt32/d {
				return nil, fmt.Errorf("safetensors header: tensor %q: shape %v is too large", kv.key, *e.Shape)
			}
			elems *= d
			shape[i] = int(d)
		}
		if want := elems * int64(size); hi-lo != want {
			return nil, fmt.Errorf("safetensors header: tensor %q: %s shape %v needs %d bytes, data_offsets give %d", kv.key, *e.Dtype, *e.Shape, want, hi-lo)
		}
		f.tensors[kv.key] = &stTensor{name: kv.key, dtype: *e.Dtype, shape: shape, data: body[lo:hi:hi]}
		spans = append(spans, span{lo, hi, kv.key})
	}
	// The tensors must cover the data exactly, without gaps or overlaps.
	slices.SortFunc(spans, func(a, b span) int {
		return cmp.Or(cmp.Compare(a.lo, b.lo), cmp.Compare(a.hi, b.hi))
	})
	at := int64(0)
	for _, s := range spans {
		if s.lo != at {
			if s.lo < at {
				return nil, fmt.Errorf("safetensors header: tensor %q overlaps the tensor before it (bytes %d-%d)", s.name, s.lo, s.hi)
			}
			return nil, fmt.Errorf("safetensors header: %d bytes of data before tensor %q belong to no tensor", s.lo-at, s.name)
		}
		at = s.hi
	}
	if at != int64(len(body)) {
		return nil, fmt.Errorf("safetensors file: %d bytes after the last tensor belong to no tensor", int64(len(body))-at)
	}
	return f, nil
}

// headerItem is one key of the header object with its raw value.
type headerItem struct {
	key   string
	value json.RawMessage
}

// decodeHeaderObject reads the header's top-level JSON object, keeping the
// keys in order and refusing duplicates, trailing data and anything but
// spaces after the object (the format pads the header with spaces).
func decodeHeaderObject(header []byte) ([]headerItem, error) {
	dec := json.NewDecoder(bytes.NewReader(header))
	if _, err := dec.Token(); err != nil { // '{', checked by the caller
		return nil, err
	}
	var items []headerItem
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("invalid JSON: %w", err)
		}
		key, ok := tok.(string)
		if !ok {
			return nil, fmt.Errorf("invalid JSON: want a key, found %v", tok)
		}
		if seen[key] {
			return nil, fmt.Errorf("key %q appears twice", key)
		}
		seen[key] = true
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("invalid JSON at key %q: %w", key, err)
		}
		items = append(items, headerItem{key, v})
	}
	if _, err := dec.Token(); err != nil { // '}'
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	if strings.Trim(string(header[dec.InputOffset():]), " ") != "" {
		return nil, errors.New("invalid JSON: data after the header object (only space padding is allowed)")
	}
	return items, nil
}

// floats returns the tensor's elements as float32: F32 as stored, F16 and
// BF16 widened exactly. Other dtypes are an error.
func (t *stTensor) floats() ([]float32, error) {
	var out []float32
	switch t.dtype {
	case "F32":
		out = make([]float32, len(t.data)/4)
		for i := range out {
			out[i] = math.Float32frombits(binary.LittleEndian.Uint32(t.data[4*i:]))
		}
	case "BF16":
		out = make([]float32, len(t.data)/2)
		for i := range out {
			out[i] = math.Float32frombits(uint32(binary.LittleEndian.Uint16(t.data[2*i:])) << 16)
		}
	case "F16":
		out = make([]float32, len(t.data)/2)
		for i := range out {
			out[i] = float16to32(binary.LittleEndian.Uint16(t.data[2*i:]))
		}
	default:
		return nil, fmt.Errorf("tensor %s has dtype %s; want F32 (or F16, BF16)", t.name, t.dtype)
	}
	for i, x := range out {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return nil, fmt.Errorf("tensor %s: element %d is %v; weights must be finite", t.name, i, x)
		}
	}
	return out, nil
}

// float16to32 widens an IEEE 754 half-precision number exactly.
func float16to32(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h) & 0x3ff
	switch {
	case exp == 0x1f: // infinity or NaN
		return math.Float32frombits(sign | 0xff<<23 | frac<<13)
	case exp != 0: // normal
		return math.Float32frombits(sign | (exp+127-15)<<23 | frac<<13)
	case frac == 0: // zero
		return math.Float32frombits(sign)
	}
	// Subnormal: frac × 2^-24.
	v := float32(frac) * (1.0 / (1 << 24))
	if sign != 0 {
		v = -v
	}
	return v
}

// writeSafetensors writes F32 tensors (in the order given) and metadata as a
// safetensors file, with the header padded to a multiple of 8 bytes.
func writeSafetensors(w io.Writer, names []string, shapes [][]int, data [][]float32, metadata map[string]string) (int64, error) {
	type entry struct {
		Dtype       string `json:"dtype"`
		Shape       []int  `json:"shape"`
		DataOffsets [2]int `json:"data_offsets"`
	}
	var hdr bytes.Buffer
	hdr.WriteByte('{')
	if len(metadata) > 0 {
		m, err := json.Marshal(metadata) // sorted keys
		if err != nil {
			return 0, err
		}
		hdr.WriteString(`"__metadata__":`)
		hdr.Write(m)
	}
	off := 0
	for i, name := range names {
		if hdr.Len() > 1 {
			hdr.WriteByte(',')
		}
		k, _ := json.Marshal(name)
		e, err := json.Marshal(entry{"F32", shapes[i], [2]int{off, off + 4*len(data[i])}})
		if err != nil {
			return 0, err
		}
		hdr.Write(k)
		hdr.WriteByte(':')
		hdr.Write(e)
		off += 4 * len(data[i])
	}
	hdr.WriteByte('}')
	for hdr.Len()%8 != 0 {
		hdr.WriteByte(' ')
	}
	buf := make([]byte, 8, 8+hdr.Len()+off)
	binary.LittleEndian.PutUint64(buf, uint64(hdr.Len()))
	buf = append(buf, hdr.Bytes()...)
	for _, d := range data {
		for _, x := range d {
			buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(x))
		}
	}
	n, err := w.Write(buf)
	return int64(n), err
}
