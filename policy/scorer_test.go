package policy

import (
	"math"
	"testing"

	"github.com/patience-gym/patience/env"
)

// TestScoreLogSigmoid: with value_link logsigmoid a value network's score
// is log σ(output), finite far out on both sides.
func TestScoreLogSigmoid(t *testing.T) {
	spec := mustSpec(t, "fifteen")
	m := randomValueModel(t, spec, []int{4}, 5)
	n, err := m.NewNet(spec)
	if err != nil {
		t.Fatal(err)
	}
	e, _ := env.Make("fifteen", env.Options{})
	e.Reset(2)
	out := float64(n.Value(e.Observation()))
	if got := NewScorer(n).Value(e.Observation()); got != out {
		t.Fatalf("identity link: score %v, output %v", got, out)
	}
	m.meta.ValueLink = LinkLogSigmoid
	sc := NewScorer(n)
	if !sc.LogLink() {
		t.Fatal("value_link logsigmoid: LogLink is false")
	}
	want := math.Log(1 / (1 + math.Exp(-out)))
	if got := sc.Value(e.Observation()); math.Abs(got-want) > 1e-12 {
		t.Fatalf("logsigmoid: score %v, want %v", got, want)
	}
	for _, b := range []float32{-1e4, 1e4} {
		m.dense[len(m.dense)-1].b[0] = b
		if s := sc.Value(e.Observation()); math.IsInf(s, 0) || math.IsNaN(s) || s > 0 {
			t.Fatalf("output near %g: score %v", b, s)
		}
	}
	// value_floor f: min(0, log σ(output) − log f): 0 for a chance of f or
	// more, the log of the chance over f below it.
	m.meta.ValueFloor = 0.5
	sc = NewScorer(n)
	for _, c := range []struct{ b, want float64 }{{3, 0}, {0, 0}, {-2, math.Log(1/(1+math.Exp(2))) - math.Log(0.5)}} {
		m.dense[len(m.dense)-1].b[0] = 0
		out := float64(n.Value(e.Observation()))
		m.dense[len(m.dense)-1].b[0] = float32(c.b - out)
		if got := sc.Value(e.Observation()); math.Abs(got-c.want) > 1e-5 {
			t.Fatalf("floor 0.5, output %v: score %v, want %v", c.b, got, c.want)
		}
	}
}
