package agents

import (
	"slices"
	"testing"

	"github.com/patience-gym/patience/env"
)

// TestMCWithValueFile: with a value file and one candidate (width=1) mc
// plays a move the policy agent with the same file scores best, step by
// step along a Cromwell game (a policy agent that sees the same positions
// keeps the same repeat costs; in an open game the scores do not depend on
// the determinization); with rollouts by the file (policy=model) it plays
// legal moves and the same game twice from one seed, in Cromwell and in
// Royal Parade.
func TestMCWithValueFile(t *testing.T) {
	for _, game := range []string{"cromwell", "royalparade"} {
		spec := mustSpec(t, game)
		m := randomValueModel(t, spec, nil, 11)
		m.meta.EvalWeight = float64(spec.Cards)
		if len(spec.Terms) > 0 {
			m.meta.EvalTerms = map[string]float64{spec.Terms[len(spec.Terms)-1].Name: 0.5}
		}
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
