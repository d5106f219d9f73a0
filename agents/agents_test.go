package agents

import (
	"slices"
	"strings"
	"testing"

	"github.com/patience-gym/patience/env"
	_ "github.com/patience-gym/patience/env/all"
	"github.com/patience-gym/patience/env/cards"
)

// small budgets keep the search agents quick in tests.
var small = Options{Rollouts: 2, RolloutSteps: 20, Width: 3, Iterations: 12, Nodes: 2000}

// testSteps caps episodes in tests so that looping games stay quick.
const testSteps = 120

func newAgent(t *testing.T, name string) Agent {
	t.Helper()
	a, err := New(name, small)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestAgentsPlayOnlyLegalActions plays every agent on every game and checks
// each chosen action against the mask before stepping.
func TestAgentsPlayOnlyLegalActions(t *testing.T) {
	deals := 6
	if testing.Short() {
		deals = 2
	}
	for _, game := range env.Names() {
		for _, name := range Names() {
			t.Run(game+"/"+name, func(t *testing.T) {
				e, err := env.Make(game, env.Options{MaxSteps: testSteps})
				if err != nil {
					t.Fatal(err)
				}
				a := newAgent(t, name)
				for seed := uint64(0); seed < uint64(deals); seed++ {
					_, err := Play(e, a, seed, seed, func(e *env.Env, act int) bool {
						if !e.Mask().Has(act) {
							t.Fatalf("deal %d step %d: %s chose illegal action %d", seed, e.Steps(), name, act)
						}
						return true
					})
					if err != nil {
						t.Fatal(err)
					}
				}
			})
		}
	}
}

// TestAgentsAreReproducible: the same deal and agent seed give the same game.
func TestAgentsAreReproducible(t *testing.T) {
	for _, game := range []string{"cromwell", "limited", "royalparade"} {
		for _, name := range Names() {
			e, _ := env.Make(game, env.Options{MaxSteps: testSteps})
			r1, err1 := Play(e, newAgent(t, name), 11, 5, nil)
			r2, err2 := Play(e, newAgent(t, name), 11, 5, nil)
			a := newAgent(t, name)
			Play(e, a, 12, 6, nil) // a used agent, reset, plays the same
			r3, err3 := Play(e, a, 11, 5, nil)
			if err1 != nil || err2 != nil || err3 != nil {
				t.Fatal(err1, err2, err3)
			}
			if !slices.Equal(r1.Actions, r2.Actions) || !slices.Equal(r1.Actions, r3.Actions) {
				t.Errorf("%s on %s: same seeds, different games", name, game)
			}
		}
	}
}

// TestAgentsDoNotPeek: reshuffling the hidden cards before Act leaves every
// agent's decision unchanged (with the agent's own seed fixed), so no agent
// reads hidden cards.
func TestAgentsDoNotPeek(t *testing.T) {
	for _, game := range env.Names() {
		spec, _ := env.Lookup(game)
		if !spec.Hidden {
			continue
		}
		for _, name := range Names() {
			if IsClairvoyant(newAgent(t, name)) {
				continue // it reads the hidden cards by design
			}
			t.Run(game+"/"+name, func(t *testing.T) {
				e, _ := env.Make(game, env.Options{MaxSteps: testSteps})
				driver := newAgent(t, "random")
				for seed := uint64(0); seed < 3; seed++ {
					e.Reset(seed)
					driver.Reset(seed)
					rng := cards.NewRand(seed)
					for step := 0; !e.Done() && step < 40; step++ {
						if step%4 == 0 {
							// Decide from the real position and from a
							// reshuffled copy with identically seeded agents.
							real, shuffled := newAgent(t, name), newAgent(t, name)
							real.Reset(seed*1000 + uint64(step))
							shuffled.Reset(seed*1000 + uint64(step))
							other := e.Clone()
							other.Determinize(rng)
							a1, a2 := real.Act(NewView(e)), shuffled.Act(NewView(other))
							if a1 != a2 {
								t.Fatalf("deal %d step %d: %s chose %s, but %s after the hidden cards were reshuffled",
									seed, step, name, e.ActionString(a1), e.ActionString(a2))
							}
						}
						if _, _, _, err := e.Advance(driver.Act(NewView(e))); err != nil {
							t.Fatal(err)
						}
					}
				}
			})
		}
	}
}

func TestNewRejectsBadOptions(t *testing.T) {
	if _, err := New("wizard", Options{}); err == nil || !strings.Contains(err.Error(), "random") {
		t.Errorf("unknown agent: %v", err)
	}
	if _, err := New("mc", Options{Policy: "clever"}); err == nil {
		t.Error("unknown policy accepted")
	}
	if _, err := New("mc", Options{Rollouts: -1}); err == nil {
		t.Error("negative budget accepted")
	}
	for _, n := range []string{"random", "heuristic", "mc", "uct", "solver"} {
		a, err := New(n, Options{})
		if err != nil || a.Name() != n {
			t.Errorf("New(%q) = %v, %v", n, a, err)
		}
	}
}

func TestHashSet(t *testing.T) {
	var s hashSet
	for i := uint64(0); i < 1000; i++ {
		s.add(i * 0x9E3779B97F4A7C15)
	}
	for i := uint64(0); i < 1000; i++ {
		if !s.has(i * 0x9E3779B97F4A7C15) {
			t.Fatalf("lost %d", i)
		}
	}
	if s.has(12345) {
		t.Error("has a hash never added")
	}
	s.clear()
	if s.has(0) || s.n != 0 {
		t.Error("clear left hashes")
	}
}
