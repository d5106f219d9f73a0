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
// per level, grown as needed; depth counts the levels already opened.
// The callers' closures for leaf do not escape, so a call allocates
// nothing once deep has grown.
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

// Through says where an agent judges an action by the best way to finish
// the move of several actions it starts or continues (Cromwell's swap:
// begin, pick, pick), rather than by the position the action makes.
type Through uint8

const (
	// ThroughNone judges every action by the position it makes.
	ThroughNone Through = iota
	// ThroughBegun looks through only inside a move already begun: the
	// swap's picks are judged by the best way to finish it, beginning it
	// by the half-made position.
	ThroughBegun
	// ThroughAll looks through every action that starts such a move too:
	// beginning the swap is judged by the best whole swap.
	ThroughAll
)

var throughNames = [...]string{ThroughNone: "none", ThroughBegun: "begun", ThroughAll: "all"}

// String returns the setting's value: none, begun or all.
func (t Through) String() string { return throughNames[t] }

// at reports whether the look-through applies to the actions of pos.
func (t Through) at(pos *env.Env) bool {
	return t == ThroughAll || t == ThroughBegun && midway(pos.Game())
}

// readThrough reads the setting through (none, begun or all; default def).
func readThrough(s *Settings, def Through) Through {
	v := s.String("through", def.String(), "judge an action by the best way to finish the move of several actions it is part of (Cromwell's swap): none; begun (the picks of a swap already begun); all (beginning the swap too)")
	for t, name := range throughNames {
		if v == name {
			return Through(t)
		}
	}
	s.Errorf("through=%s: want none, begun or all", v)
	return def
}
