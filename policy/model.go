package policy

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Model is a network read from a model file: read-only weights that any
// number of goroutines share. Evaluate it through a Net (NewNet), which
// holds the buffers of one goroutine.
type Model struct {
	meta   Meta
	source string // the file it came from, for messages
	sum    string // the hex SHA-256 of the file's bytes ("" if built in memory)
	// w0t is the first layer's weight transposed, [OneHotLen][width0]
	// row-major: the row of one-hot input j is contiguous, so a one-hot
	// input is a sum of rows.
	w0t   []float32
	b0    []float32
	dense []denseLayer // the layers after the first

	// A card-embedding network's stored first layer: the embedding
	// [CardCodes][CardDim] and the compact weight [width0][InputLen]. Its
	// w0t is computed from them, for the game's cell layout, by the first
	// NewNet (expand).
	cards, w0c []float32
	expand     *sync.Once
}

// denseLayer is one layer after the first: w is [out][in] row-major.
type denseLayer struct {
	w, b    []float32
	in, out int
}

// NewModel builds a model from its metadata and its layers' weights and
// biases in the PyTorch layout (weights[i] is out × in, row-major). The
// shapes must agree with meta; the slices are copied. A card-embedding
// model (meta.Encoding) is built by NewCardModel.
func NewModel(meta Meta, weights, biases [][]float32) (*Model, error) {
	if meta.encoding() != EncodingOneHot {
		return nil, fmt.Errorf("NewModel builds %s models; a %s model needs its card embedding (NewCardModel)", EncodingOneHot, meta.encoding())
	}
	return newModel(meta, nil, weights, biases)
}

// NewCardModel builds a card-embedding model (meta.Encoding is
// EncodingCards) from its card embedding (CardCodes × meta.CardDim,
// row-major) and its layers, the first of which is hidden[0] ×
// meta.InputLen. The slices are copied.
func NewCardModel(meta Meta, embedding []float32, weights, biases [][]float32) (*Model, error) {
	if meta.encoding() != EncodingCards || meta.CardDim < 1 || meta.InputLen < 1 || len(meta.Hidden) == 0 {
		return nil, fmt.Errorf("NewCardModel needs metadata of encoding %s with card_dim, input_len and a hidden layer", EncodingCards)
	}
	if len(embedding) != CardCodes*meta.CardDim {
		return nil, fmt.Errorf("card embedding: want %d×%d values, got %d", CardCodes, meta.CardDim, len(embedding))
	}
	return newModel(meta, embedding, weights, biases)
}

func newModel(meta Meta, embedding []float32, weights, biases [][]float32) (*Model, error) {
	k := len(meta.Hidden) + 1
	if len(weights) != k || len(biases) != k {
		return nil, fmt.Errorf("hidden %v needs %d layers, got %d weights and %d biases", meta.Hidden, k, len(weights), len(biases))
	}
	widths := append(append([]int{meta.firstInputs()}, meta.Hidden...), meta.outputs())
	for i := range k {
		in, out := widths[i], widths[i+1]
		if len(weights[i]) != in*out || len(biases[i]) != out {
			return nil, fmt.Errorf("layer %d: want weight %d×%d and bias %d, got %d and %d values", i, out, in, out, len(weights[i]), len(biases[i]))
		}
	}
	meta.Encoding = meta.encoding()
	m := &Model{meta: meta}
	in0, out0 := widths[0], widths[1]
	if embedding != nil {
		m.cards, m.w0c, m.expand = slices.Clone(embedding), slices.Clone(weights[0]), new(sync.Once)
	} else {
		m.w0t = make([]float32, in0*out0)
		for o := range out0 {
			for j, x := range weights[0][o*in0 : (o+1)*in0] {
				m.w0t[j*out0+o] = x
			}
		}
	}
	m.b0 = slices.Clone(biases[0])
	for i := 1; i < k; i++ {
		m.dense = append(m.dense, denseLayer{w: slices.Clone(weights[i]), b: slices.Clone(biases[i]), in: widths[i], out: widths[i+1]})
	}
	return m, nil
}

// layerName returns the tensor names of layer i.
func layerName(i int, part string) string { return "layers." + strconv.Itoa(i) + "." + part }

// cardsTensor is the name of a card-embedding model's embedding tensor.
const cardsTensor = "cards.weight"

// Meta returns what the file says about the model.
func (m *Model) Meta() Meta { return m.meta }

// IsValue reports whether the model is a value network (metadata head
// "value"): one output, read with Net.Value, instead of a logit per action.
func (m *Model) IsValue() bool { return m.meta.Head == HeadValue }

// Source returns the file the model was read from ("" if built by NewModel).
func (m *Model) Source() string { return m.source }

// SHA256 returns the hex SHA-256 of the file the model was read from (""
// if built by NewModel): what a dataset records to name the model exactly.
func (m *Model) SHA256() string { return m.sum }

// String is how messages name the model: "model PATH", or "model" when it
// was built in memory.
func (m *Model) String() string {
	if m.source == "" {
		return "model"
	}
	return "model " + m.source
}

// WriteTo writes the model as a model file (F32).
func (m *Model) WriteTo(w io.Writer) (int64, error) {
	k := len(m.dense) + 1
	names := make([]string, 0, 2*k)
	shapes := make([][]int, 0, 2*k)
	data := make([][]float32, 0, 2*k)
	in0, out0 := m.meta.firstInputs(), len(m.b0)
	w0 := m.w0c
	if m.cards != nil {
		names = append(names, cardsTensor)
		shapes = append(shapes, []int{CardCodes, m.meta.CardDim})
		data = append(data, m.cards)
	} else {
		w0 = make([]float32, in0*out0)
		for j := range in0 {
			for o := range out0 {
				w0[o*in0+j] = m.w0t[j*out0+o]
			}
		}
	}
	names = append(names, layerName(0, "weight"), layerName(0, "bias"))
	shapes = append(shapes, []int{out0, in0}, []int{out0})
	data = append(data, w0, m.b0)
	for i, l := range m.dense {
		names = append(names, layerName(i+1, "weight"), layerName(i+1, "bias"))
		shapes = append(shapes, []int{l.out, l.in}, []int{l.out})
		data = append(data, l.w, l.b)
	}
	bw := bufio.NewWriter(w)
	n, err := writeSafetensors(bw, names, shapes, data, m.meta.metadata())
	if err == nil {
		err = bw.Flush()
	}
	return n, err
}

// joinInts writes widths as metadata hidden does.
func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}
