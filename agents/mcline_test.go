package agents

import (
	"strings"
	"testing"

	"github.com/patience-gym/patience/env"
)

// TestMCLineBest: with line=best, in both open games, the best line's score
// never falls during an episode; once it is a win the agent plays the line
// without rolling anything out and the game is won; and a game that ends
// (not cut by the step limit) ends exactly where the last line said, its
// final score the line's. Some deals must find a won line after searching
// more than once, and some must never find one, or the test proves little.
func TestMCLineBest(t *testing.T) {
	for _, game := range []string{"fifteen", "cromwell"} {
		a, err := New("mc:rollouts=1,width=2,rollout-steps=2000,margin=0,line=best")
		if err != nil {
			t.Fatal(err)
		}
		m := a.(*MC)
		e, _ := env.Make(game, env.Options{})
		win := float64(e.Spec().Cards) + winLeafBonus
		lateWins, noWin := 0, 0
		for seed := range uint64(16) {
			resetBoth(t, e, a, e.Spec(), 1000+seed)
			best, searches, wonAt := -1e9, 0, -1
			for !e.Done() {
				wasWon := m.lineScore >= win && len(m.line) > 0
				act := a.Act(NewView(e))
				if m.weighed > 0 {
					searches++
				}
				if wasWon && m.weighed > 0 {
					t.Fatalf("%s deal %d step %d: searched with a won line in hand", game, seed, e.Steps())
				}
				if m.lineScore < best {
					t.Fatalf("%s deal %d step %d: the line's score fell from %v to %v", game, seed, e.Steps(), best, m.lineScore)
				}
				best = m.lineScore
				if best >= win && wonAt < 0 {
					wonAt = e.Steps()
				}
				if _, _, _, err := e.Advance(act); err != nil {
					t.Fatal(err)
				}
			}
			switch {
			case e.Outcome() == env.Truncated:
			case wonAt >= 0 && e.Outcome() != env.Won:
				t.Fatalf("%s deal %d: a won line found at step %d, the game ended %v", game, seed, wonAt, e.Outcome())
			case leafValue(e) != best:
				t.Fatalf("%s deal %d: ended scoring %v, the last line said %v", game, seed, leafValue(e), best)
			}
			if wonAt > 0 && searches > 1 {
				lateWins++
			}
			if wonAt < 0 {
				noWin++
			}
		}
		t.Logf("%s: %d late wins, %d never won", game, lateWins, noWin)
		if lateWins == 0 || noWin == 0 {
			t.Fatalf("%s: %d deals won after several searches, %d with no won line: want some of each", game, lateWins, noWin)
		}
	}
}

// TestMCLineRefusals: line takes none or best, and best is refused in a
// game with hidden cards, with a message that says why.
func TestMCLineRefusals(t *testing.T) {
	if _, err := New("mc:line=maybe"); err == nil || !strings.Contains(err.Error(), "line=maybe") {
		t.Fatalf("line=maybe: %v", err)
	}
	a, err := New("mc:line=best")
	if err != nil {
		t.Fatal(err)
	}
	spec := mustSpec(t, "limited")
	if err := Prepare(a, spec); err == nil || !strings.Contains(err.Error(), "hidden cards") {
		t.Fatalf("limited: %v", err)
	}
	if err := Prepare(a, mustSpec(t, "fifteen")); err != nil {
		t.Fatalf("fifteen: %v", err)
	}
}

// TestMCLineAllocatesNothing: a move of mc with line=best, rollouts cut
// short so that it searches on every move, allocates nothing once its
// buffers are made.
func TestMCLineAllocatesNothing(t *testing.T) {
	for _, game := range []string{"cromwell", "fifteen"} {
		a, err := New("mc:rollouts=2,rollout-steps=20,line=best")
		if err != nil {
			t.Fatal(err)
		}
		e, _ := env.Make(game, env.Options{})
		resetBoth(t, e, a, e.Spec(), 3)
		v := NewView(e)
		a.Act(v)
		if allocs := testing.AllocsPerRun(20, func() { a.(*MC).line = a.(*MC).line[:0]; a.Act(v) }); allocs != 0 {
			t.Errorf("%s: %v allocations per move of mc line=best", game, allocs)
		}
	}
}

// TestMCLineLeft: when a move other than the agent's is played (as a
// caller of agent_actions may do), mc drops its line and searches the
// position it is in, rather than play on a line made for another.
func TestMCLineLeft(t *testing.T) {
	a, err := New("mc:rollouts=1,width=4,rollout-steps=2000,margin=0,line=best")
	if err != nil {
		t.Fatal(err)
	}
	m := a.(*MC)
	e, _ := env.Make("fifteen", env.Options{})
	left := 0
	for seed := range uint64(8) {
		resetBoth(t, e, a, e.Spec(), 2000+seed)
		for step := 0; !e.Done() && step < 6; step++ {
			act := a.Act(NewView(e))
			if step == 3 {
				// play another legal move than the agent's, if there is one
				other := -1
				for _, b := range e.Mask().AppendActions(nil) {
					if b != act {
						other = b
						break
					}
				}
				if other < 0 {
					break
				}
				act = other
				if _, _, _, err := e.Advance(act); err != nil {
					t.Fatal(err)
				}
				if e.Done() {
					break
				}
				got := a.Act(NewView(e))
				if m.weighed == 0 && e.Mask().Count() > 1 {
					t.Fatalf("deal %d: after a move off its line mc played %s without searching", seed, e.ActionString(got))
				}
				if !e.Mask().Has(got) {
					t.Fatalf("deal %d: illegal move %d", seed, got)
				}
				left++
				break
			}
			if _, _, _, err := e.Advance(act); err != nil {
				t.Fatal(err)
			}
		}
	}
	if left == 0 {
		t.Fatal("no deal left its line: the test proves nothing")
	}
}
