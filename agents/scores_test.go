package agents

import (
	"slices"
	"testing"

	"github.com/patience-gym/patience/env"
)

// TestMoveScores: mc and uct report the moves they weighed at every step of
// real games: legal moves, none twice, the move played among them, nothing
// at a single legal move; mc's scores are its candidates' mean rollout
// values (so the move played is the one-step choice, listed first, or one
// with a higher mean), and
// uct's visits add up to its iterations, with the move played the most
// visited of those that do not lead back to a position of the episode.
func TestMoveScores(t *testing.T) {
	for _, game := range []string{"fifteen", "cromwell", "limited"} {
		for _, name := range []string{"mc", "uct"} {
			t.Run(game+"/"+name, func(t *testing.T) {
				e, err := env.Make(game, env.Options{MaxSteps: 60})
				if err != nil {
					t.Fatal(err)
				}
				a := newAgent(t, name)
				sc, ok := a.(MoveScorer)
				if !ok {
					t.Fatalf("%s is not a MoveScorer", name)
				}
				var got []ScoredMove
				weighedSteps := 0
				for seed := uint64(0); seed < 3; seed++ {
					seen := map[uint64]bool{}
					leadsBack := func(e *env.Env, x int) bool {
						c := e.Clone()
						c.Advance(x)
						return seen[visibleHash(c)]
					}
					_, err := Play(e, a, seed, seed, func(e *env.Env, act int) bool {
						seen[visibleHash(e)] = true
						got = sc.MoveScores(got[:0])
						if e.Mask().Count() == 1 {
							if len(got) != 0 {
								t.Fatalf("step %d: %d moves weighed at a single legal move", e.Steps(), len(got))
							}
							return true
						}
						weighedSteps++
						if len(got) < 2 && name == "uct" || len(got) == 0 {
							t.Fatalf("step %d: %d moves weighed among %d legal", e.Steps(), len(got), e.Mask().Count())
						}
						var acts []int
						best, total := got[0], 0.0
						for _, m := range got {
							if !e.Mask().Has(m.Action) {
								t.Fatalf("step %d: weighed move %d is not legal", e.Steps(), m.Action)
							}
							acts = append(acts, m.Action)
							if m.Score > best.Score {
								best = m
							}
							total += m.Score
						}
						slices.Sort(acts)
						if len(slices.Compact(acts)) != len(got) {
							t.Fatalf("step %d: a move weighed twice: %v", e.Steps(), got)
						}
						i := slices.IndexFunc(got, func(m ScoredMove) bool { return m.Action == act })
						if i < 0 {
							t.Fatalf("step %d: played %d, not among the weighed %v", e.Steps(), act, got)
						}
						switch name {
						case "mc":
							if i != 0 && got[i].Score <= got[0].Score {
								t.Fatalf("step %d: mc overruled its one-step choice %v for %v, whose mean is not higher", e.Steps(), got[0], got[i])
							}
						case "uct":
							if total != 12 {
								t.Fatalf("step %d: root visits add up to %g, want the 12 iterations", e.Steps(), total)
							}
							for _, m := range got {
								if m.Score > got[i].Score && !leadsBack(e, m.Action) || m.Score == best.Score && leadsBack(e, act) && !leadsBack(e, m.Action) {
									t.Fatalf("step %d: uct played %v, but %v was visited more (or as much) and does not lead back: %v", e.Steps(), got[i], m, got)
								}
							}
						}
						return true
					})
					if err != nil {
						t.Fatal(err)
					}
				}
				if weighedSteps == 0 {
					t.Fatal("no step with a choice")
				}
			})
		}
	}
}
