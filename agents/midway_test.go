package agents

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cromwell"
	"github.com/patience-gym/patience/policy"
)

// TestHeuristicThroughPicksTheBestSwap: with through=begun, once Cromwell's
// swap is begun the heuristic picks a first card from which the best
// second card makes the best position of all the swaps (checked against
// every pair of picks), as the policy agent does with a value file that
// ranks by the evaluation alone; the plain heuristic and the policy agent
// with through=none, which judge the first pick by the position it makes,
// miss the best swap on some of the deals.
func TestHeuristicThroughPicksTheBestSwap(t *testing.T) {
	e, err := env.Make("cromwell", env.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c1, c2 := e.Clone(), e.Clone()
	// A value file whose network outputs 0, at an eval weight of the card
	// count: the policy agent then ranks as the heuristic's evaluation does.
	spec := mustSpec(t, "cromwell")
	flat := flatValueModel(t, spec, []int{4}, 3, func(m *policy.Meta) { m.EvalWeight = float64(spec.Cards) })
	file := filepath.Join(t.TempDir(), "flat.safetensors")
	if err := os.WriteFile(file, encode(t, flat), 0o644); err != nil {
		t.Fatal(err)
	}
	missed := 0
	for deal := range uint64(12) {
		e.Reset(deal)
		if !e.Mask().Has(cromwell.ActSwapBegin) {
			t.Fatalf("deal %d: the swap cannot be begun at the start", deal)
		}
		if _, _, _, err := e.Advance(cromwell.ActSwapBegin); err != nil {
			t.Fatal(err)
		}
		// best[a]: the best position any second pick makes after first pick a.
		best := map[int]float64{}
		top := math.Inf(-1)
		for a := e.Mask().Next(0); a >= 0; a = e.Mask().Next(a + 1) {
			c1.CopyFrom(e)
			if err := c1.Try(a); err != nil {
				t.Fatal(err)
			}
			best[a] = math.Inf(-1)
			for b := c1.Mask().Next(0); b >= 0; b = c1.Mask().Next(b + 1) {
				c2.CopyFrom(c1)
				if err := c2.Try(b); err != nil {
					t.Fatal(err)
				}
				if midway(c2.Game()) {
					t.Fatalf("deal %d: still midway after picks %d, %d", deal, a, b)
				}
				best[a] = max(best[a], score(c2))
			}
			top = max(top, best[a])
		}
		for _, name := range []string{"heuristic:through=begun", "policy:model=" + file} {
			a := newAgent(t, name)
			a.Reset(deal)
			if got := a.Act(NewView(e)); best[got] != top {
				t.Errorf("deal %d: %s picked %d, whose best swap scores %g; the best swap scores %g", deal, name, got, best[got], top)
			}
		}
		for _, name := range []string{"heuristic", "policy:model=" + file + ",through=none"} {
			a := newAgent(t, name)
			a.Reset(deal)
			if got := a.Act(NewView(e)); best[got] < top {
				missed++
			}
		}
	}
	if missed < 2 {
		t.Errorf("the agents that judge a pick by the position it makes missed the best swap %d times in 24: the test cannot tell them from through=begun", missed)
	}
	p := newAgent(t, "policy:model="+file+",through=none")
	if back, err := New("policy:" + p.Settings()); err != nil || back.Settings() != p.Settings() || !strings.HasSuffix(p.Settings(), " through=none") {
		t.Errorf("policy settings %q read back as %v, %v", p.Settings(), back, err)
	}
}
