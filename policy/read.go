package policy

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"slices"
)

// MaxFileSize bounds the size of a model file Load reads: the committed
// models are a few MB, and a larger file is refused before it is read, so
// that naming the wrong file (a dataset, a device) cannot fill the memory.
const MaxFileSize = 256 << 20

// Load reads the model file at path. It refuses, before reading, anything
// but a regular file of at most MaxFileSize bytes, and the reader
// allocates nothing a header declares beyond the file's own size: a
// header's shapes and offsets are checked against the bytes that are
// really there first.
func Load(path string) (*Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("model %s: not a regular file (%s)", path, fi.Mode().Type())
	}
	if fi.Size() > MaxFileSize {
		return nil, fmt.Errorf("model %s: %d bytes, more than a model file may have (%d MiB); is it a model?", path, fi.Size(), MaxFileSize>>20)
	}
	// Read at most one byte past the limit, in case the file grew since Stat.
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("model %s: %w", path, err)
	}
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("model %s: more than a model file may have (%d MiB)", path, MaxFileSize>>20)
	}
	return Decode(data, path)
}

// Decode reads a model file held in data; source names it in messages (a
// path).
func Decode(data []byte, source string) (*Model, error) {
	m, err := decode(data)
	if err != nil {
		return nil, fmt.Errorf("model %s: %w", source, err)
	}
	m.source = source
	h := sha256.Sum256(data)
	m.sum = hex.EncodeToString(h[:])
	return m, nil
}

func decode(data []byte) (*Model, error) {
	f, err := decodeSafetensors(data)
	if err != nil {
		return nil, err
	}
	meta, err := parseMeta(f.metadata)
	if err != nil {
		return nil, err
	}
	k := len(meta.Hidden) + 1
	widths := append(append([]int{meta.firstInputs()}, meta.Hidden...), meta.outputs())
	cardModel := meta.encoding() == EncodingCards
	for name := range f.tensors {
		ok := cardModel && name == cardsTensor
		for i := range k {
			ok = ok || name == layerName(i, "weight") || name == layerName(i, "bias")
		}
		if !ok {
			return nil, fmt.Errorf("unexpected tensor %q: with hidden=%q the file holds layers.0 to layers.%d, each .weight and .bias",
				name, joinInts(meta.Hidden), k-1)
		}
	}
	var embedding []float32
	if cardModel {
		if embedding, err = tensorFloats(f, cardsTensor, []int{CardCodes, meta.CardDim}, "[54 card codes, card_dim]"); err != nil {
			return nil, err
		}
	}
	weights, biases := make([][]float32, k), make([][]float32, k)
	for i := range k {
		in, out := widths[i], widths[i+1]
		for _, p := range []struct {
			part  string
			shape []int
			dst   *[]float32
		}{{"weight", []int{out, in}, &weights[i]}, {"bias", []int{out}, &biases[i]}} {
			name := layerName(i, p.part)
			if _, ok := f.tensors[name]; !ok {
				return nil, fmt.Errorf("tensor %s is missing (hidden=%q means layers.0 to layers.%d)", name, joinInts(meta.Hidden), k-1)
			}
			why := shapeWhy(i, k, p.part, meta.Head)
			if cardModel && i == 0 && p.part == "weight" {
				why = "[hidden[0], input_len]"
			}
			if *p.dst, err = tensorFloats(f, name, p.shape, why); err != nil {
				return nil, err
			}
		}
	}
	return newModel(meta, embedding, weights, biases)
}

// tensorFloats returns tensor name of f as float32s after checking its
// presence, dtype and shape (why says where the shape comes from).
func tensorFloats(f *stFile, name string, shape []int, why string) ([]float32, error) {
	t, ok := f.tensors[name]
	if !ok {
		return nil, fmt.Errorf("tensor %s is missing", name)
	}
	if t.dtype != "F32" && t.dtype != "F16" && t.dtype != "BF16" {
		return nil, fmt.Errorf("tensor %s has dtype %s; want F32 (or F16, BF16)", name, t.dtype)
	}
	if !slices.Equal(t.shape, shape) {
		return nil, fmt.Errorf("tensor %s has shape %v, want %v (%s)", name, t.shape, shape, why)
	}
	return t.floats()
}

// shapeWhy says where the expected shape of layer i's part comes from.
func shapeWhy(i, k int, part, head string) string {
	out, last := "hidden", "actions"
	if head == HeadValue {
		last = "1 (a value head)"
	}
	if i == k-1 {
		out = last
	}
	switch {
	case part == "bias":
		return "[" + out + "]"
	case i == 0 && k == 1:
		return "[" + last + ", onehot_len]"
	case i == 0:
		return "[hidden[0], onehot_len]"
	}
	return "[" + out + ", previous hidden]"
}
