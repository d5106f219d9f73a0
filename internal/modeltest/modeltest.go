// Package modeltest holds the test helpers of the packages whose tests
// build and read model files (policy, agents): the weights of networks
// drawn at random, model files written to a test's directory, and games
// looked up. It does not import policy, so that policy's own tests can use
// it.
package modeltest

import (
	"bytes"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
)

// Weights draws the layers of a network for spec, from seed: the one-hot
// input (spec.OneHotLen), hidden layers of the given widths and outputs
// outputs, the weights large enough that ReLUs cut and outputs differ. flat
// zeroes every layer after the first, so that the output is 0 wherever the
// position.
func Weights(spec *env.Spec, hidden []int, seed uint64, outputs int, flat bool) (ws, bs [][]float32) {
	rng := cards.NewRand(seed)
	widths := append(append([]int{spec.OneHotLen()}, hidden...), outputs)
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
		if flat && i > 0 {
			clear(w)
			clear(b)
		}
		ws, bs = append(ws, w), append(bs, b)
	}
	return ws, bs
}

// Encode returns m, a model, as a file's bytes.
func Encode(t testing.TB, m io.WriterTo) []byte {
	t.Helper()
	var b bytes.Buffer
	if _, err := m.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// Save writes m, a model, to the file name in dir and returns its path.
func Save(t testing.TB, dir, name string, m io.WriterTo) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, Encode(t, m), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Spec returns the named game's Spec, failing t when no game has that name
// (the test registers the games, importing env/all).
func Spec(t testing.TB, game string) *env.Spec {
	t.Helper()
	spec, err := env.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	return spec
}
