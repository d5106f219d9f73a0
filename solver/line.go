package solver

import (
	"fmt"

	"github.com/patience-gym/patience/env"
)

// shorten returns a shorter winning line than line, which wins from g:
// depth-first search wanders, and where a position further along the line
// can be reached in one or two moves, the moves in between are cut out. It
// repeats while that helps. The result is replayed from g; if it does not
// win (it relies on hashes, so only a hash collision could break it), line
// itself is returned.
func (s *Solver) shorten(g env.Game, line []int) []int {
	orig := append([]int(nil), line...)
	for {
		out := s.shortcut(g, line)
		if len(out) >= len(line) {
			break
		}
		line = out
	}
	if err := Replay(g, line); err != nil {
		return orig
	}
	// A copy: line may be the search's own buffer, which the next search
	// reuses.
	return append([]int(nil), line...)
}

// shortcut makes one pass of shorten: from each position of the line, the
// furthest later position that one or two moves reach is jumped to.
func (s *Solver) shortcut(g env.Game, line []int) []int {
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
	cur, c1, c2 := g.Clone(), g.Clone(), g.Clone()
	m1, m2 := env.NewMask(g.Spec().Actions), env.NewMask(g.Spec().Actions)
	for i := 0; i < len(line); {
		best, seq := i+1, [2]int{line[i], -1}
		cur.Legal(&m1)
		for a := m1.Next(0); a >= 0; a = m1.Next(a + 1) {
			c1.CopyFrom(cur)
			c1.Apply(a)
			if j, ok := at[c1.Hash()]; ok && j > best {
				best, seq = j, [2]int{a, -1}
			}
			if c1.Won() {
				continue
			}
			c1.Legal(&m2)
			for b := m2.Next(0); b >= 0; b = m2.Next(b + 1) {
				c2.CopyFrom(c1)
				c2.Apply(b)
				// Two moves pay only if they replace three or more.
				if j, ok := at[c2.Hash()]; ok && j > best && j >= i+3 {
					best, seq = j, [2]int{a, b}
				}
			}
		}
		for _, a := range seq {
			if a >= 0 {
				out = append(out, a)
				cur.Apply(a)
			}
		}
		i = best
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
