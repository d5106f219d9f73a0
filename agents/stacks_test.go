package agents

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/patience-gym/patience/env"
)

// TestArrangeStacksTurnsAndSorts: each stack is read with its last card
// first and its empty cells after; sorted, the stacks of a group come in
// ascending order of their turned cells; cells outside the groups stay.
func TestArrangeStacksTurnsAndSorts(t *testing.T) {
	src := []uint8{
		9,          // outside
		3, 7, 0, 0, // stack 0: 3 under 7
		0, 0, 0, 0, // stack 1: empty
		5, 1, 2, 0, // stack 2
		4, 4, 4, 4, // stack 3: full
		6, // outside
	}
	groups := []StackGroup{{Offset: 1, Count: 4, Height: 4}}
	dst := make([]uint8, len(src))
	scratch, order := make([]uint8, 16), make([]int, 4)
	ArrangeStacks(dst, src, groups, false, scratch, order)
	want := []uint8{9, 7, 3, 0, 0, 0, 0, 0, 0, 2, 1, 5, 0, 4, 4, 4, 4, 6}
	if !slices.Equal(dst, want) {
		t.Fatalf("turned: %v, want %v", dst, want)
	}
	ArrangeStacks(dst, src, groups, true, scratch, order)
	want = []uint8{9, 0, 0, 0, 0, 2, 1, 5, 0, 4, 4, 4, 4, 7, 3, 0, 0, 6}
	if !slices.Equal(dst, want) {
		t.Fatalf("sorted: %v, want %v", dst, want)
	}
	// The order of the stacks does not matter once sorted.
	perm := slices.Clone(src)
	copy(perm[1:5], src[13:17])
	copy(perm[13:17], src[1:5])
	other := make([]uint8, len(src))
	ArrangeStacks(other, perm, groups, true, scratch, order)
	if !slices.Equal(other, dst) {
		t.Fatalf("permuted stacks arrange to %v, not %v", other, dst)
	}
}

// TestSortedStacksIgnoreColumnOrder: a network with the game's columns as
// sorted stacks gives the same output for a position and for the same
// position with its columns in another order.
func TestSortedStacksIgnoreColumnOrder(t *testing.T) {
	spec := mustSpec(t, "fifteen")
	m := randomValueModel(t, spec, []int{8}, 3)
	m.meta.Stacks, m.meta.StacksSorted = []StackGroup{{Offset: 0, Count: 15, Height: 31}}, true
	n, err := m.NewNet(spec)
	if err != nil {
		t.Fatal(err)
	}
	e, _ := env.Make("fifteen", env.Options{})
	e.Reset(11)
	obs := slices.Clone(e.Observation())
	v := n.Value(obs)
	swapped := slices.Clone(obs)
	copy(swapped[0:31], obs[5*31:6*31])
	copy(swapped[5*31:6*31], obs[0:31])
	if w := n.Value(swapped); w != v {
		t.Fatalf("columns 1 and 6 swapped: %v, not %v", w, v)
	}
	m.meta.StacksSorted = false
	n, _ = m.NewNet(spec)
	if n.Value(obs) == n.Value(swapped) {
		t.Fatal("unsorted stacks: swapping two columns changed nothing (the test position is too symmetric)")
	}
	if allocs := testing.AllocsPerRun(20, func() { n.Value(obs) }); allocs != 0 {
		t.Fatalf("a forward pass with stacks allocates %v times", allocs)
	}
}

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
	if got := n.Score(e.Observation()); got != out {
		t.Fatalf("identity link: score %v, output %v", got, out)
	}
	m.meta.ValueLink = ModelLinkLogSigmoid
	want := math.Log(1 / (1 + math.Exp(-out)))
	if got := n.Score(e.Observation()); math.Abs(got-want) > 1e-12 {
		t.Fatalf("logsigmoid: score %v, want %v", got, want)
	}
	for _, b := range []float32{-1e4, 1e4} {
		m.dense[len(m.dense)-1].b[0] = b
		if s := n.Score(e.Observation()); math.IsInf(s, 0) || math.IsNaN(s) || s > 0 {
			t.Fatalf("output near %g: score %v", b, s)
		}
	}
	// value_floor f: min(0, log σ(output) − log f): 0 for a chance of f or
	// more, the log of the chance over f below it.
	m.meta.ValueFloor = 0.5
	for _, c := range []struct{ b, want float64 }{{3, 0}, {0, 0}, {-2, math.Log(1/(1+math.Exp(2))) - math.Log(0.5)}} {
		m.dense[len(m.dense)-1].b[0] = 0
		out := float64(n.Value(e.Observation()))
		m.dense[len(m.dense)-1].b[0] = float32(c.b - out)
		if got := n.Score(e.Observation()); math.Abs(got-c.want) > 1e-5 {
			t.Fatalf("floor 0.5, output %v: score %v, want %v", c.b, got, c.want)
		}
	}
}

// TestBadStacksAndLinkMetadata: a malformed stacks or value_link key, and
// stacks that leave the game's card cells, are errors that say what is
// wrong.
func TestBadStacksAndLinkMetadata(t *testing.T) {
	spec := mustSpec(t, "fifteen")
	for _, tc := range []struct {
		set  func(md map[string]string)
		want string
	}{
		{func(md map[string]string) { md[ModelStacksKey] = "0:15" }, "want OFFSET:COUNT:HEIGHT"},
		{func(md map[string]string) { md[ModelStacksKey] = "0:0:31" }, "want OFFSET:COUNT:HEIGHT"},
		{func(md map[string]string) { md[ModelStacksKey] = "0:15:31"; md[ModelStacksSortedKey] = "yes" }, "stacks_sorted is \"yes\""},
		{func(md map[string]string) { md[ModelStacksSortedKey] = "1" }, "has stacks_sorted but no stacks"},
		{func(md map[string]string) { md[ModelValueLinkKey] = "tanh" }, "value_link is \"tanh\""},
		{func(md map[string]string) { delete(md, "head"); md[ModelValueLinkKey] = "logsigmoid" }, "only a value network has a link"},
		{func(md map[string]string) { md[ModelValueLinkKey] = "logsigmoid"; md[ModelValueFloorKey] = "1" }, "want a probability above 0 and below 1"},
		{func(md map[string]string) { md[ModelValueLinkKey] = "logsigmoid"; md[ModelValueFloorKey] = "x" }, "value_floor is \"x\""},
		{func(md map[string]string) { md[ModelValueFloorKey] = "0.5" }, "value_floor but no value_link=logsigmoid"},
	} {
		m := randomValueModel(t, spec, []int{4}, 1)
		md := m.meta.metadata()
		tc.set(md)
		if _, err := parseModelMeta(md); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want one that says %q", md, err, tc.want)
		}
	}
	m := randomValueModel(t, spec, []int{4}, 1)
	m.meta.Stacks = []StackGroup{{Offset: 460, Count: 2, Height: 4}} // runs into the foundations' cells and past the card cells
	if _, err := m.NewNet(spec); err == nil || !strings.Contains(err.Error(), "do not lie within one of fifteen's card segments") {
		t.Errorf("stacks past the card cells: %v", err)
	}
	m.meta.Stacks = []StackGroup{{Offset: 0, Count: 15, Height: 31}}
	if _, err := DecodeModel(encode(t, m), "s.safetensors"); err != nil {
		t.Errorf("a file with the game's columns as stacks: %v", err)
	}
}
