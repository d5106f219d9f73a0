package agents

import (
	"math"

	"github.com/patience-gym/patience/env"
)

// midwayer is implemented by games in which one move of the rules may
// take several actions (Cromwell's swap: begin, pick, pick); Midway
// reports that such a move is under way.
type midwayer interface{ Midway() bool }

// midway reports whether g is inside a move of several actions.
func midway(g env.Game) bool {
	s, ok := g.(midwayer)
	return ok && s.Midway()
}

// maxCompletion is the most actions a move of several actions may still
// take after the one being judged (deeper positions are scored as they are).
const maxCompletion = 4

// bestCompletion returns the best leaf score of the positions that finish
// the move under way in pos (a midway position), trying every way to go
// on; leaf scores a position once the move is finished (or maxCompletion
// levels down, or at the end of the game). deep holds a scratch position
// per level, grown as needed; depth counts the levels already opened. It
// runs only inside a move of several actions, once or twice a game, so it
// may call leaf through a closure.
func bestCompletion(pos *env.Env, deep *[]*env.Env, depth int, leaf func(*env.Env) float64) float64 {
	if depth >= maxCompletion || pos.Done() {
		return leaf(pos)
	}
	for len(*deep) <= depth {
		*deep = append(*deep, pos.Clone())
	}
	c := (*deep)[depth]
	best := math.Inf(-1)
	m := pos.Mask()
	for a := m.Next(0); a >= 0; a = m.Next(a + 1) {
		c.CopyFrom(pos)
		if err := c.Try(a); err != nil {
			continue
		}
		if midway(c.Game()) {
			best = max(best, bestCompletion(c, deep, depth+1, leaf))
		} else {
			best = max(best, leaf(c))
		}
	}
	return best
}

// readThrough reads the setting through (0 or 1, default def): whether a
// move inside a move of several actions is judged by the best way to
// finish it.
func readThrough(s *Settings, def int) bool {
	t := s.Int("through", def, "1: inside a move of several actions (Cromwell's swap), judge each action by the best way to finish the move; 0: by the position it makes")
	if t != 0 && t != 1 {
		s.Errorf("through=%d: want 0 or 1", t)
	}
	return t == 1
}
