package policy

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
)

// Net evaluates a Model on the observations of one game. It holds the
// buffers of one goroutine (the weights stay shared), so computing logits
// allocates nothing. It is not safe for concurrent use.
type Net struct {
	m      *Model
	spec   *env.Spec
	cells  []int32     // the one-hot offset of each observation cell
	max    []uint8     // the largest value of each cell (larger ones clip)
	acts   [][]float32 // the output of each layer; the last is the logits
	probs  []float64   // scratch for sampling and log-probabilities
	logits []float32
	// The observation as the network reads it, when the model has stack
	// groups (ArrangeStacks), and its scratch.
	arranged, turned []uint8
	order            []int
}

// NewNet checks that m was made for spec's game (see Check) and returns a
// Net for it.
func (m *Model) NewNet(spec *env.Spec) (*Net, error) {
	if err := m.Check(spec); err != nil {
		return nil, err
	}
	if m.cards != nil {
		m.expand.Do(func() { m.expandCards(spec) })
	}
	n := &Net{m: m, spec: spec, cells: make([]int32, spec.ObsLen), max: make([]uint8, spec.ObsLen), probs: make([]float64, spec.Actions)}
	o := 0
	for _, g := range spec.Segments {
		for i := g.Offset; i < g.Offset+g.Len; i++ {
			n.cells[i], n.max[i] = int32(o), g.Max
			o += int(g.Max) + 1
		}
	}
	n.acts = append(n.acts, make([]float32, len(m.b0)))
	for _, l := range m.dense {
		n.acts = append(n.acts, make([]float32, l.out))
	}
	n.logits = n.acts[len(n.acts)-1]
	if len(m.meta.Stacks) > 0 {
		big, cnt := 0, 0
		for _, g := range m.meta.Stacks {
			big, cnt = max(big, g.Count*g.Height), max(cnt, g.Count)
		}
		n.arranged, n.turned, n.order = make([]uint8, spec.ObsLen), make([]uint8, big), make([]int, cnt)
	}
	return n, nil
}

// Model returns the model the net evaluates.
func (n *Net) Model() *Model { return n.m }

// Spec returns the game the net was made for.
func (n *Net) Spec() *env.Spec { return n.spec }

// Value computes a value network's output for observation obs: the
// expected final progress fraction from that position, as trained. It does
// not allocate. On a policy network it returns the first logit.
func (n *Net) Value(obs []uint8) float32 { return n.Logits(obs)[0] }

// Logits computes the network's output for observation obs (Spec.ObsLen
// cells) and returns it: one logit per action (a value network's single
// value), in a buffer of the Net that the next call overwrites. It does
// not allocate.
//
// The first layer over the one-hot input is a sum of rows (a gather): each
// cell has exactly one hot input, so the layer adds ObsLen rows of the
// transposed weight to the bias instead of multiplying a mostly-zero
// vector. The other layers are dense matrix-vector products (gonum's BLAS).
func (n *Net) Logits(obs []uint8) []float32 {
	m := n.m
	if n.arranged != nil {
		ArrangeStacks(n.arranged, obs[:len(n.arranged)], m.meta.Stacks, m.meta.StacksSorted, n.turned, n.order)
		obs = n.arranged
	}
	h := n.acts[0]
	w := len(h)
	if w == 1 {
		// A first layer one unit wide (a linear value file): the sum of
		// one weight per cell, in the order and with the rounding of the
		// Axpy calls below, without their cost per call.
		s := m.b0[0]
		for i, v := range obs[:len(n.cells)] {
			s += m.w0t[int(n.cells[i])+int(min(v, n.max[i]))]
		}
		h[0] = s
	} else {
		copy(h, m.b0)
		y := blas32.Vector{N: w, Inc: 1, Data: h}
		for i, v := range obs[:len(n.cells)] {
			r := (int(n.cells[i]) + int(min(v, n.max[i]))) * w
			blas32.Axpy(1, blas32.Vector{N: w, Inc: 1, Data: m.w0t[r : r+w]}, y)
		}
	}
	for i, l := range m.dense {
		x := n.acts[i]
		for j, v := range x {
			x[j] = max(v, 0) // ReLU
		}
		out := n.acts[i+1]
		copy(out, l.b)
		blas32.Gemv(blas.NoTrans, 1, blas32.General{Rows: l.out, Cols: l.in, Stride: l.in, Data: l.w},
			blas32.Vector{N: l.in, Inc: 1, Data: x}, 1, blas32.Vector{N: l.out, Inc: 1, Data: out})
	}
	return n.logits
}

// argmaxMasked returns the legal action with the largest logit, the lowest
// id among equals; a NaN logit counts as −∞. The mask must not be empty.
func argmaxMasked(logits []float32, mask *env.Mask) int {
	best, bv := -1, float32(0)
	for a := mask.Next(0); a >= 0; a = mask.Next(a + 1) {
		v := logits[a]
		if v != v {
			v = float32(math.Inf(-1))
		}
		if best < 0 || v > bv {
			best, bv = a, v
		}
	}
	return best
}

// Argmax returns the legal action (in mask, which must not be empty) with the
// largest of the last logits, the lowest id among equals. It never returns
// an action outside the mask.
func (n *Net) Argmax(mask *env.Mask) int { return argmaxMasked(n.logits, mask) }

// Sample draws a legal action from the softmax of the last logits over the
// actions in mask (which must not be empty), at the given temperature, with
// rng. A temperature of 0 (or less) is Argmax. It does not allocate.
func (n *Net) Sample(mask *env.Mask, temperature float64, rng *cards.Rand) int {
	best := argmaxMasked(n.logits, mask)
	top := float64(n.logits[best])
	if temperature <= 0 || math.IsInf(top, 0) || math.IsNaN(top) {
		return best
	}
	sum := 0.0
	for a := mask.Next(0); a >= 0; a = mask.Next(a + 1) {
		p := math.Exp((float64(n.logits[a]) - top) / temperature) // NaN logits: p is NaN
		if p != p {
			p = 0
		}
		n.probs[a] = p
		sum += p
	}
	u := rng.Float64() * sum
	for a := mask.Next(0); a >= 0; a = mask.Next(a + 1) {
		u -= n.probs[a]
		if u < 0 {
			return a
		}
	}
	return best // rounding left u at 0
}

// LogProbs writes into dst, at the id of every action in mask, the log of
// its probability under the softmax of the last logits over the legal
// actions (0 for the best, negative for the others). Other entries of dst
// are left alone. It does not allocate.
func (n *Net) LogProbs(mask *env.Mask, dst []float64) {
	best := argmaxMasked(n.logits, mask)
	top := float64(n.logits[best])
	sum := 0.0
	for a := mask.Next(0); a >= 0; a = mask.Next(a + 1) {
		if p := math.Exp(float64(n.logits[a]) - top); p == p {
			sum += p
		}
	}
	lse := top + math.Log(sum)
	for a := mask.Next(0); a >= 0; a = mask.Next(a + 1) {
		v := float64(n.logits[a]) - lse
		if v != v || math.IsInf(top, 0) {
			v = math.Inf(-1)
			if a == best {
				v = 0
			}
		}
		dst[a] = v
	}
}
