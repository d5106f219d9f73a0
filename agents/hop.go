package agents

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/solver"
)

// Defaults of hop's settings.
const (
	DefaultHOPWorlds = 8
	DefaultHOPNodes  = 2000
	DefaultHOPWidth  = 6
)

// HOP is hindsight optimisation (perfect-information Monte Carlo): at a
// decision it draws Worlds worlds the player cannot tell from the game
// (sampleWorld), asks the clairvoyant solver in each which moves keep a
// win, and plays the move that wins in the most worlds; ties, and worlds
// where every search ran out of nodes, are broken by the game's one-step
// evaluation (the heuristic's ranking, which also steers away from
// positions seen before).
//
// In each world the solver first decides the position itself: a world
// proved lost counts against every move, a world it cannot decide within
// its nodes counts for none, and a world won gives a win to the first move
// of the line found. The other candidates (the Width moves the evaluation
// ranks best, and every move that began a line found) are then searched
// after being played, in the worlds won, best first: the candidate that
// could still win in the most worlds is searched next, until the best of
// them has been searched in every world won, so candidates that cannot
// catch up are never searched to the end. Verdicts are remembered by the
// world's full state (see oracle), which makes the searches of worlds that
// hide the same cards free; where every world drawn is the same (nothing
// unseen is left: Limited's second deal to a player who remembers, Royal
// Parade once the stock is dealt), the decision is one world searched
// with all the worlds' nodes.
//
// With line=keep, the agent also keeps one world in which the move it
// played wins, and goes on with that world's winning line while the game
// shows what the world predicts (the same observation after every move):
// it searches again only when a card turned differs from the world's, or
// the line ends. This makes far fewer searches where nothing is turned for
// a while (in Limited's second deal nothing is hidden from a player who
// remembers, and one line plays to the end) at the price of trusting one
// world's plan between the cards turned.
//
// HOP's known weakness is that each world's solver knows that world's
// hidden cards: it values a move as if the player would learn them, so it
// overrates moves whose win depends on guessing them (strategy fusion).
type HOP struct {
	opts HOPOptions
	// or decides positions with the node budget Nodes; deep with Worlds
	// times it, for decisions where every world drawn is the same (nothing
	// the player has not seen is left to draw), which one search settles.
	// cur is the one of this decision, nw the worlds it weighs.
	or, deep, cur *oracle
	nw            int
	rng           cards.Rand
	pick          greedy
	seen          hashSet
	sample        *env.Env
	scratch       *env.Env // tries the candidates on the sample (leadsBack)
	sim           *env.Env // a world a rollout plays (tie=rollout)
	roll          rollout
	rollRng       cards.Rand
	// tie[i] is candidate i's rollout value summed over the worlds
	// (tie=rollout), which breaks ties of wins before the evaluation.
	tie    []float64
	worlds []*env.Env
	child  env.Game
	scores []float64
	cands  []int
	// state[w*len(cands)+i] is candidate i's standing in world w (see
	// the cand constants); wins and open count, per candidate, the worlds
	// where it is won and those not yet searched among the worlds won.
	state      []uint8
	wins, open []int
	rootWon    []bool
	// kept is the world whose line the agent follows (line=keep), valid
	// while keptOK.
	kept   *env.Env
	keptOK bool
	start  time.Time
	spent  int64 // nodes spent at this decision
}

// Standings of a candidate in a world.
const (
	candOpen uint8 = iota // not searched yet
	candWon               // the position after it is won
	candNot               // not won: proved lost, or undecided
)

// HOPOptions are hop's settings.
type HOPOptions struct {
	// Worlds is the number of worlds drawn at each decision.
	Worlds int
	// Nodes is the solver's node budget of one search.
	Nodes int64
	// Width is the number of candidates searched besides the first moves
	// of the lines found, the best by one-step evaluation.
	Width int
	// Caps caps the nodes and the time of one decision, checked between
	// searches, and sizes the solver's transposition table.
	Caps
	// KeepLine follows the winning line of one world while the game
	// agrees with it (line=keep).
	KeepLine bool
	// TieRollout breaks ties of wins (and decisions where no world is
	// won) by the mean result of heuristic rollouts of RolloutSteps
	// steps after each candidate in each world, as mc scores its
	// candidates, before the one-step evaluation (tie=rollout).
	TieRollout   bool
	RolloutSteps int
}

// newHOP reads hop's settings.
func newHOP(s *Settings) (func() Agent, error) {
	o := HOPOptions{
		Worlds: s.Int("worlds", DefaultHOPWorlds, "worlds drawn at each decision"),
		Nodes:  int64(s.Int("nodes", DefaultHOPNodes, "node budget of one search of the solver")),
		Width:  s.Int("width", DefaultHOPWidth, "candidate moves searched besides the first moves of the lines found, the best by one-step evaluation"),
		Caps:   readCaps(s, "cap on the nodes of all searches of one decision (0: none)"),
	}
	o.TieRollout = hopTie.read(s)
	o.RolloutSteps = s.Int("rollout-steps", DefaultRolloutSteps, "cap on the length of one rollout (tie=rollout)")
	o.KeepLine = hopLine.read(s)
	if o.Worlds <= 0 || o.Nodes <= 0 || o.Width <= 0 || o.RolloutSteps <= 0 {
		s.Errorf("worlds, nodes, width and rollout-steps must be positive")
	}
	o.Caps.check(s)
	return checked(s, o, NewHOP)
}

// hop's settings tie (HOPOptions.TieRollout) and line
// (HOPOptions.KeepLine).
var (
	hopTie = toggle{key: "tie", off: "eval", on: "rollout",
		doc: "what breaks ties of wins: eval (the one-step evaluation) or rollout (heuristic rollouts after each candidate in each world, then the evaluation)"}
	hopLine = toggle{key: "line", off: "none", on: "keep",
		doc: "none: decide every move; keep: follow the winning line of one world while the game agrees with it"}
)

func init() {
	Register("hop", "hindsight optimisation: the clairvoyant solver in sampled worlds, the move that keeps a win in the most", newHOP)
}

// NewHOP returns a hop agent with the given settings.
func NewHOP(o HOPOptions) (*HOP, error) {
	if o.RolloutSteps == 0 {
		o.RolloutSteps = DefaultRolloutSteps
	}
	or, err := o.Caps.oracle(o.Nodes)
	if err != nil {
		return nil, err
	}
	return &HOP{opts: o, or: or}, nil
}

// Name returns "hop".
func (h *HOP) Name() string { return "hop" }

// Settings describes the budget.
func (h *HOP) Settings() string {
	s := fmt.Sprintf("worlds=%d nodes=%d width=%d line=%s", h.opts.Worlds, h.opts.Nodes, h.opts.Width, hopLine.word(h.opts.KeepLine))
	if h.opts.TieRollout {
		s += fmt.Sprintf(" tie=rollout rollout-steps=%d", h.opts.RolloutSteps)
	}
	return s + h.opts.Caps.settings()
}

// Reset seeds the agent and forgets the episode.
func (h *HOP) Reset(seed uint64) {
	h.rng.Seed(seed)
	h.pick.rng = &h.rng
	h.seen.clear()
	h.or.reset()
	if h.deep != nil {
		h.deep.reset()
	}
	h.keptOK = false
}

// Searches returns the searches made and the nodes they expanded since
// the last Reset.
func (h *HOP) Searches() (searches, nodes int64) {
	searches, nodes = h.or.searches, h.or.spent
	if h.deep != nil {
		searches, nodes = searches+h.deep.searches, nodes+h.deep.spent
	}
	return searches, nodes
}

// Act returns the move that keeps a win in the most sampled worlds.
func (h *HOP) Act(v View) int {
	if h.pick.rng == nil {
		h.Reset(0)
	}
	h.seen.add(v.key())
	a := h.decide(v)
	if h.opts.KeepLine && h.keptOK {
		if h.kept.Mask().Has(a) {
			h.kept.Advance(a)
		} else {
			h.keptOK = false
		}
	}
	return a
}

// decide chooses the move (Act without the kept world's bookkeeping).
func (h *HOP) decide(v View) int {
	m := v.Mask()
	if h.opts.KeepLine && h.keptOK {
		if a, ok := h.follow(v); ok {
			return a
		}
		h.keptOK = false
	}
	if m.Count() == 1 {
		return m.Next(0)
	}
	if h.sample == nil {
		h.sample, h.scratch = v.Scratch(), v.Scratch()
	}
	for len(h.worlds) < h.opts.Worlds {
		h.worlds = append(h.worlds, v.Scratch())
	}
	h.start, h.spent = time.Now(), 0
	sampleWorld(v, h.sample, &h.rng)
	h.rank(v)
	W := h.opts.Worlds
	same := true
	for w := range W {
		sampleWorld(v, h.worlds[w], &h.rng)
		same = same && h.worlds[w].Hash() == h.worlds[0].Hash()
	}
	h.cur = h.or
	if same && W > 1 {
		// Every world is the real game: one search with all the worlds'
		// nodes.
		if h.deep == nil {
			h.deep, _ = h.opts.Caps.oracle(h.opts.Nodes * int64(W)) // the budget was checked
		}
		h.cur, W = h.deep, 1
	}
	h.nw = W
	// The root searches: a world won gives its line's first move a win.
	h.rootWon = h.rootWon[:0]
	for w := range W {
		won := false
		if !h.opts.Caps.exhausted(h.start, h.spent) {
			before := h.cur.spent
			verdict, first := h.cur.decide(h.worlds[w].Game())
			h.spent += h.cur.spent - before
			if verdict == solver.Solved && first >= 0 {
				won = true
				if !slices.Contains(h.cands, first) {
					h.cands = append(h.cands, first)
				}
			}
		}
		h.rootWon = append(h.rootWon, won)
	}
	C := len(h.cands)
	if h.opts.TieRollout {
		h.rollouts(W)
	}
	h.state = slices.Grow(h.state[:0], W*C)[:W*C]
	h.wins = slices.Grow(h.wins[:0], C)[:C]
	h.open = slices.Grow(h.open[:0], C)[:C]
	clear(h.wins)
	clear(h.open)
	for w := range W {
		for i := range C {
			st := candNot
			if h.rootWon[w] {
				st = candOpen
				h.open[i]++
			}
			h.state[w*C+i] = st
		}
	}
	// Searching a candidate in a world where the root's line begins with
	// it costs nothing (the memo holds the position after it).
	for {
		best := h.leader()
		if h.open[best] == 0 || h.opts.Caps.exhausted(h.start, h.spent) {
			break
		}
		for w := range W {
			if h.state[w*C+best] == candOpen {
				h.settle(w, best)
				break
			}
		}
	}
	return h.choose()
}

// rollouts plays a heuristic rollout after each candidate in each of the
// first W worlds, with the same seed for every candidate of a world
// (common random numbers), and sums each candidate's results in tie.
func (h *HOP) rollouts(W int) {
	if h.sim == nil {
		h.sim = h.sample.Clone()
		h.roll = rollout{heuristic: true, rng: &h.rollRng}
	}
	C := len(h.cands)
	h.tie = slices.Grow(h.tie[:0], C)[:C]
	clear(h.tie)
	for w := range W {
		seed := h.rng.Uint64()
		for i, a := range h.cands {
			h.sim.CopyFrom(h.worlds[w])
			if _, _, _, err := h.sim.Advance(a); err != nil {
				continue // cannot happen: the worlds show the game's moves
			}
			h.rollRng.Seed(seed)
			h.tie[i] += h.roll.run(h.sim, h.opts.RolloutSteps)
		}
	}
}

// rank orders the legal moves by the one-step evaluation of the sample
// (positions seen before last), shuffled first so that the seed orders
// equal scores, and keeps the best Width as candidates.
func (h *HOP) rank(v View) {
	n := h.sample.Spec().Actions
	if len(h.scores) < n {
		h.scores = make([]float64, n)
	}
	h.pick.choose(h.sample, &h.seen, visibleHash, h.scores)
	h.cands = h.sample.Mask().AppendActions(h.cands[:0])
	for i := len(h.cands) - 1; i > 0; i-- {
		j := h.rng.IntN(i + 1)
		h.cands[i], h.cands[j] = h.cands[j], h.cands[i]
	}
	slices.SortStableFunc(h.cands, func(a, b int) int { return cmp.Compare(h.scores[b], h.scores[a]) })
	if len(h.cands) > h.opts.Width {
		h.cands = h.cands[:h.opts.Width]
	}
}

// better reports whether candidate i ranks above candidate j when each
// could win in ci and cj worlds: more worlds first, then the evaluation,
// then the order of the candidates (the evaluation's, seeded).
func (h *HOP) better(i, ci, j, cj int) bool {
	if ci != cj {
		return ci > cj
	}
	if h.opts.TieRollout && h.tie[i] != h.tie[j] {
		return h.tie[i] > h.tie[j]
	}
	si, sj := h.scores[h.cands[i]], h.scores[h.cands[j]]
	if si != sj {
		return si > sj
	}
	return i < j
}

// leader returns the candidate that could still win in the most worlds
// (its wins and its worlds not searched yet).
func (h *HOP) leader() int {
	best := 0
	for i := 1; i < len(h.cands); i++ {
		if h.better(i, h.wins[i]+h.open[i], best, h.wins[best]+h.open[best]) {
			best = i
		}
	}
	return best
}

// choose returns the candidate won in the most worlds searched, passing
// over the candidates that lead back to a position of the episode while
// another does not (a game where cards can go back and forth would
// otherwise go round in circles).
func (h *HOP) choose() int {
	best, bestFresh := -1, false
	for i := range h.cands {
		fresh := !leadsBack(h.sample, h.scratch, h.cands[i], &h.seen)
		switch {
		case best >= 0 && bestFresh && !fresh:
		case best < 0, fresh && !bestFresh, h.better(i, h.wins[i], best, h.wins[best]):
			best, bestFresh = i, fresh
		}
	}
	if h.opts.KeepLine {
		h.keep(best)
	}
	return h.cands[best]
}

// settle searches candidate i in world w.
func (h *HOP) settle(w, i int) {
	C := len(h.cands)
	world := h.worlds[w].Game()
	if h.child == nil || h.child.Spec() != world.Spec() {
		h.child = world.Clone()
	}
	h.child.CopyFrom(world)
	h.child.Apply(h.cands[i])
	before := h.cur.spent
	verdict, _ := h.cur.decide(h.child)
	h.spent += h.cur.spent - before
	h.open[i]--
	if verdict == solver.Solved {
		h.state[w*C+i] = candWon
		h.wins[i]++
	} else {
		h.state[w*C+i] = candNot
	}
}

// keep remembers a world in which candidate i wins, to follow its line.
func (h *HOP) keep(i int) {
	C := len(h.cands)
	for w := range h.nw {
		if h.state[w*C+i] == candWon {
			if h.kept == nil {
				h.kept = h.worlds[w].Clone()
			}
			h.kept.CopyFrom(h.worlds[w])
			h.keptOK = true
			return
		}
	}
	h.keptOK = false
}

// follow plays the kept world's line: it returns the move the line makes
// from the position, if the world still shows what the game shows and the
// line goes on from it.
func (h *HOP) follow(v View) (int, bool) {
	if string(h.kept.Observation()) != string(v.Observation()) {
		return 0, false // a card turned that the world did not predict
	}
	g := h.kept.Game()
	if h.deep != nil {
		if verdict, a, ok := h.deep.memo.get(g.Hash()); ok && verdict == solver.Solved && a >= 0 && v.Mask().Has(a) {
			return a, true
		}
	}
	verdict, a := h.or.decide(g)
	if verdict != solver.Solved || a < 0 || !v.Mask().Has(a) {
		return 0, false
	}
	return a, true
}
