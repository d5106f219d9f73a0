package agents

import (
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/internal/modeltest"
	"github.com/patience-gym/patience/policy"
)

// The models the agents' tests play with: random networks built in memory
// and written to files (package policy tests the files themselves).

// newRandomNetwork draws a policy (head "") or a value network (head
// policy.HeadValue) for spec (modeltest.Weights); flat zeroes every layer
// after the first, so that the output is 0 wherever the position; edit, if
// not nil, sets metadata.
func newRandomNetwork(spec *env.Spec, hidden []int, seed uint64, head string, flat bool, edit func(*policy.Meta)) (*policy.Model, error) {
	out := spec.Actions
	if head == policy.HeadValue {
		out = 1
	}
	ws, bs := modeltest.Weights(spec, hidden, seed, out, flat)
	meta := policy.Meta{Game: spec.Name, RulesVersion: spec.RulesVersion, ObsLen: spec.ObsLen, OneHotLen: spec.OneHotLen(),
		Actions: spec.Actions, Hidden: hidden, Head: head, Command: "randomModel (test)"}
	if edit != nil {
		edit(&meta)
	}
	return policy.NewModel(meta, ws, bs)
}

// newRandomModel returns a random policy network for spec.
func newRandomModel(spec *env.Spec, hidden []int, seed uint64) (*policy.Model, error) {
	return newRandomNetwork(spec, hidden, seed, "", false, nil)
}

// randomModel returns a random policy network for spec.
func randomModel(t testing.TB, spec *env.Spec, hidden []int, seed uint64) *policy.Model {
	t.Helper()
	return mustModel(t)(newRandomModel(spec, hidden, seed))
}

// randomValueModel returns a random value network (head=value) for spec,
// its metadata set by edit (if not nil).
func randomValueModel(t testing.TB, spec *env.Spec, hidden []int, seed uint64, edit func(*policy.Meta)) *policy.Model {
	t.Helper()
	return mustModel(t)(newRandomNetwork(spec, hidden, seed, policy.HeadValue, false, edit))
}

// flatValueModel returns a value network for spec whose output is 0
// everywhere, its metadata set by edit (if not nil): with eval_weight, the
// heuristic's ranking scaled by the weight.
func flatValueModel(t testing.TB, spec *env.Spec, hidden []int, seed uint64, edit func(*policy.Meta)) *policy.Model {
	t.Helper()
	return mustModel(t)(newRandomNetwork(spec, hidden, seed, policy.HeadValue, true, edit))
}

// mustModel returns a function that returns the model it is given, or
// fails t with the error.
func mustModel(t testing.TB) func(*policy.Model, error) *policy.Model {
	return func(m *policy.Model, err error) *policy.Model {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
}

// encode returns m as a file's bytes.
func encode(t testing.TB, m *policy.Model) []byte {
	t.Helper()
	return modeltest.Encode(t, m)
}

// saveModel writes m to a file in dir and returns its path.
func saveModel(t testing.TB, dir, name string, m *policy.Model) string {
	t.Helper()
	return modeltest.Save(t, dir, name, m)
}

// mustSpec returns the named game's Spec.
func mustSpec(t testing.TB, game string) *env.Spec {
	t.Helper()
	return modeltest.Spec(t, game)
}
