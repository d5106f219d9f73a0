package agents

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
)

// hashSet is a small open-addressing table that counts visits of 64-bit
// state hashes. It grows as needed and clears without freeing, so
// steady-state use allocates nothing.
type hashSet struct {
	keys   []uint64 // 0 marks an empty slot; hash 0 is stored as 1
	counts []uint32
	n      int
}

func (s *hashSet) clear() {
	clear(s.keys)
	clear(s.counts)
	s.n = 0
}

// visits returns how many times h was added.
func (s *hashSet) visits(h uint64) uint32 {
	if h == 0 {
		h = 1
	}
	if len(s.keys) == 0 {
		return 0
	}
	mask := uint64(len(s.keys) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		switch s.keys[i] {
		case h:
			return s.counts[i]
		case 0:
			return 0
		}
	}
}

// has reports whether h was added.
func (s *hashSet) has(h uint64) bool { return s.visits(h) > 0 }

// add counts one more visit of h.
func (s *hashSet) add(h uint64) { s.addN(h, 1) }

func (s *hashSet) addN(h uint64, k uint32) {
	if h == 0 {
		h = 1
	}
	if 2*(s.n+1) > len(s.keys) {
		s.grow()
	}
	mask := uint64(len(s.keys) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		switch s.keys[i] {
		case h:
			s.counts[i] += k
			return
		case 0:
			s.keys[i], s.counts[i] = h, k
			s.n++
			return
		}
	}
}

func (s *hashSet) grow() {
	keys, counts := s.keys, s.counts
	s.keys = make([]uint64, max(64, 2*len(keys)))
	s.counts = make([]uint32, len(s.keys))
	s.n = 0
	for i, h := range keys {
		if h != 0 {
			s.addN(h, counts[i])
		}
	}
}

// obsHash hashes an observation: what a player sees.
func obsHash(obs []uint8) uint64 {
	h := uint64(0x9E3779B97F4A7C15) ^ uint64(len(obs))
	for len(obs) >= 8 {
		h = mix(h ^ binary.LittleEndian.Uint64(obs))
		obs = obs[8:]
	}
	var tail [8]byte
	copy(tail[:], obs)
	return mix(h ^ binary.LittleEndian.Uint64(tail[:]))
}

func mix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// visibleHash identifies the position a player sees: the state hash for
// games of perfect information (where it is the same thing, and cheaper),
// otherwise a hash of the observation.
func visibleHash(e *env.Env) uint64 {
	if !e.Spec().Hidden {
		return e.Hash()
	}
	return obsHash(e.Observation())
}

// Scores the greedy look-ahead gives to outcomes, in evaluation units
// (cards): a win beats everything, a dead end and a repeated position are
// avoided unless nothing else is left.
const (
	winBonus     = 1e6
	deadPenalty  = 1e3
	repeatedCost = 1e4
)

// greedy is the one-step look-ahead used by the heuristic agent and by the
// heuristic rollout policy: it tries every legal action on a copy of the
// position and keeps the best evaluation, breaking ties at random. Where
// through applies, an action that leaves a move of several actions
// unfinished (Cromwell's swap) is judged by the best way to finish it.
type greedy struct {
	child   *env.Env
	rng     *cards.Rand
	ties    []int
	through Through
	deep    []*env.Env // positions inside a move of several actions
}

// score evaluates the child position reached by an action.
func score(child *env.Env) float64 {
	s := child.Evaluate()
	switch child.Outcome() {
	case env.Won:
		s += winBonus
	case env.Lost:
		s -= deadPenalty
	}
	return s
}

// leafScore is score(child) less repeatedCost per visit of the position in
// seen (when seen is not nil): among positions all seen before, the least
// visited wins, so a cycle is left, not repeated.
func leafScore(child *env.Env, seen *hashSet, hash func(*env.Env) uint64) float64 {
	s := score(child)
	if seen != nil {
		s -= repeatedCost * float64(seen.visits(hash(child)))
	}
	return s
}

// choose returns the best action from e by one-step look-ahead. A child whose
// hash (as hash computes it) is in seen costs repeatedCost per visit. If scores is not
// nil, the score of every legal action is stored at its id.
func (g *greedy) choose(e *env.Env, seen *hashSet, hash func(*env.Env) uint64, scores []float64) int {
	m := e.Mask()
	if g.child == nil {
		g.child = e.Clone()
	}
	best := math.Inf(-1)
	g.ties = g.ties[:0]
	through := g.through.at(e)
	for a := m.Next(0); a >= 0; a = m.Next(a + 1) {
		g.child.CopyFrom(e)
		if err := g.child.Try(a); err != nil {
			continue // cannot happen: a is in the mask
		}
		var s float64
		if through && midway(g.child.Game()) {
			s = bestCompletion(g.child, &g.deep, 0, func(c *env.Env) float64 { return leafScore(c, seen, hash) })
		} else {
			s = leafScore(g.child, seen, hash)
		}
		if scores != nil {
			scores[a] = s
		}
		switch {
		case s > best:
			best = s
			g.ties = append(g.ties[:0], a)
		case s == best:
			g.ties = append(g.ties, a)
		}
	}
	if len(g.ties) == 0 {
		return randomLegal(m, g.rng)
	}
	return g.ties[g.rng.IntN(len(g.ties))]
}

// Heuristic is the greedy agent: it plays the legal action whose resulting
// position the game's evaluation scores best (one-step look-ahead on a
// determinized copy, so it never sees hidden cards), avoids positions it has
// already been in, and breaks ties with its seeded generator. With explore
// above 0 it plays a uniformly random legal move instead with that
// probability (epsilon-greedy), which makes datasets that also hold the
// positions the greedy choice never leads to. With through=begun, inside a
// move of several actions (Cromwell's swap: begin, pick, pick) it judges
// each action by the best way to finish the move, as the policy agent does
// (the plain heuristic picks the swap's first card by the position the
// pick makes, which barely differs from card to card); with through=all
// it judges beginning the swap by the best whole swap too.
type Heuristic struct {
	explore float64
	rng     cards.Rand
	g       greedy
	sample  *env.Env
	seen    hashSet
}

func init() {
	Register("heuristic", "greedy one-step look-ahead on the game's evaluation, avoiding repeated positions", func(s *Settings) (func() Agent, error) {
		explore := s.Float("explore", 0, "chance of a uniformly random legal move instead of the greedy one (0: never)")
		if !(explore >= 0 && explore <= 1) {
			s.Errorf("explore=%g: want a chance from 0 to 1", explore)
		}
		through := readThrough(s, ThroughNone)
		return func() Agent { return &Heuristic{explore: explore, g: greedy{through: through}} }, nil
	})
}

// Name returns "heuristic".
func (h *Heuristic) Name() string { return "heuristic" }

// Settings returns "" for the plain greedy agent, else its explore chance
// and where it looks through a move of several actions (through).
func (h *Heuristic) Settings() string {
	var parts []string
	if h.explore != 0 {
		parts = append(parts, fmt.Sprintf("explore=%g", h.explore))
	}
	if h.g.through != ThroughNone {
		parts = append(parts, "through="+h.g.through.String())
	}
	return strings.Join(parts, " ")
}

// Reset seeds the agent and forgets the positions seen.
func (h *Heuristic) Reset(seed uint64) {
	h.rng.Seed(seed)
	h.g.rng = &h.rng
	h.seen.clear()
}

// Act returns the greedy choice.
func (h *Heuristic) Act(v View) int {
	if h.g.rng == nil {
		h.Reset(0)
	}
	h.seen.add(v.key())
	if v.Mask().Count() == 1 {
		return v.Mask().Next(0)
	}
	if h.sample == nil {
		h.sample = v.Scratch()
	}
	if h.explore > 0 && h.rng.Float64() < h.explore {
		return randomLegal(v.Mask(), &h.rng)
	}
	v.Sample(h.sample, &h.rng)
	return h.g.choose(h.sample, &h.seen, visibleHash, nil)
}
