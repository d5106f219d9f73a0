package agents

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/policy"
)

func resetBoth(t *testing.T, e *env.Env, a Agent, spec *env.Spec, seed uint64) {
	t.Helper()
	e.Reset(seed)
	a.Reset(seed)
	if err := Prepare(a, spec); err != nil {
		t.Fatal(err)
	}
}

func repeatingAgent(t *testing.T, spec *env.Spec, path string) (Agent, *policy.Net) {
	t.Helper()
	a, err := New("policy:repeats=allow,model=" + path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := policy.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	n, err := m.NewNet(spec)
	if err != nil {
		t.Fatal(err)
	}
	return a, n
}

func TestValuePolicyPlaysBestChild(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ game, link string }{ // open games: the agent's copy is the position itself
		{"fifteen", ""}, {"cromwell", ""}, {"fifteen", policy.LinkLogSigmoid}, {"cromwell", policy.LinkLogSigmoid},
	} {
		game, link := c.game, c.link
		spec := mustSpec(t, game)
		m := randomValueModel(t, spec, []int{16}, 9, func(mm *policy.Meta) { mm.ValueLink = link })
		path := saveModel(t, dir, game+link+".safetensors", m)
		a, n := repeatingAgent(t, spec, path)
		e, _ := env.Make(game, env.Options{MaxSteps: 120})
		for seed := range uint64(3) {
			resetBoth(t, e, a, spec, seed)
			for !e.Done() {
				want, best := -1, math.Inf(-1)
				mask := e.Mask()
				var worth func(c *env.Env, open bool) float64
				worth = func(c *env.Env, open bool) float64 {
					if open && midway(c.Game()) {
						best := math.Inf(-1)
						m := c.Mask()
						for b := m.Next(0); b >= 0; b = m.Next(b + 1) {
							d := c.Clone()
							d.Advance(b)
							best = max(best, worth(d, true))
						}
						return best
					}
					s := c.ProgressFraction()
					switch {
					case c.Outcome() == env.Won:
						s += winBonus
					case c.Outcome() == env.Running && link == "":
						s = float64(n.Value(c.Observation()))
					case c.Outcome() == env.Running:
						v := float64(n.Value(c.Observation()))
						s = -math.Log1p(math.Exp(-v)) // log σ(v)
					case link != "":
						s -= deadPenalty
					}
					return s
				}
				for b := mask.Next(0); b >= 0; b = mask.Next(b + 1) {
					c := e.Clone()
					c.Advance(b)
					s := worth(c, midway(e.Game()))
					if s > best {
						want, best = b, s
					}
				}
				got := a.Act(NewView(e))
				if mask.Count() > 1 && got != want {
					t.Fatalf("%s %q deal %d step %d: played %s, the best child is %s", game, link, seed, e.Steps(), e.ActionString(got), e.ActionString(want))
				}
				if _, _, _, err := e.Advance(got); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

func TestValuePolicyLegalReproducibleAndLean(t *testing.T) {
	dir := t.TempDir()
	for _, game := range env.Names() {
		spec := mustSpec(t, game)
		path := saveModel(t, dir, game+".safetensors", randomValueModel(t, spec, []int{8}, 2, nil))
		e, _ := env.Make(game, env.Options{MaxSteps: 150})
		for _, sample := range []string{"0", "1"} {
			agent := "policy:sample=" + sample + ",temperature=0.05,model=" + path
			play := func() []int {
				a, err := New(agent)
				if err != nil {
					t.Fatal(err)
				}
				return playLegal(t, e, a, 4, 7, agent).Actions
			}
			if first := play(); !slices.Equal(first, play()) {
				t.Errorf("%s %s: the same seed played two games", game, agent)
			}
			a, _ := New(agent)
			e.Reset(1)
			if err := Prepare(a, spec); err != nil {
				t.Fatal(err)
			}
			a.Reset(1)
			noActAllocs(t, a, e, 50, game+" "+agent)
		}
	}
}

func TestSearchRefusesValueModel(t *testing.T) {
	spec := mustSpec(t, "fifteen")
	path := saveModel(t, t.TempDir(), "v.safetensors", randomValueModel(t, spec, nil, 1, nil))
	a, err := New("uct:model=" + path)
	if err != nil {
		t.Fatal(err)
	}
	if err := Prepare(a, spec); err == nil || !strings.Contains(err.Error(), "is a value network (head=value): uct takes a policy network") {
		t.Errorf("uct: %v", err)
	}
	mc, err := New("mc:model=" + path)
	if err != nil {
		t.Fatal(err)
	}
	if err := Prepare(mc, spec); err != nil {
		t.Errorf("mc refuses a value file: %v", err)
	}
}

// evalWeightScore is what a value file with eval_weight w scores the
// position c by: the network's value plus the weighted heuristic score.
func evalWeightScore(n *policy.Net, w float64, c *env.Env) float64 {
	return float64(n.Value(c.Observation())) + w*score(c)/float64(c.Spec().Cards)
}

func TestEvalWeightPolicyPlaysBestScore(t *testing.T) {
	dir := t.TempDir()
	for _, game := range []string{"fifteen", "cromwell"} { // open games: the agent's copy is the position itself
		spec := mustSpec(t, game)
		random := randomValueModel(t, spec, []int{16}, 5, func(m *policy.Meta) { m.EvalWeight = 3 * float64(spec.Cards) })
		flat := flatValueModel(t, spec, []int{16}, 6, func(m *policy.Meta) { m.EvalWeight = 1 })
		tiebreak := randomValueModel(t, spec, []int{16}, 7, func(m *policy.Meta) { m.EvalWeight = 1e9 })
		for _, c := range []struct {
			name string
			m    *policy.Model
		}{{"random", random}, {"flat", flat}, {"tiebreak", tiebreak}} {
			a, n := repeatingAgent(t, spec, saveModel(t, dir, game+c.name+".safetensors", c.m))
			m := n.Model()
			e, _ := env.Make(game, env.Options{MaxSteps: 120})
			ties, notLowest := 0, 0
			for seed := range uint64(3) {
				resetBoth(t, e, a, spec, seed)
				for !e.Done() {
					mask := e.Mask()
					best, lowest, nBest := math.Inf(-1), -1, 0
					scores, net := map[int]float64{}, map[int]float64{}
					for b := mask.Next(0); b >= 0; b = mask.Next(b + 1) {
						ch := e.Clone()
						ch.Advance(b)
						s := evalWeightScore(n, m.Meta().EvalWeight, ch)
						if c.name != "random" {
							s = score(ch) // the heuristic's own score
						}
						net[b] = float64(n.Value(ch.Observation()))
						scores[b] = s
						switch {
						case s > best:
							best, lowest, nBest = s, b, 1
						case s == best:
							nBest++
						}
					}
					got := a.Act(NewView(e))
					if mask.Count() > 1 {
						if math.Abs(scores[got]-best) > 1e-9*math.Max(1, math.Abs(best)) {
							t.Fatalf("%s %s deal %d step %d: played %s (score %v), the best score is %v", game, c.name, seed, e.Steps(), e.ActionString(got), scores[got], best)
						}
						if c.name == "tiebreak" {
							// A weight this large leaves the network only the
							// evaluation's ties to decide: its best among them.
							for b, sb := range scores {
								if sb == best && net[b] > net[got]+1e-6 {
									t.Fatalf("%s tiebreak deal %d step %d: played %s, the network prefers %s among the best", game, seed, e.Steps(), e.ActionString(got), e.ActionString(b))
								}
							}
						}
						if nBest > 1 {
							ties++
							if got != lowest {
								notLowest++
							}
						}
					}
					if _, _, _, err := e.Advance(got); err != nil {
						t.Fatal(err)
					}
				}
			}
			if c.name == "flat" && (ties == 0 || notLowest == 0) {
				t.Fatalf("%s: %d tied choices, %d not at the lowest id: ties are not broken at random", game, ties, notLowest)
			}
		}
	}
}

func TestEvalWeightAvoidsRepeats(t *testing.T) {
	dir := t.TempDir()
	spec := mustSpec(t, "cromwell") // moves can be undone
	for _, w := range []float64{1, 1e9} {
		// The heuristic's own ranking, scaled by w.
		m := flatValueModel(t, spec, []int{16}, 11, func(m *policy.Meta) { m.EvalWeight = w })
		path := saveModel(t, dir, "c.safetensors", m)
		a, err := New("policy:model=" + path)
		if err != nil {
			t.Fatal(err)
		}
		e, _ := env.Make("cromwell", env.Options{MaxSteps: 300})
		for seed := range uint64(6) {
			resetBoth(t, e, a, spec, seed)
			seen := map[uint64]bool{e.Hash(): true}
			for !e.Done() {
				fresh := false
				mask := e.Mask()
				for b := mask.Next(0); b >= 0; b = mask.Next(b + 1) {
					c := e.Clone()
					c.Advance(b)
					fresh = fresh || !seen[c.Hash()]
				}
				got := a.Act(NewView(e))
				if _, _, _, err := e.Advance(got); err != nil {
					t.Fatal(err)
				}
				if fresh && seen[e.Hash()] {
					t.Fatalf("weight %g, deal %d step %d: went back to a seen position while a new one was a move away", w, seed, e.Steps())
				}
				seen[e.Hash()] = true
			}
		}
	}
}

func TestCommittedModels(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "models", "*.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range files {
		game := strings.TrimSuffix(filepath.Base(path), ".safetensors")
		st, err := os.Stat(path)
		if err != nil || st.Size() > 2<<20 {
			t.Fatalf("%s: %v, %d bytes (at most 2 MB)", path, err, st.Size())
		}
		m, err := policy.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		if m.Meta().Game != game || m.Meta().Command == "" {
			t.Fatalf("%s: made for %q by %q", path, m.Meta().Game, m.Meta().Command)
		}
		a, err := New("policy:model=" + path)
		if err != nil {
			t.Fatal(err)
		}
		e, _ := env.Make(game, env.Options{MaxSteps: 60})
		playLegal(t, e, a, 1000000, 1, path)
	}
}
