package agents

import (
	"bytes"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/patience-gym/patience/env"
)

// modelDir holds a small random model for every game, written by TestMain:
// modelDir/<game>.safetensors.
var modelDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "patience-models-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	modelDir = dir
	for _, game := range env.Names() {
		spec, _ := env.Lookup(game)
		m, err := newRandomModel(spec, []int{8}, 11)
		var b bytes.Buffer
		if err == nil {
			_, err = m.WriteTo(&b)
		}
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, game+".safetensors"), b.Bytes(), 0o644)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	// The search agents' budgets in the generic tests stay small; the
	// policy agent plays every game with its random model.
	small["policy"] = ":model=" + filepath.Join(dir, "{game}.safetensors")
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// gamePath returns the test model of game.
func gamePath(game string) string { return filepath.Join(modelDir, game+".safetensors") }

// TestGuidedSearchPlaysOnlyLegalActions plays mc and uct guided by a model
// (every rollout policy and prior) on every game and checks each move.
func TestGuidedSearchPlaysOnlyLegalActions(t *testing.T) {
	pattern := filepath.Join(modelDir, "{game}.safetensors")
	for _, game := range env.Names() {
		for _, name := range []string{
			"mc:rollouts=2,rollout-steps=15,width=3,model=" + pattern,
			"mc:rollouts=2,rollout-steps=15,width=3,policy=random,prior=inf,model=" + pattern,
			"uct:iterations=10,rollout-steps=15,temperature=0,prior=0,model=" + pattern,
			"policy:sample=1,temperature=0.5,model=" + pattern,
		} {
			t.Run(game+"/"+name[:strings.Index(name, ":")], func(t *testing.T) {
				e, err := env.Make(game, env.Options{MaxSteps: 60})
				if err != nil {
					t.Fatal(err)
				}
				a, err := New(name)
				if err != nil {
					t.Fatal(err)
				}
				for seed := range uint64(2) {
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

// TestPolicyIsReproducible: with sampling on, the same agent seed gives the
// same game and (very likely) another seed another one; argmax play does
// not depend on the seed.
func TestPolicyIsReproducible(t *testing.T) {
	game := "cromwell"
	e, _ := env.Make(game, env.Options{MaxSteps: 200})
	play := func(agent string, agentSeed uint64) []int {
		a, err := New(agent)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Play(e, a, 3, agentSeed, nil)
		if err != nil {
			t.Fatal(err)
		}
		return r.Actions
	}
	sampled := "policy:sample=1,model=" + gamePath(game)
	if !slices.Equal(play(sampled, 5), play(sampled, 5)) {
		t.Error("same seed, different games")
	}
	if slices.Equal(play(sampled, 5), play(sampled, 6)) {
		t.Error("sampling ignores the agent seed")
	}
	argmax := "policy:model=" + gamePath(game)
	if !slices.Equal(play(argmax, 5), play(argmax, 6)) {
		t.Error("argmax play depends on the agent seed")
	}
}

// TestPolicyActAllocatesNothing: a prepared policy agent's move costs no
// allocation.
func TestPolicyActAllocatesNothing(t *testing.T) {
	for _, sample := range []string{"0", "1"} {
		a, err := New("policy:sample=" + sample + ",model=" + gamePath("cromwell"))
		if err != nil {
			t.Fatal(err)
		}
		e, _ := env.Make("cromwell", env.Options{})
		e.Reset(1)
		if err := Prepare(a, e.Spec()); err != nil {
			t.Fatal(err)
		}
		a.Reset(1)
		v := NewView(e)
		if allocs := testing.AllocsPerRun(100, func() { a.Act(v) }); allocs != 0 {
			t.Errorf("sample=%s: %v allocations per move", sample, allocs)
		}
	}
}

// TestPolicyErrors: a missing or wrong model is an error before any move,
// at Parse when the file is named, at Prepare (and Play) when only the game
// tells which file; an unprepared agent that cannot play returns -1.
func TestPolicyErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.safetensors")
	os.WriteFile(bad, []byte("not a model"), 0o644)
	for _, tc := range []struct{ agent, want string }{
		{"policy:model=" + filepath.Join(dir, "none.safetensors"), "model=" + filepath.Join(dir, "none.safetensors") + ": model file"},
		{"policy:model=" + bad, "not a safetensors file"},
		{"policy:sample=2", "sample=2: want 0 or 1"},
		{"policy:temperature=0", "temperature must be a positive number"},
		{"mc:model=" + bad, "agent mc: model=" + bad},
		{"mc:prior=2", "prior needs a model"},
		{"uct:temperature=2", "temperature needs a model"},
		{"mc:policy=model", "rollout policy model needs a model"},
		{"uct:model=" + gamePath("cromwell") + ",prior=-1", "prior must not be negative"},
		{"mc:model=a b", "want key=value"},
	} {
		if _, err := New(tc.agent); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%q) = %v, want an error saying %q", tc.agent, err, tc.want)
		}
	}

	// The model of another game: the error names both games, before any
	// move.
	e, _ := env.Make("limited", env.Options{})
	for _, agent := range []string{"policy", "mc", "uct"} {
		a, err := New(agent + ":model=" + gamePath("cromwell"))
		if err != nil {
			t.Fatal(err)
		}
		moves := 0
		_, err = Play(e, a, 1, 1, func(*env.Env, int) bool { moves++; return true })
		want := agent + " agent cannot play limited: model " + gamePath("cromwell") + " was trained for cromwell, not limited"
		if err == nil || err.Error() != want || moves != 0 {
			t.Errorf("%s: Play = %v after %d moves, want %q", agent, err, moves, want)
		}
		e.Reset(1)
		if got := a.Act(NewView(e)); got != -1 {
			t.Errorf("%s: unprepared Act with the wrong model = %d, want -1", agent, got)
		}
	}

	// The policy agent named without a model cannot play until given one,
	// and the library looks for it where the path says, nothing more: a
	// relative path is taken from the working directory.
	a, err := New("policy")
	if err != nil {
		t.Fatal(err)
	}
	if err := Prepare(a, e.Spec()); err == nil || !strings.Contains(err.Error(), "policy agent cannot play limited: no model file given") {
		t.Errorf("no model: %v", err)
	}
	t.Chdir(t.TempDir())
	f, _ := Parse("policy")
	f, err = f.WithDefaultModel("models/{game}.safetensors")
	if err != nil {
		t.Fatal(err)
	}
	err = Prepare(f.New(), e.Spec())
	if here, _ := os.Getwd(); err == nil || !errors.Is(err, fs.ErrNotExist) ||
		!strings.Contains(err.Error(), "models/limited.safetensors not found (looked for "+filepath.Join(here, "models/limited.safetensors")+")") {
		t.Errorf("default model: %v", err)
	}
}

// TestModelPath: a model path is a path: {game} replaced, made absolute,
// relative ones taken from the working directory (tests run in agents/)
// and never from the repository's root.
func TestModelPath(t *testing.T) {
	got, err := modelPath("testdata/golden_{game}.safetensors", "policy")
	if here, _ := filepath.Abs("testdata/golden_policy.safetensors"); err != nil || got != here {
		t.Errorf("from here: %q, %v", got, err)
	}
	if _, err := modelPath("agents/testdata/golden_policy.safetensors", "x"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a path from the repository root was found from agents/: %v", err)
	}
	if _, err := modelPath("", "x"); err == nil {
		t.Error("empty path accepted")
	}
	if _, err := modelPath(filepath.Join(t.TempDir(), "{game}.st"), "cromwell"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("absolute missing path: %v", err)
	}
}

// TestFactoryReadsItsModelOnce: the agents of one factory share one Model,
// read once (when the string is parsed, or at the first Prepare for a
// {game} path); a file that changed is read by the next Parse.
func TestFactoryReadsItsModelOnce(t *testing.T) {
	spec := mustSpec(t, "limited")
	dir := t.TempDir()
	path := saveModel(t, dir, "limited.safetensors", randomModel(t, spec, []int{4}, 1))
	for _, setting := range []string{path, filepath.Join(dir, "{game}.safetensors")} {
		f, err := Parse("policy:model=" + setting)
		if err != nil {
			t.Fatal(err)
		}
		var models []*Model
		for range 3 {
			a := f.New()
			if err := Prepare(a, spec); err != nil {
				t.Fatal(err)
			}
			models = append(models, a.(*Policy).Model())
		}
		if models[0] != models[1] || models[1] != models[2] {
			t.Errorf("model=%s: three agents of one factory read the file more than once", setting)
		}
	}
	f, _ := Parse("policy:model=" + path)
	first := f.New()
	if err := Prepare(first, spec); err != nil {
		t.Fatal(err)
	}
	other := randomModel(t, spec, []int{5}, 2)
	if err := os.WriteFile(path, encode(t, other), 0o644); err != nil {
		t.Fatal(err)
	}
	a, _ := New("policy:model=" + path)
	if err := Prepare(a, spec); err != nil {
		t.Fatal(err)
	}
	if m := a.(*Policy).Model(); m == first.(*Policy).Model() || m.Meta().Hidden[0] != 5 {
		t.Error("a changed file was not read again by a new Parse")
	}
}

// TestWithModel: giving a factory a model is the setting model=FILE, typed:
// the label and the settings show it, and the same mistakes are refused.
func TestWithModel(t *testing.T) {
	p := gamePath("cromwell")
	for _, tc := range []struct{ agent, label, settings string }{
		{"policy:sample=1", "policy:sample=1,model=" + p, "model=" + p + " sample=1 temperature=1 repeats=avoid"},
		{"mc:rollouts=2", "mc:rollouts=2,model=" + p, "rollouts=2 rollout-steps=40 width=6 policy=model margin=1 model=" + p + " prior=1 temperature=1"},
		{"uct", "uct:model=" + p, "iterations=200 rollout-steps=40 exploration=0.3 repeats=avoid model=" + p + " prior=1 temperature=1"},
	} {
		f, err := Parse(tc.agent)
		if err != nil {
			t.Fatal(err)
		}
		g, err := f.WithModel(p)
		if err != nil {
			t.Fatalf("%s: %v", tc.agent, err)
		}
		if g.Label() != tc.label || g.New().Settings() != tc.settings || f.Label() != tc.agent {
			t.Errorf("%s with a model: label %q, settings %q (the factory given: %q)", tc.agent, g.Label(), g.New().Settings(), f.Label())
		}
		if err := Prepare(g.New(), mustSpec(t, "cromwell")); err != nil {
			t.Errorf("%s: %v", tc.label, err)
		}
	}
	for _, tc := range []struct{ agent, path, want string }{
		{"policy:model=" + p, p, "setting model is given twice"},
		{"random", p, `unknown setting "model": random takes no settings`},
		{"policy", "a,b.safetensors", "a model path cannot hold spaces or commas"},
		{"policy", filepath.Join(t.TempDir(), "none.safetensors"), "model file"},
	} {
		f, err := Parse(tc.agent)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WithModel(tc.path); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s with model %s: %v, want an error saying %q", tc.agent, tc.path, err, tc.want)
		}
	}
	// NeedsModel: the agents that always play with a model and have none;
	// a default model serves them without showing in the label.
	for agent, want := range map[string]bool{"policy": true, "policy:sample=1": true, "policy:model=" + p: false, "mc": false, "random": false} {
		f, _ := Parse(agent)
		if f.NeedsModel() != want {
			t.Errorf("%s: NeedsModel %v, want %v", agent, !want, want)
		}
		g, err := f.WithDefaultModel(filepath.Join(modelDir, "{game}.safetensors"))
		if err != nil || g.NeedsModel() || g.Label() != f.Label() || (want && g.New().Settings() == f.New().Settings()) || (!want && g != f) {
			t.Errorf("%s with a default model: %v, needs one %v, label %q, settings %q", agent, err, g.NeedsModel(), g.Label(), g.New().Settings())
		}
	}
	f, _ := Parse("policy")
	f, _ = f.WithDefaultModel(filepath.Join(modelDir, "{game}.safetensors"))
	if err := Prepare(f.New(), mustSpec(t, "limited")); err != nil {
		t.Errorf("policy with a default model: %v", err)
	}
}

// TestGuidedSettingsRoundTrip: the settings of guided agents read back, and
// unguided agents print what they always printed (uct with its repeats
// setting since it became a setting).
func TestGuidedSettingsRoundTrip(t *testing.T) {
	p := gamePath("cromwell")
	for s, want := range map[string]string{
		"mc":            "rollouts=16 rollout-steps=40 width=6 policy=heuristic margin=1",
		"uct":           "iterations=200 rollout-steps=40 exploration=0.3 repeats=avoid",
		"mc:model=" + p: "rollouts=16 rollout-steps=40 width=6 policy=model margin=1 model=" + p + " prior=1 temperature=1",
		"mc:model=" + p + ",prior=inf,policy=heuristic":   "rollouts=16 rollout-steps=40 width=6 policy=heuristic margin=1 model=" + p + " prior=+Inf temperature=1",
		"uct:model=" + p + ",temperature=0":               "iterations=200 rollout-steps=40 exploration=0.3 repeats=avoid model=" + p + " prior=1 temperature=0",
		"policy":                                          "model= sample=0 temperature=1 repeats=avoid",
		"policy:model=" + p + ",sample=1,temperature=0.5": "model=" + p + " sample=1 temperature=0.5 repeats=avoid",
	} {
		a, err := New(s)
		if err != nil {
			t.Fatal(err)
		}
		if a.Settings() != want {
			t.Errorf("%s: settings %q, want %q", s, a.Settings(), want)
		}
		b, err := New(a.Name() + ":" + a.Settings())
		if err != nil || b.Settings() != a.Settings() {
			t.Errorf("%s: %q reads back as %v, %v", s, a.Settings(), b, err)
		}
	}
}

// TestUnguidedSearchUnchanged pins mc's and uct's games without a model to
// those of the code before models existed (the action sequences of deal 3,
// hashed), so that datasets of unguided agents stay byte for byte the same;
// uct's with repeats=allow, its behaviour before repeats=avoid became its
// default (2026-12-04).
func TestUnguidedSearchUnchanged(t *testing.T) {
	for _, tc := range []struct{ game, agent, want string }{
		{"cromwell", "mc:rollouts=2,rollout-steps=15,width=3", "80:8be810550c3748d1"},
		{"cromwell", "uct:iterations=10,rollout-steps=15,repeats=allow", "80:a8ca15bcd1d1e4bd"},
		{"fifteen", "mc:rollouts=2,rollout-steps=15,width=3", "80:0c02aa637159dc1c"},
		{"fifteen", "uct:iterations=10,rollout-steps=15,repeats=allow", "25:ca9085784932dbf5"},
		{"fourquarters", "mc:rollouts=2,rollout-steps=15,width=3", "12:ec13e5bb21dac1ca"},
		{"fourquarters", "uct:iterations=10,rollout-steps=15,repeats=allow", "20:3dd1293554d84978"},
		{"ladder", "mc:rollouts=2,rollout-steps=15,width=3", "80:0c35f7d9087974b8"},
		{"ladder", "uct:iterations=10,rollout-steps=15,repeats=allow", "80:61b82e3d7b2f7b12"},
		{"limited", "mc:rollouts=2,rollout-steps=15,width=3", "80:2ce4aec37dd7a860"},
		{"limited", "uct:iterations=10,rollout-steps=15,repeats=allow", "80:ba2723bae4a25813"},
		{"royalparade", "mc:rollouts=2,rollout-steps=15,width=3", "80:8f6348e2b41dcb87"},
		{"royalparade", "uct:iterations=10,rollout-steps=15,repeats=allow", "80:01eb7c46ab622035"},
	} {
		e, err := env.Make(tc.game, env.Options{MaxSteps: 80})
		if err != nil {
			t.Fatal(err)
		}
		a, err := New(tc.agent)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Play(e, a, 3, 3, nil)
		if err != nil {
			t.Fatal(err)
		}
		h := fnv.New64a()
		for _, x := range r.Actions {
			fmt.Fprintf(h, "%d,", x)
		}
		if got := fmt.Sprintf("%d:%016x", len(r.Actions), h.Sum64()); got != tc.want {
			t.Errorf("%s on %s deal 3: actions %s, pinned %s: unguided search changed", tc.agent, tc.game, got, tc.want)
		}
	}
}

// TestPolicyAvoidsRepeats: a policy agent's move goes back to a position
// of the episode only when every legal move does.
func TestPolicyAvoidsRepeats(t *testing.T) {
	{
		a, err := New("policy:model=" + gamePath("cromwell"))
		if err != nil {
			t.Fatal(err)
		}
		for seed := uint64(0); seed < 3; seed++ {
			e, _ := env.Make("cromwell", env.Options{MaxSteps: 150})
			e.Reset(seed)
			a.Reset(seed)
			seen := map[uint64]bool{e.Hash(): true}
			for !e.Done() {
				act := a.Act(NewView(e))
				child := e.Clone()
				child.Advance(act)
				if seen[child.Hash()] {
					m := e.Mask()
					for b := m.Next(0); b >= 0; b = m.Next(b + 1) {
						c := e.Clone()
						c.Advance(b)
						if !seen[c.Hash()] {
							t.Fatalf("deal %d step %d: %s goes back, %s does not", seed, e.Steps(), e.ActionString(act), e.ActionString(b))
						}
					}
				}
				if _, _, _, err := e.Advance(act); err != nil {
					t.Fatal(err)
				}
				seen[e.Hash()] = true
			}
		}
	}
}
