package agents

import (
	"fmt"
	"math"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/policy"
)

// UCT is Monte Carlo tree search with UCB1 over determinized copies: every
// iteration samples a fresh world consistent with what the player sees,
// walks down the tree choosing among the actions legal in that world by
// UCB1 (with availability counts, as the actions of a node can differ from
// world to world when hidden cards are turned), adds one node, plays a
// heuristic rollout from it and backs the result up. The root's most visited
// action is played, passing over the actions that lead back to a position
// seen this episode while another action does not (repeats=avoid, the
// default; repeats=allow plays the most visited one). The tree is rebuilt
// at every move.
//
// With a model (setting model=FILE), the rollouts draw their moves from the
// network's masked softmax instead of the heuristic, and the root's actions
// are first tried in the order of the one-step evaluation plus prior × the
// network's log-probability (the network alone with prior=inf). Without a
// model UCT plays exactly as it always did.
type UCT struct {
	opts   UCTOptions
	rng    cards.Rand
	pick   greedy
	roll   rollout
	sample *env.Env
	sim    *env.Env
	seen   hashSet
	scores []float64
	nodes  []node
	edges  []edge
	path   []int32
	guide  guide
	// weighed is set when the last Act grew a tree (not at a single legal
	// move): MoveScores reads its root.
	weighed bool
}

// node is a position of the tree (reached by a sequence of actions).
type node struct {
	first, count int32 // the node's edges: edges[first : first+count]
}

// edge is an action from a node with its statistics.
type edge struct {
	action int32
	child  int32 // index of the child node, or -1 until visited
	visits float64
	avail  float64
	total  float64
}

// UCTOptions are the tree search agent's settings.
type UCTOptions struct {
	// Iterations is the number of search iterations per move.
	Iterations int
	// RolloutSteps caps the length of one rollout.
	RolloutSteps int
	// Exploration is the UCB1 exploration constant.
	Exploration float64
	// AvoidRepeats sets aside, when the move is chosen, the root actions
	// that lead back to a position seen this episode while another action
	// is legal (as the heuristic and the policy agent do).
	AvoidRepeats bool
}

// uctRepeats is uct's setting repeats (UCTOptions.AvoidRepeats).
var uctRepeats = toggle{key: "repeats", off: "allow", on: "avoid", byDefault: true,
	doc: "avoid: play the most visited move that does not lead back to a position seen this episode, while there is one; allow: the most visited move"}

// newUCT reads uct's settings.
func newUCT(s *Settings) (func() Agent, error) {
	o := UCTOptions{
		Iterations:   s.Int("iterations", DefaultIterations, "search iterations per move"),
		RolloutSteps: s.Int("rollout-steps", DefaultUCTRolloutSteps, "cap on the length of one rollout"),
		Exploration:  s.Float("exploration", DefaultExploration, "UCB1 exploration constant"),
	}
	o.AvoidRepeats = uctRepeats.read(s)
	g := readGuide(s, "the root's moves for their first visits")
	if o.Iterations <= 0 || o.RolloutSteps <= 0 {
		s.Errorf("iterations and rollout-steps must be positive")
	}
	if o.Exploration < 0 {
		s.Errorf("exploration must not be negative")
	}
	return func() Agent { return &UCT{opts: o, guide: g} }, nil
}

func init() {
	Register("uct", "Monte Carlo tree search with UCB1 over determinized copies, heuristic rollouts", newUCT)
}

// Name returns "uct".
func (u *UCT) Name() string { return "uct" }

// Settings describes the budget.
func (u *UCT) Settings() string {
	return fmt.Sprintf("iterations=%d rollout-steps=%d exploration=%g repeats=%s", u.opts.Iterations, u.opts.RolloutSteps, u.opts.Exploration, uctRepeats.word(u.opts.AvoidRepeats)) +
		u.guide.settings()
}

// Prepare loads the model, if one is given, for spec's game.
func (u *UCT) Prepare(spec *env.Spec) error { return u.guide.prepare(spec) }

// UsedModel returns the model guiding the search once prepared, else nil.
func (u *UCT) UsedModel() *policy.Model { return u.guide.model.used() }

// Reset seeds the agent and forgets the positions seen.
func (u *UCT) Reset(seed uint64) {
	u.rng.Seed(seed)
	u.pick.rng = &u.rng
	u.roll = rollout{heuristic: true, rng: &u.rng}
	u.seen.clear()
}

// findEdge returns the edge of node n for action a, or -1 if the node has
// none yet (selectEdge then adds it).
func (u *UCT) findEdge(n int32, a int) int32 {
	nd := u.nodes[n]
	for i := nd.first; i < nd.first+nd.count; i++ {
		if int(u.edges[i].action) == a {
			return i
		}
	}
	return -1
}

// Act searches and returns the root's most visited action.
func (u *UCT) Act(v View) int {
	if u.pick.rng == nil {
		u.Reset(0)
	}
	if u.guide.on() {
		if err := u.guide.prepare(v.Spec()); err != nil {
			return -1
		}
		u.roll.net, u.roll.temperature = u.guide.model.net, u.guide.temperature
	}
	u.seen.add(v.key())
	u.weighed = false
	m := v.Mask()
	if m.Count() == 1 {
		return m.Next(0)
	}
	if u.sample == nil {
		u.sample, u.sim = v.Scratch(), v.Scratch()
	}
	v.Sample(u.sample, &u.rng)
	// Root edges in the order of the one-step evaluation, so that the first
	// visits go to the most promising actions; repeated positions are
	// tried last.
	if len(u.scores) < u.sample.Spec().Actions {
		u.scores = make([]float64, u.sample.Spec().Actions)
	}
	best := u.pick.choose(u.sample, &u.seen, visibleHash, u.scores)
	if u.guide.on() && u.guide.prior != 0 {
		u.guide.rank(u.sample.Observation(), u.sample.Mask(), u.scores)
		best = -1
		for a := m.Next(0); a >= 0; a = m.Next(a + 1) {
			if best < 0 || u.scores[a] > u.scores[best] {
				best = a
			}
		}
	}
	u.nodes = append(u.nodes[:0], node{})
	u.edges = u.edges[:0]

	cards := float64(u.sample.Spec().Cards)
	for range u.opts.Iterations {
		v.Sample(u.sim, &u.rng)
		u.path = u.path[:0]
		n := int32(0)
		for {
			if u.sim.Done() {
				break
			}
			ei := u.selectEdge(n, u.sim, n == 0)
			if ei < 0 {
				break
			}
			u.path = append(u.path, ei)
			u.sim.Advance(int(u.edges[ei].action))
			if u.edges[ei].child < 0 {
				u.edges[ei].child = int32(len(u.nodes))
				u.nodes = append(u.nodes, node{})
				break
			}
			n = u.edges[ei].child
		}
		value := u.roll.run(u.sim, u.opts.RolloutSteps) / cards
		for _, ei := range u.path {
			u.edges[ei].visits++
			u.edges[ei].total += value
		}
	}
	u.weighed = true
	// The most visited root action; ties go to the better one-step score.
	// With repeats avoided, an action back to a seen position is played
	// only when every action leads back.
	root := u.nodes[0]
	bestVisits, bestFresh := -1.0, false
	for i := root.first; i < root.first+root.count; i++ {
		ed := u.edges[i]
		a := int(ed.action)
		fresh := u.opts.AvoidRepeats && !u.repeats(a)
		switch {
		case bestFresh && !fresh:
			continue
		case fresh && !bestFresh, ed.visits > bestVisits, ed.visits == bestVisits && u.scores[a] > u.scores[best]:
			best, bestVisits, bestFresh = a, ed.visits, fresh
		}
	}
	return best
}

// repeats reports whether root action a leads to a position seen this
// episode (looking ahead on the determinized sample, which shows what a
// player sees).
func (u *UCT) repeats(a int) bool {
	u.sim.CopyFrom(u.sample)
	if err := u.sim.Try(a); err != nil {
		return false
	}
	return u.seen.has(visibleHash(u.sim))
}

// selectEdge picks the edge to follow from node n in the world e: an
// untried legal action first (at the root, the best by one-step score),
// otherwise the best UCB1 value among the legal ones. Actions the node has
// not met before (a hidden card made them legal) get an edge on the way.
func (u *UCT) selectEdge(n int32, e *env.Env, root bool) int32 {
	m := e.Mask()
	var untried, bestEdge int32 = -1, -1
	untriedScore, bestUCB := math.Inf(-1), math.Inf(-1)
	for a := m.Next(0); a >= 0; a = m.Next(a + 1) {
		i := u.findEdge(n, a)
		if i < 0 {
			i = u.addEdge(n, a)
		}
		ed := &u.edges[i]
		ed.avail++
		if ed.visits == 0 {
			s := u.rng.Float64()
			if root {
				s = u.scores[a]
			}
			if s > untriedScore {
				untried, untriedScore = i, s
			}
		}
	}
	if untried >= 0 {
		return untried
	}
	for a := m.Next(0); a >= 0; a = m.Next(a + 1) {
		i := u.findEdge(n, a)
		ed := &u.edges[i]
		ucb := ed.total/ed.visits + u.opts.Exploration*math.Sqrt(math.Log(ed.avail)/ed.visits)
		if ucb > bestUCB {
			bestEdge, bestUCB = i, ucb
		}
	}
	return bestEdge
}

// addEdge appends an edge for action a to node n, moving the node's edges to
// the end of the edge list so that they stay contiguous.
func (u *UCT) addEdge(n int32, a int) int32 {
	nd := u.nodes[n]
	if nd.first+nd.count != int32(len(u.edges)) {
		first := int32(len(u.edges))
		u.edges = append(u.edges, u.edges[nd.first:nd.first+nd.count]...)
		nd.first = first
	}
	u.edges = append(u.edges, edge{action: int32(a), child: -1})
	nd.count++
	u.nodes[n] = nd
	return int32(len(u.edges)) - 1
}
