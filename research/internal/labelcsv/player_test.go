package labelcsv

import (
	"testing"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/env"
	_ "github.com/patience-gym/patience/solver/all"
)

// TestPlayerJudgesByTheSolver: a player's verdict is the solver's: the
// position where its agent won a deal is won, the one where it lost (with
// no move left) is not; an unknown agent or game is an error.
func TestPlayerJudgesByTheSolver(t *testing.T) {
	p, err := NewPlayer("fifteen", "heuristic", 100000)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[env.Outcome]bool{}
	for seed := uint64(0); seed < 40 && !(seen[env.Won] && seen[env.Lost]); seed++ {
		r, err := agents.Play(p.Env, p.Agent, seed, seed, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Outcome != env.Won && r.Outcome != env.Lost {
			continue
		}
		seen[r.Outcome] = true
		if got := p.Won(p.Env.Game()); got != (r.Outcome == env.Won) {
			t.Fatalf("deal %d ended %v; the player's verdict: won %v", seed, r.Outcome, got)
		}
	}
	if !seen[env.Won] || !seen[env.Lost] {
		t.Fatalf("outcomes seen %v: want a win and a loss", seen)
	}
	if _, err := NewPlayer("fifteen", "nobody", 1000); err == nil {
		t.Fatal("an unknown agent made a player")
	}
	if _, err := NewPlayer("nogame", "heuristic", 1000); err == nil {
		t.Fatal("an unknown game made a player")
	}
}
