package solver

import (
	"fmt"

	"github.com/patience-gym/patience/env"
)

// shorten returns a shorter winning line than line, which wins from g:
// depth-first search wanders, and where a position further along the line
// can be reached in one move, the moves in between are cut out. The
// result is replayed from g; if it does not win (it relies on hashes, so
// only a hash collision could break it), line itself is returned.
func (s *Solver) shorten(g env.Game, line []int) []int {
	orig := append([]int(nil), line...)
	// at[h] is the last index i such that the position after line[:i] has
	// hash h.
	at := make(map[uint64]int, len(line)+1)
	st := g.Clone()
	at[st.Hash()] = 0
	for i, a := range line {
		st.Apply(a)
		at[st.Hash()] = i + 1
	}
	out := make([]int, 0, len(line))
	cur := g.Clone()
	c := g.Clone()
	mask := env.NewMask(g.Spec().Actions)
	for i := 0; i < len(line); {
		best, bestA := i+1, line[i]
		cur.Legal(&mask)
		for a := mask.Next(0); a >= 0; a = mask.Next(a + 1) {
			c.CopyFrom(cur)
			c.Apply(a)
			if j, ok := at[c.Hash()]; ok && j > best {
				best, bestA = j, a
			}
		}
		out = append(out, bestA)
		cur.Apply(bestA)
		i = best
	}
	if err := Replay(g, out); err != nil {
		return orig
	}
	return out
}

// Replay plays line from a copy of g and returns an error unless every
// action is legal and the game is won at the end.
func Replay(g env.Game, line []int) error {
	st := g.Clone()
	mask := env.NewMask(g.Spec().Actions)
	for i, a := range line {
		st.Legal(&mask)
		if a < 0 || a >= mask.Len() || !mask.Has(a) {
			return fmt.Errorf("move %d of the line, %s, is not legal", i+1, st.ActionString(a))
		}
		st.Apply(a)
	}
	if !st.Won() {
		return fmt.Errorf("the line of %d moves ends without a win (%d of %d cards placed)", len(line), st.Progress(), g.Spec().Cards)
	}
	return nil
}

// VerifyEnv replays line through an env.Env wrapping a copy of g (the
// position the line starts from, recorded as deal seed), as a player's
// moves would be, with a step limit long enough for the line, and returns
// an error unless the episode ends won.
func VerifyEnv(g env.Game, seed uint64, line []int) error {
	e := env.FromPosition(g.Clone(), seed, env.Options{MaxSteps: max(g.Spec().MaxSteps, len(line)+1)})
	for i, a := range line {
		if _, _, _, err := e.Advance(a); err != nil {
			return fmt.Errorf("move %d of %d: %w", i+1, len(line), err)
		}
	}
	if e.Outcome() != env.Won {
		return fmt.Errorf("the line of %d moves ends %s, not won (%d of %d cards placed)", len(line), e.Outcome(), e.Progress(), g.Spec().Cards)
	}
	return nil
}
