package agents

import (
	"fmt"
	"math"
	"time"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/solver"
)

// Defaults of ismcts's settings.
const (
	DefaultISMCTSIterations  = 100
	DefaultISMCTSNodes       = 2000
	DefaultISMCTSExploration = 0.4
	DefaultISMCTSUnknown     = 0.5
	// ismctsMaxNodes caps the tree kept from move to move; past it the
	// tree starts afresh.
	ismctsMaxNodes = 1 << 18
)

// ISMCTS is information-set Monte Carlo tree search (Cowling, Powley and
// Whitehouse 2012): one tree whose nodes are what the player knows, not
// positions of one world. Each iteration draws a new world the player
// cannot tell from the game (sampleWorld) and walks down the tree in it,
// choosing moves by UCB1; a move that turns a card leads to the child of
// what the player then sees, so the tree branches on the cards turned as
// the game does, and every node's statistics are over the worlds that
// agree with its history. The walk stops at the first node it creates,
// which is scored in that iteration's world by the clairvoyant solver
// (leaf=solver: 1 for a win, 0 for a loss proved, and for a search that
// runs out of nodes the evaluation's share of the cards times unknown), by
// that share alone (leaf=eval), or by a heuristic rollout (leaf=rollout).
// The root's most visited move is played; the tree below it and the card
// seen is kept for the next decision.
//
// The solver at the leaves still sees its world's hidden cards, but only
// below the tree: the moves near the root, where what is turned next is
// unknown, are weighed over many worlds rather than planned in each, which
// is where hindsight optimisation (hop) goes wrong.
type ISMCTS struct {
	opts   ISMCTSOptions
	or     *oracle
	rng    cards.Rand
	pick   greedy
	seen   hashSet
	roll   rollout
	sim    *env.Env
	look   *env.Env // the root's sample: its moves' priors and repeats
	scores []float64
	nodes  []isNode
	edges  []isEdge
	kids   []isKid
	path   []int32
	at     []int32 // at[i]: the node whose edge path[i] is
	root   int32
	last   int // the move played at the last decision, -1 for none
	start  time.Time
	spent  int64
	iters  int64 // iterations since Reset
}

// isNode is an information set: the edges of its moves, once expanded.
type isNode struct {
	first, count int32
	expanded     bool
	visits       float64
}

// isEdge is a move from a node with its statistics, and the first of its
// children (one per observation the move can lead to).
type isEdge struct {
	action        int32
	kid           int32 // index in kids of the first child, -1 for none
	prior         float64
	visits, total float64
}

// isKid links an edge to the node of one observation after its move.
type isKid struct {
	key  uint64 // what the player sees after the move (visibleHash)
	node int32
	next int32 // the edge's next child, -1 for none
}

// ISMCTSOptions are ismcts's settings.
type ISMCTSOptions struct {
	// Iterations is the number of iterations (worlds) per decision.
	Iterations int
	// Nodes is the solver's node budget at one leaf (leaf=solver).
	Nodes int64
	// Exploration is the UCB1 constant.
	Exploration float64
	// Leaf is what scores a new node: "solver", "solver-rollout" (a
	// rollout where the solver does not decide), "eval" or "rollout".
	Leaf string
	// MaxBackup passes up to a move the value of the best move after it
	// (the mean of its best edge) rather than the iteration's result
	// (backup=max): a move is worth what the best play after it is worth,
	// not the mean over the moves the search tries there.
	MaxBackup bool
	// Unknown weighs the evaluation's share of the cards that scores a
	// leaf the solver could not decide (and every leaf with leaf=eval, and
	// the end of a rollout that did not win).
	Unknown float64
	// RolloutSteps caps a rollout (leaf=rollout).
	RolloutSteps int
	// Caps caps the solver's nodes and the time of one decision, checked
	// between iterations, and sizes the solver's transposition table.
	Caps
}

// newISMCTS reads ismcts's settings.
func newISMCTS(s *Settings) (func() Agent, error) {
	o := ISMCTSOptions{
		Iterations:   s.Int("iterations", DefaultISMCTSIterations, "iterations (sampled worlds) per decision"),
		Nodes:        int64(s.Int("nodes", DefaultISMCTSNodes, "node budget of the solver at one leaf (leaf=solver)")),
		Exploration:  s.Float("exploration", DefaultISMCTSExploration, "UCB1 exploration constant"),
		Leaf:         s.String("leaf", "solver", "what scores a new node in its world: solver (1 won, 0 lost, else the evaluation's share times unknown), solver-rollout (the same, but a heuristic rollout where the solver did not decide), eval (that share), or rollout (a heuristic rollout)"),
		Unknown:      s.Float("unknown", DefaultISMCTSUnknown, "weight of the evaluation's share of the cards where the solver did not decide (and for leaf=eval or a rollout that did not win)"),
		RolloutSteps: s.Int("rollout-steps", DefaultUCTRolloutSteps, "cap on the length of one rollout (leaf=rollout)"),
		Caps:         readCaps(s, "cap on the solver's nodes of one decision (0: none)"),
	}
	o.MaxBackup = ismctsBackup.read(s)
	if o.Leaf != "solver" && o.Leaf != "solver-rollout" && o.Leaf != "eval" && o.Leaf != "rollout" {
		s.Errorf("leaf=%s: want solver, solver-rollout, eval or rollout", o.Leaf)
	}
	if o.Iterations <= 0 || o.Nodes <= 0 || o.RolloutSteps <= 0 {
		s.Errorf("iterations, nodes and rollout-steps must be positive")
	}
	if !(o.Exploration >= 0) || !(o.Unknown >= 0 && o.Unknown <= 1) {
		s.Errorf("exploration must not be negative, and unknown must be from 0 to 1")
	}
	o.Caps.check(s)
	return checked(s, o, NewISMCTS)
}

// ismctsBackup is ismcts's setting backup (ISMCTSOptions.MaxBackup).
var ismctsBackup = toggle{key: "backup", off: "mean", on: "max", byDefault: true,
	doc: "what a move's statistics receive: max (the value of the best move after it, where the search has tried one) or mean (the iteration's result, plain UCT)"}

func init() {
	Register("ismcts", "information-set Monte Carlo tree search: one tree over what the player knows, a new world per iteration, the solver at its leaves", newISMCTS)
}

// NewISMCTS returns an ismcts agent with the given settings.
func NewISMCTS(o ISMCTSOptions) (*ISMCTS, error) {
	if o.Leaf == "" {
		o.Leaf = "solver"
	}
	or, err := o.Caps.oracle(o.Nodes)
	if err != nil {
		return nil, err
	}
	return &ISMCTS{opts: o, or: or, last: -1}, nil
}

// Name returns "ismcts".
func (t *ISMCTS) Name() string { return "ismcts" }

// Settings describes the budget.
func (t *ISMCTS) Settings() string {
	s := fmt.Sprintf("iterations=%d leaf=%s backup=%s exploration=%g unknown=%g", t.opts.Iterations, t.opts.Leaf, ismctsBackup.word(t.opts.MaxBackup), t.opts.Exploration, t.opts.Unknown)
	switch t.opts.Leaf {
	case "solver":
		s += fmt.Sprintf(" nodes=%d", t.opts.Nodes)
	case "solver-rollout":
		s += fmt.Sprintf(" nodes=%d rollout-steps=%d", t.opts.Nodes, t.opts.RolloutSteps)
	case "rollout":
		s += fmt.Sprintf(" rollout-steps=%d", t.opts.RolloutSteps)
	}
	return s + t.opts.Caps.settings()
}

// Reset seeds the agent and forgets the episode and its tree.
func (t *ISMCTS) Reset(seed uint64) {
	t.rng.Seed(seed)
	t.pick.rng = &t.rng
	t.roll = rollout{heuristic: true, rng: &t.rng}
	t.seen.clear()
	t.or.reset()
	t.newTree()
	t.iters = 0
}

// Searches returns the iterations run, and the solver's searches and the
// nodes they expanded, since the last Reset.
func (t *ISMCTS) Searches() (iterations, searches, nodes int64) {
	return t.iters, t.or.searches, t.or.spent
}

// newTree empties the tree: a root not expanded.
func (t *ISMCTS) newTree() {
	t.nodes = append(t.nodes[:0], isNode{})
	t.edges, t.kids = t.edges[:0], t.kids[:0]
	t.root, t.last = 0, -1
}

// Act searches and returns the root's most visited move.
func (t *ISMCTS) Act(v View) int {
	if t.pick.rng == nil {
		t.Reset(0)
	}
	t.seen.add(v.key())
	t.descend(v)
	m := v.Mask()
	if m.Count() == 1 {
		t.last = m.Next(0)
		return t.last
	}
	if t.sim == nil {
		t.sim, t.look = v.Scratch(), v.Scratch()
	}
	if len(t.scores) < v.Spec().Actions {
		t.scores = make([]float64, v.Spec().Actions)
	}
	// The root's moves in the order of the one-step evaluation, positions
	// seen this episode last: the order of their first visits, and the
	// tie-break of the choice.
	sampleWorld(v, t.look, &t.rng)
	t.pick.choose(t.look, &t.seen, visibleHash, t.scores)
	t.expand(t.root, t.look, t.scores)
	r := t.nodes[t.root]
	for i := r.first; i < r.first+r.count; i++ {
		t.edges[i].prior = t.scores[t.edges[i].action]
	}
	t.start, t.spent = time.Now(), 0
	for range t.opts.Iterations {
		if t.opts.Caps.exhausted(t.start, t.spent) {
			break
		}
		t.iterate(v)
	}
	// The most visited move, ties to the higher prior, passing over the
	// moves that lead back to a position of the episode while another does
	// not (where cards can go back and forth, the tree's values alone
	// would let a game go round in circles).
	best, bestFresh := int32(-1), false
	for i := r.first; i < r.first+r.count; i++ {
		e := &t.edges[i]
		fresh := !leadsBack(t.look, t.sim, int(e.action), &t.seen)
		switch {
		case best >= 0 && bestFresh && !fresh:
		case best < 0, fresh && !bestFresh, e.visits > t.edges[best].visits, e.visits == t.edges[best].visits && e.prior > t.edges[best].prior:
			best, bestFresh = i, fresh
		}
	}
	t.last = int(t.edges[best].action)
	return t.last
}

// descend moves the root to the node of what the player sees now, below
// the move played last, keeping that part of the tree; it starts a new
// tree where there is none (or the tree grew past its cap).
func (t *ISMCTS) descend(v View) {
	if t.last < 0 || len(t.nodes) > ismctsMaxNodes {
		t.newTree()
		return
	}
	key := v.key()
	r := t.nodes[t.root]
	for i := r.first; i < r.first+r.count && r.expanded; i++ {
		if int(t.edges[i].action) != t.last {
			continue
		}
		for k := t.edges[i].kid; k >= 0; k = t.kids[k].next {
			if t.kids[k].key == key {
				t.root, t.last = t.kids[k].node, -1
				return
			}
		}
	}
	t.newTree()
}

// expand gives node n an edge per legal move of e (the same in every world
// of the node: they show the same), with priors from scores where given.
func (t *ISMCTS) expand(n int32, e *env.Env, scores []float64) {
	if t.nodes[n].expanded {
		return
	}
	m := e.Mask()
	first := int32(len(t.edges))
	for a := m.Next(0); a >= 0; a = m.Next(a + 1) {
		p := 0.0
		if scores != nil {
			p = scores[a]
		}
		t.edges = append(t.edges, isEdge{action: int32(a), kid: -1, prior: p})
	}
	t.nodes[n].first, t.nodes[n].count, t.nodes[n].expanded = first, int32(len(t.edges))-first, true
}

// iterate runs one iteration in a new world.
func (t *ISMCTS) iterate(v View) {
	t.iters++
	sampleWorld(v, t.sim, &t.rng)
	t.path, t.at = t.path[:0], t.at[:0]
	n := t.root
	value := 0.0
	for {
		if t.sim.Done() {
			if t.sim.Outcome() == env.Won {
				value = 1
			}
			break
		}
		if !t.nodes[n].expanded {
			// A node met before without edges: its moves, ordered by the
			// evaluation in this world (a public ranking but for the card
			// a turn would show).
			t.pick.choose(t.sim, nil, visibleHash, t.scores)
			t.expand(n, t.sim, t.scores)
		}
		ei := t.selectEdge(n)
		t.path = append(t.path, ei)
		t.at = append(t.at, n)
		t.nodes[n].visits++
		t.sim.Advance(int(t.edges[ei].action))
		key := visibleHash(t.sim)
		child := int32(-1)
		for k := t.edges[ei].kid; k >= 0; k = t.kids[k].next {
			if t.kids[k].key == key {
				child = t.kids[k].node
				break
			}
		}
		if child < 0 {
			child = int32(len(t.nodes))
			t.nodes = append(t.nodes, isNode{})
			t.kids = append(t.kids, isKid{key: key, node: child, next: t.edges[ei].kid})
			t.edges[ei].kid = int32(len(t.kids)) - 1
			value = t.leaf()
			break
		}
		n = child
	}
	for i := len(t.path) - 1; i >= 0; i-- {
		e := &t.edges[t.path[i]]
		e.visits++
		e.total += value
		if t.opts.MaxBackup {
			value = t.bestMean(t.at[i])
		}
	}
}

// bestMean returns the highest mean of the moves tried at node n.
func (t *ISMCTS) bestMean(n int32) float64 {
	nd := t.nodes[n]
	best := 0.0
	for i := nd.first; i < nd.first+nd.count; i++ {
		if e := &t.edges[i]; e.visits > 0 {
			best = max(best, e.total/e.visits)
		}
	}
	return best
}

// selectEdge returns the edge of node n to follow: a move never tried, the
// one of highest prior first, else the highest UCB1.
func (t *ISMCTS) selectEdge(n int32) int32 {
	nd := t.nodes[n]
	best, untried := int32(-1), int32(-1)
	bestUCB := math.Inf(-1)
	logN := math.Log(max(nd.visits, 1))
	for i := nd.first; i < nd.first+nd.count; i++ {
		e := &t.edges[i]
		if e.visits == 0 {
			if untried < 0 || e.prior > t.edges[untried].prior {
				untried = i
			}
			continue
		}
		u := e.total/e.visits + t.opts.Exploration*math.Sqrt(logN/e.visits)
		if u > bestUCB {
			best, bestUCB = i, u
		}
	}
	if untried >= 0 {
		return untried
	}
	return best
}

// leaf scores the new node's position in the iteration's world.
func (t *ISMCTS) leaf() float64 {
	e := t.sim
	if e.Done() {
		if e.Outcome() == env.Won {
			return 1
		}
		return 0
	}
	switch t.opts.Leaf {
	case "solver", "solver-rollout":
		before := t.or.spent
		verdict, _ := t.or.decide(e.Game())
		t.spent += t.or.spent - before
		switch {
		case verdict == solver.Solved:
			return 1
		case verdict == solver.Unsolvable:
			return 0
		case t.opts.Leaf == "solver":
			return t.share(e)
		}
		fallthrough // an undecided world: a rollout
	case "rollout":
		t.roll.run(e, t.opts.RolloutSteps)
		if e.Outcome() == env.Won {
			return 1
		}
	}
	return t.share(e)
}

// share is the evaluation's share of the cards, weighed by Unknown.
func (t *ISMCTS) share(e *env.Env) float64 {
	return t.opts.Unknown * min(max(e.Evaluate()/float64(e.Spec().Cards), 0), 1)
}
