package agents

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/policy"
)

// TestMCWithValueFile: with a value file and one candidate (width=1) mc
// plays a move the policy agent with the same file scores best, step by
// step along Cromwell and Fifteen games (a policy agent that sees the same
// positions keeps the same repeat costs, forced ones included; in an open
// game the scores do not depend on the determinization); with rollouts by
// the file (policy=model) it plays legal moves and the same game twice
// from one seed, in those games and in Royal Parade.
func TestMCWithValueFile(t *testing.T) {
	for _, game := range []string{"cromwell", "fifteen", "royalparade"} {
		spec := mustSpec(t, game)
		m := randomValueModel(t, spec, nil, 11, func(m *policy.Meta) {
			m.EvalWeight = float64(spec.Cards)
			if len(spec.Terms) > 0 {
				m.EvalTerms = map[string]float64{spec.Terms[len(spec.Terms)-1].Name: 0.5}
			}
		})
		path := saveModel(t, t.TempDir(), game+".safetensors", m)
		mc, err := New("mc:width=1,rollouts=2,model=" + path)
		if err != nil {
			t.Fatal(err)
		}
		ref, err := New("policy:model=" + path)
		if err != nil {
			t.Fatal(err)
		}
		p := ref.(*Policy)
		e, _ := env.Make(game, env.Options{MaxSteps: 80})
		for seed := range uint64(3) {
			if spec.Hidden {
				break
			}
			resetBoth(t, e, mc, spec, seed)
			resetBoth(t, e, ref, spec, seed)
			for !e.Done() {
				v := NewView(e)
				got := mc.Act(v)
				choice := p.Act(v) // scores every legal move, and remembers the position
				if e.Mask().Count() > 1 {
					if best := p.scores[choice]; p.scores[got] != best {
						t.Fatalf("%s deal %d step %d: mc played %s (scored %v by the file), the best score is %v", game, seed, e.Steps(), e.ActionString(got), p.scores[got], best)
					}
				}
				if _, _, _, err := e.Advance(got); err != nil {
					t.Fatal(err)
				}
			}
		}
		rolls, err := New("mc:width=2,rollouts=2,rollout-steps=10,policy=model,model=" + path)
		if err != nil {
			t.Fatal(err)
		}
		play := func() []int {
			var acts []int
			resetBoth(t, e, rolls, spec, 5)
			for !e.Done() && len(acts) < 30 {
				a := rolls.Act(NewView(e))
				if !e.Mask().Has(a) {
					t.Fatalf("%s: mc with rollouts by the file played illegal %d", game, a)
				}
				acts = append(acts, a)
				e.Advance(a)
			}
			return acts
		}
		if first := play(); !slices.Equal(first, play()) {
			t.Errorf("%s: mc with a value file played two games from one seed", game)
		}
	}
}

// TestMCLeafModel: leaf=model scores a rollout's last position as the
// policy agent scores a running position it could move to (the same file,
// repeats allowed), and needs a value file: without a model, or with a
// policy network, mc refuses to prepare; a leaf setting other than eval or
// model is refused.
func TestMCLeafModel(t *testing.T) {
	spec := mustSpec(t, "cromwell")
	m := randomValueModel(t, spec, []int{4}, 12, func(m *policy.Meta) {
		m.EvalWeight = float64(spec.Cards)
		m.EvalTerms = map[string]float64{"builds": 0.25, "next_buried": -0.5}
	})
	dir := t.TempDir()
	path := saveModel(t, dir, "v.safetensors", m)
	a, err := New("policy:repeats=allow,model=" + path)
	if err != nil {
		t.Fatal(err)
	}
	p := a.(*Policy)
	e, _ := env.Make("cromwell", env.Options{})
	resetBoth(t, e, a, spec, 3)
	p.Act(NewView(e)) // loads the net and the term weights
	sc := p.scorerFor(p.model.net)
	for step := 0; step < 60 && !e.Done(); step++ {
		if got, want := p.leafScore(e), p.valueScore(NewView(e), sc, e); math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
			t.Fatalf("step %d: leaf score %v, the policy agent's score %v", step, got, want)
		}
		e.Advance(e.Mask().Next(0))
	}
	for _, c := range []struct{ agent, want string }{
		{"mc:leaf=model", "leaf=model needs a value file"},
		{"mc:leaf=model,model=" + saveModel(t, dir, "p.safetensors", randomModel(t, spec, []int{4}, 1)), "leaf=model needs a value file"},
	} {
		mc, err := New(c.agent)
		if err != nil {
			t.Fatal(err)
		}
		if err := Prepare(mc, spec); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.agent, err, c.want)
		}
	}
	if _, err := New("mc:leaf=rollout"); err == nil || !strings.Contains(err.Error(), "leaf=rollout: want eval or model") {
		t.Errorf("mc:leaf=rollout: %v", err)
	}
	if _, err := New("mc:leaf=model,model=" + path); err != nil {
		t.Error(err)
	}
}

// TestMCValueFileRemembersForcedPositions: with a value file, the file's
// agent inside mc remembers every position of the episode, those with a
// single legal move too, as the policy agent does; a cycle through a forced
// position would otherwise cost nothing, and mc went round one until the
// step limit in a third of The Fifteen's games.
func TestMCValueFileRemembersForcedPositions(t *testing.T) {
	spec := mustSpec(t, "fifteen")
	m := randomValueModel(t, spec, nil, 13, func(m *policy.Meta) { m.EvalWeight = float64(spec.Cards) })
	path := saveModel(t, t.TempDir(), "f.safetensors", m)
	a, err := New("mc:width=1,rollouts=1,rollout-steps=5,model=" + path)
	if err != nil {
		t.Fatal(err)
	}
	mc := a.(*MC)
	e, _ := env.Make("fifteen", env.Options{MaxSteps: 300})
	forced := 0
	for seed := range uint64(20) {
		resetBoth(t, e, a, spec, seed)
		var keys []uint64
		for !e.Done() {
			v := NewView(e)
			keys = append(keys, v.key())
			if e.Mask().Count() == 1 {
				forced++
			}
			e.Advance(a.Act(v))
		}
		for i, k := range keys {
			if mc.val.seen.visits(k) == 0 {
				t.Fatalf("deal %d: the position before move %d is not remembered", seed, i)
			}
		}
	}
	if forced == 0 {
		t.Fatal("no forced position met: the test proves nothing")
	}
}

// TestMCActAllocatesNothing: once its buffers are made, a move of mc (the
// heuristic's candidates and rollouts, in a game with hidden cards and in
// the two open ones) allocates nothing.
func TestMCActAllocatesNothing(t *testing.T) {
	for _, game := range []string{"limited", "cromwell", "fifteen"} {
		a, err := New("mc:rollouts=2,rollout-steps=20")
		if err != nil {
			t.Fatal(err)
		}
		e, err := env.Make(game, env.Options{})
		if err != nil {
			t.Fatal(err)
		}
		resetBoth(t, e, a, e.Spec(), 3)
		noActAllocs(t, a, e, 20, game+": mc")
	}
}
