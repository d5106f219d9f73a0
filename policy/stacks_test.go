package policy

import (
	"slices"
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
