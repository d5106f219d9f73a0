package agents

import (
	"slices"
	"strings"
	"testing"

	"github.com/patience-gym/patience/env"
	_ "github.com/patience-gym/patience/env/all"
	"github.com/patience-gym/patience/env/cards"
	_ "github.com/patience-gym/patience/solver/all" // the search knowledge the solver uses
)

// small budgets keep the search agents quick in tests.
var small = map[string]string{"mc": ":rollouts=2,rollout-steps=20,width=3", "uct": ":iterations=12", "solver": ":nodes=2000", "hop": ":worlds=3,nodes=300,width=3", "ismcts": ":iterations=12,nodes=300"}

// testSteps caps episodes in tests so that looping games stay quick.
const testSteps = 120

func newAgent(t *testing.T, name string) Agent {
	t.Helper()
	a, err := New(name + small[name])
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// playLegal plays deal seed with a, seeded with agentSeed, as Play does,
// failing t on an error or on an action outside the mask; agent names the
// agent in the failure.
func playLegal(t *testing.T, e *env.Env, a Agent, seed, agentSeed uint64, agent string) Result {
	t.Helper()
	r, err := Play(e, a, seed, agentSeed, func(e *env.Env, act int) bool {
		if !e.Mask().Has(act) {
			t.Fatalf("deal %d step %d: %s chose illegal action %d", seed, e.Steps(), agent, act)
		}
		return true
	})
	if err != nil {
		t.Fatalf("deal %d: %s: %v", seed, agent, err)
	}
	return r
}

// noActAllocs fails t unless a, after one move in e's position (which may
// size its buffers), moves there runs times more without allocating; what
// says which agent in the failure.
func noActAllocs(t *testing.T, a Agent, e *env.Env, runs int, what string) {
	t.Helper()
	v := NewView(e)
	a.Act(v)
	if allocs := testing.AllocsPerRun(runs, func() { a.Act(v) }); allocs != 0 {
		t.Errorf("%s: %v allocations per move", what, allocs)
	}
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
				n := deals
				if spec, _ := env.Lookup(game); (name == "hop" || name == "ismcts") && !spec.Hidden {
					n = 1 // hop and ismcts are for hidden cards; in an open game each leaf is a full solver search (Cromwell's opening pass ignores the node budget)
				}
				for seed := uint64(0); seed < uint64(n); seed++ {
					playLegal(t, e, a, seed, seed, name)
				}
			})
		}
	}
}

// TestAgentsAreReproducible: the same deal and agent seed give the same game.
func TestAgentsAreReproducible(t *testing.T) {
	for _, game := range []string{"cromwell", "limited", "royalparade"} {
		for _, name := range Names() {
			if game == "cromwell" && (name == "hop" || name == "ismcts") {
				continue // their reproducibility is tested in the hidden games (TestFairAgentsAreReproducible); in an open game each leaf is a full search
			}
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
							if remembers[name] {
								// It may know the cards the player saw:
								// reshuffle only those never seen.
								sampleWorld(NewView(e), other, rng)
							} else {
								other.Determinize(rng)
							}
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

func TestNewRejectsBadSettings(t *testing.T) {
	for _, tc := range []struct{ agent, want string }{
		{"wizard", "the agents are: heuristic, hop, ismcts, mc, policy, random, solver, uct"},
		{"mc:policy=clever", "unknown rollout policy"},
		{"mc:rollouts=-1", "must be positive"},
		{"mc:rollouts=many", "rollouts=many: want a whole number"},
		{"mc:iterations=5", `unknown setting "iterations"; mc's settings are: rollouts, rollout-steps, width, policy, margin`},
		{"random:width=3", "random takes no settings"},
		{"mc:width", "want key=value"},
		{"mc:width=3,width=4", "given twice"},
		{"heuristic:explore=2", "explore=2: want a chance from 0 to 1"},
		{"heuristic:through=2", "through=2: want none, begun or all"},
		{"uct:repeats=never", "repeats=never: want avoid or allow"},
	} {
		if _, err := New(tc.agent); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%q) = %v, want an error saying %q", tc.agent, err, tc.want)
		}
	}
	for _, n := range []string{"random", "heuristic", "mc", "uct", "MC", " uct "} {
		a, err := New(n)
		if err != nil || a.Name() != strings.ToLower(strings.TrimSpace(n)) {
			t.Errorf("New(%q) = %v, %v", n, a, err)
		}
	}
}

// TestSettingsRoundTrip checks that what an agent's Settings prints (and
// datasets record) reads back into the same agent.
func TestSettingsRoundTrip(t *testing.T) {
	for _, s := range []string{"mc", "mc:rollouts=8,width=4,policy=random,margin=0.5", "uct:iterations=50 exploration=0.7", "uct:iterations=50,repeats=avoid", "heuristic:explore=0.1", "heuristic:through=begun", "heuristic:explore=0.2,through=all"} {
		a, err := New(s)
		if err != nil {
			t.Fatal(err)
		}
		b, err := New(a.Name() + ":" + a.Settings())
		if err != nil {
			t.Fatalf("%s: %s does not read back: %v", s, a.Settings(), err)
		}
		if a.Settings() != b.Settings() {
			t.Errorf("%s: settings %q read back as %q", s, a.Settings(), b.Settings())
		}
	}
	f, err := Parse("MC: rollouts=8 , width=4")
	if err != nil || f.Label() != "mc:rollouts=8,width=4" || f.Name() != "mc" {
		t.Errorf("Parse label %q name %q, %v", f.Label(), f.Name(), err)
	}
	if a := f.New(); a.Settings() != "rollouts=8 rollout-steps=40 width=4 policy=heuristic margin=1" {
		t.Errorf("settings %q", a.Settings())
	}
}

// TestHeuristicExplore: explore=0 is the plain heuristic (same games, no
// settings recorded); with explore above 0 the agent stays legal and
// reproducible, and its random moves change the games.
func TestHeuristicExplore(t *testing.T) {
	e, _ := env.Make("limited", env.Options{MaxSteps: testSteps})
	play := func(agent string, seed uint64) []int {
		a, err := New(agent)
		if err != nil {
			t.Fatal(err)
		}
		return playLegal(t, e, a, seed, seed, agent).Actions
	}
	if a, _ := New("heuristic:explore=0"); a.Settings() != "" {
		t.Errorf("explore=0 records settings %q", a.Settings())
	}
	differ := 0
	for seed := range uint64(4) {
		if !slices.Equal(play("heuristic", seed), play("heuristic:explore=0", seed)) {
			t.Errorf("deal %d: explore=0 is not the plain heuristic", seed)
		}
		x := play("heuristic:explore=0.3", seed)
		if !slices.Equal(x, play("heuristic:explore=0.3", seed)) {
			t.Errorf("deal %d: explore=0.3 is not reproducible", seed)
		}
		if !slices.Equal(x, play("heuristic", seed)) {
			differ++
		}
	}
	if differ == 0 {
		t.Error("explore=0.3 played the plain heuristic's games on every deal")
	}
}

func TestRegisterRefusesDuplicatesAndBadNames(t *testing.T) {
	for _, name := range []string{"mc", "Bad Name", ""} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Register(%q) did not panic", name)
				}
			}()
			Register(name, "", func(*Settings) (func() Agent, error) { return func() Agent { return &Random{} }, nil })
		}()
	}
	f, err := Parse("uct")
	if err != nil {
		t.Fatal(err)
	}
	if settings := f.Help(); f.Doc() == "" || len(settings) != 7 || settings[0].Key != "iterations" || settings[0].Default != "200" {
		t.Errorf("uct: doc %q, settings %+v", f.Doc(), settings)
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

// TestUCTAvoidsRepeats: by default (repeats=avoid), uct never plays a move back to
// a position it has acted in this episode while another move leads
// elsewhere, in games where moves can be undone (without it, it does).
func TestUCTAvoidsRepeats(t *testing.T) {
	repeated := func(agent, game string) (moves, back int) {
		a := newAgent(t, agent)
		e, err := env.Make(game, env.Options{MaxSteps: 150})
		if err != nil {
			t.Fatal(err)
		}
		child := e.Clone()
		for seed := range uint64(4) {
			seen := map[uint64]bool{}
			e.Reset(900_000 + seed)
			a.Reset(seed)
			for !e.Done() {
				seen[visibleHash(e)] = true
				act := a.Act(NewView(e))
				leadsBack := func(x int) bool {
					child.CopyFrom(e)
					child.Advance(x)
					return seen[visibleHash(child)]
				}
				if leadsBack(act) {
					m := e.Mask()
					for x := m.Next(0); x >= 0; x = m.Next(x + 1) {
						if !leadsBack(x) {
							back++
							break
						}
					}
				}
				moves++
				if _, _, _, err := e.Advance(act); err != nil {
					t.Fatal(err)
				}
			}
		}
		return moves, back
	}
	for _, game := range []string{"cromwell", "royalparade"} {
		if moves, back := repeated("uct:iterations=12", game); back != 0 {
			t.Errorf("%s: %d of %d moves led back with another move at hand", game, back, moves)
		}
	}
	if moves, back := repeated("uct:iterations=12,repeats=allow", "cromwell"); back == 0 {
		t.Errorf("uct with repeats allowed never led back in %d moves: the test sees nothing", moves)
	}
}
