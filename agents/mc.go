package agents

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/policy"
)

// Defaults of the Monte Carlo agents' budgets.
const (
	DefaultRollouts     = 16
	DefaultRolloutSteps = 40
	DefaultWidth        = 6
	DefaultSwitchMargin = 1.0
	DefaultIterations   = 200
	DefaultExploration  = 0.3
	// DefaultUCTRolloutSteps caps uct's rollouts.
	DefaultUCTRolloutSteps = 40
)

// rollout plays a position to its end (or for at most steps steps) with a
// default policy and returns the final progress fraction.
type rollout struct {
	heuristic bool
	// val, when not nil, is the default policy: the policy agent's choice
	// by a value file (a one-step look-ahead over the corrected
	// evaluation), forgetting its positions at each rollout.
	val *Policy
	// leaf, when not nil, scores a rollout's last position unless it is
	// won: a value file's score of it (Policy.leafScore).
	leaf *Policy
	// net, when not nil, is the default policy: moves are drawn from its
	// masked softmax at the given temperature (0: its argmax).
	net         *policy.Net
	temperature float64
	rng         *cards.Rand
	g           greedy
	seen        hashSet
	// rec, when not nil, receives the rollout's actions, appended, and
	// recKeys the hash of the position each was played in.
	rec     *[]int
	recKeys *[]uint64
}

func (r *rollout) run(e *env.Env, steps int) float64 {
	r.g.rng = r.rng
	r.seen.clear()
	for i := 0; i < steps && !e.Done(); i++ {
		var a int
		if r.val != nil {
			if i == 0 {
				r.val.Reset(r.rng.Uint64())
			}
			a = r.val.actByValue(NewView(e), r.val.model.net)
		} else if r.net != nil {
			r.net.Logits(e.Observation())
			a = r.net.Sample(e.Mask(), r.temperature, r.rng)
		} else if r.heuristic {
			r.seen.add(e.Hash()) // e is a determinized copy: its full hash is fair
			a = r.g.choose(e, &r.seen, (*env.Env).Hash, nil)
		} else {
			a = randomLegal(e.Mask(), r.rng)
		}
		var key uint64
		if r.rec != nil {
			key = e.Hash()
		}
		if _, _, _, err := e.Advance(a); err != nil {
			break
		}
		if r.rec != nil {
			*r.rec = append(*r.rec, a)
			*r.recKeys = append(*r.recKeys, key)
		}
	}
	if r.leaf != nil && e.Outcome() != env.Won {
		return r.leaf.leafScore(e)
	}
	return leafValue(e)
}

// leafValue scores where a rollout stopped, in cards: the game's
// evaluation (progress plus what the game knows about the position), or the
// card total plus a bonus for a win. The evaluation is used whether or not
// the game ended, so that a rollout that loses early is not preferred to one
// that is still going merely because the evaluation of a running position
// counts its problems.
func leafValue(e *env.Env) float64 {
	if e.Outcome() == env.Won {
		return float64(e.Spec().Cards) + winLeafBonus
	}
	return e.Evaluate()
}

// winLeafBonus is what a won rollout scores above the card total.
const winLeafBonus = 10

// MC is flat Monte Carlo: for each candidate action it plays rollouts to the
// end on freshly determinized copies with a default policy (random or the
// heuristic) and plays the action with the best mean final progress. To keep
// the budget useful when a position offers many actions (Cromwell's swap
// picks), only the Width actions the one-step evaluation ranks best are
// rolled out; ties on the mean are broken by that evaluation.
//
// With a model (setting model=FILE), a learned policy guides the search:
// the rollouts draw their moves from the network's masked softmax (policy
// "model", the default then), and the candidates are ranked by the one-step
// evaluation plus prior × the network's log-probability of the move (or by
// the network alone with prior=inf). With a value file instead (the policy
// agent's, docs/models.md), the candidates are ranked, and the move played
// unless a rollout gain is clear is chosen, as the policy agent ranks and
// chooses with that file; the rollouts follow the heuristic, or with
// policy=model the policy agent with the file. Without a model MC plays
// exactly as it always did. With line=best (MCOptions.Line) it keeps the
// best line its rollouts have found and plays it.
type MC struct {
	opts    MCOptions
	rng     cards.Rand
	rollRng cards.Rand // the rollouts' generator, seeded alike for every candidate of a world
	pick    greedy
	roll    rollout
	sample  *env.Env
	sim     *env.Env
	world   *env.Env
	seen    hashSet
	scores  []float64
	values  []float64
	cands   []int
	means   []float64 // means[i]: cands[i]'s mean rollout value at the last Act
	weighed int       // candidates weighed at the last Act (0: a single legal move, or a move of a won line)
	heurPol bool
	guide   guide
	// val and rollVal play a value file: val ranks the candidates at the
	// root (and remembers the episode's positions), rollVal moves in the
	// rollouts with policy=model.
	val, rollVal *Policy
	// policyGiven says whether the rollout policy was set: with a value
	// file and no policy setting the rollouts follow the heuristic.
	policyGiven bool
	seed        uint64 // the episode's seed, for a value file's agents
	// With line=best: the best line the rollouts have found, the moves
	// from the current position to its end (none: empty), the hash of the
	// position each is played in, and what the line scores (leafValue).
	// rec and recKeys receive a rollout's.
	line      []int
	lineKeys  []uint64
	lineScore float64
	rec       []int
	recKeys   []uint64
}

// MCOptions are the Monte Carlo agent's settings.
type MCOptions struct {
	// Rollouts is the number of sampled worlds per move; every candidate
	// is rolled out in each.
	Rollouts int
	// RolloutSteps caps the length of one rollout.
	RolloutSteps int
	// Width is the number of candidate actions rolled out, the best by
	// one-step evaluation.
	Width int
	// SwitchMargin is how many standard errors of the paired rollout
	// difference a candidate must gain over the one-step evaluation's
	// choice before it is played instead.
	SwitchMargin float64
	// Policy is the rollouts' default policy: "random", "heuristic" or
	// "model" (the network; needs a model).
	Policy string
	// Leaf is what scores a rollout's last position: "eval" (the game's
	// evaluation) or "model" (a value file's score; needs one).
	Leaf string
	// Line is "none" or "best": with best (games without hidden cards
	// only), the agent remembers the best line any rollout has found in the
	// episode and plays its moves, searching again only while that line
	// does not win (a nested rollout search of level one). Each rollout
	// counts on its own then: the means and SwitchMargin play no part.
	Line string
}

// newMC reads mc's settings.
func newMC(s *Settings) (func() Agent, error) {
	o := MCOptions{
		Rollouts:     s.Int("rollouts", DefaultRollouts, "rollouts (sampled worlds) per move, each candidate played in every one"),
		RolloutSteps: s.Int("rollout-steps", DefaultRolloutSteps, "cap on the length of one rollout"),
		Width:        s.Int("width", DefaultWidth, "candidate actions rolled out, the best by one-step evaluation (with a model: see prior)"),
		Policy:       s.String("policy", "heuristic", "rollout policy: random, heuristic or model (the network; the default when a policy network is given; with a value file, the policy agent playing it)"),
		SwitchMargin: s.Float("margin", DefaultSwitchMargin, "standard errors a rollout gain must reach to overrule the one-step choice"),
		Leaf:         s.String("leaf", "eval", "what scores a rollout's last position: eval (the game's evaluation) or model (a value file's score of it)"),
		Line:         s.String("line", "none", "none, or best: remember the best line the rollouts found and play it, searching while it does not win (games without hidden cards)"),
	}
	if o.Leaf != "eval" && o.Leaf != "model" {
		s.Errorf("leaf=%s: want eval or model", o.Leaf)
	}
	if o.Line != "none" && o.Line != "best" {
		s.Errorf("line=%s: want none or best", o.Line)
	}
	g := readGuide(s, "the candidate moves")
	g.values = true
	if _, given := s.lookupGiven("policy"); g.on() && !given {
		o.Policy = "model"
	}
	if o.Rollouts <= 0 || o.RolloutSteps <= 0 || o.Width <= 0 {
		s.Errorf("rollouts, rollout-steps and width must be positive")
	}
	if o.SwitchMargin < 0 {
		s.Errorf("margin must not be negative")
	}
	switch {
	case o.Policy == "model" && !g.on():
		s.Errorf("rollout policy model needs a model (model=FILE)")
	case o.Policy != "random" && o.Policy != "heuristic" && o.Policy != "model":
		s.Errorf("unknown rollout policy %q (want random, heuristic or model)", o.Policy)
	}
	_, policyGiven := s.lookupGiven("policy")
	return func() Agent {
		return &MC{opts: o, heurPol: o.Policy == "heuristic", guide: g, policyGiven: policyGiven}
	}, nil
}

func init() {
	Register("mc", "flat Monte Carlo: rollouts per action on determinized copies, best mean final progress", newMC)
}

// Name returns "mc".
func (m *MC) Name() string { return "mc" }

// Settings describes the budget.
func (m *MC) Settings() string {
	extra := ""
	if m.opts.Leaf != "eval" {
		extra = " leaf=" + m.opts.Leaf
	}
	if m.opts.Line != "none" {
		extra += " line=" + m.opts.Line
	}
	return fmt.Sprintf("rollouts=%d rollout-steps=%d width=%d policy=%s margin=%g", m.opts.Rollouts, m.opts.RolloutSteps, m.opts.Width, m.opts.Policy, m.opts.SwitchMargin) +
		m.guide.settings() + extra
}

// Prepare loads the model, if one is given, for spec's game, and refuses
// line=best in a game with hidden cards.
func (m *MC) Prepare(spec *env.Spec) error {
	if m.opts.Line == "best" && spec.Hidden {
		return fmt.Errorf("mc: line=best needs a game without hidden cards (%s hides some: a line found in one sampled world need not be legal in the game)", spec.Name)
	}
	if err := m.guide.prepare(spec); err != nil {
		return err
	}
	return m.checkLeaf()
}

// checkLeaf refuses leaf=model without a value file.
func (m *MC) checkLeaf() error {
	if m.opts.Leaf == "model" && !m.guide.isValue() {
		return errors.New("mc: leaf=model needs a value file (model=FILE with head=value, as the committed models are)")
	}
	return nil
}

// UsedModel returns the model guiding the search once prepared, else nil.
func (m *MC) UsedModel() *policy.Model { return m.guide.model.used() }

// Reset seeds the agent and forgets the positions seen.
func (m *MC) Reset(seed uint64) {
	m.seed = seed
	m.rng.Seed(seed)
	m.pick.rng = &m.rng
	m.roll = rollout{heuristic: m.heurPol}
	m.seen.clear()
	m.line, m.lineKeys = m.line[:0], m.lineKeys[:0]
	if m.val != nil {
		m.val.Reset(seed ^ valueSeed)
	}
}

// candidates ranks the legal actions of the sampled position by one-step
// evaluation (or as the policy agent does with a value file, whose choice
// comes first) and keeps the best width of them, in a seeded order.
func (m *MC) candidates(v View, width int) []int {
	if len(m.scores) < m.sample.Spec().Actions {
		m.scores = make([]float64, m.sample.Spec().Actions)
	}
	first := -1
	if m.val != nil {
		first = m.val.actByValue(v, m.val.model.net)
		copy(m.scores, m.val.scores[:len(m.scores)])
	} else {
		m.pick.choose(m.sample, &m.seen, visibleHash, m.scores)
		if m.guide.on() {
			m.guide.rank(m.sample.Observation(), m.sample.Mask(), m.scores)
		}
	}
	m.cands = m.sample.Mask().AppendActions(m.cands[:0])
	// Shuffle first so that equal scores are ordered by the seed.
	for i := len(m.cands) - 1; i > 0; i-- {
		j := m.rng.IntN(i + 1)
		m.cands[i], m.cands[j] = m.cands[j], m.cands[i]
	}
	slices.SortStableFunc(m.cands, func(a, b int) int { return cmp.Compare(m.scores[b], m.scores[a]) })
	// A value file's choice among equal scores goes first: it is the move
	// played unless a rollout gain is clear.
	for i, a := range m.cands {
		if a == first {
			copy(m.cands[1:i+1], m.cands[:i])
			m.cands[0] = a
			break
		}
	}
	if len(m.cands) > width {
		m.cands = m.cands[:width]
	}
	return m.cands
}

// leafScore is a value file's score of e, the last position of a rollout
// that did not win, in cards: the network's output plus the weighted
// evaluation and the weighted terms, as the policy agent scores a running
// position, but with no dead-end penalty and no repeat cost, as mc's
// leafValue scores a lost position by its evaluation.
func (p *Policy) leafScore(e *env.Env) float64 {
	sc := p.scorerFor(p.model.net)
	sc.From(e)
	return sc.Score(e, e.Evaluate())
}

// valueSeed sets a value file's agent's generator apart from mc's own.
const valueSeed = 0x9e3779b97f4a7c15

// prepareValue readies the agents that play a value file: the root's
// ranking, and the rollouts' when the policy setting asks for the model
// (without the setting, the rollouts follow the heuristic).
func (m *MC) prepareValue() {
	if m.val == nil || m.val.model.net != m.guide.model.net {
		m.val = &Policy{opts: PolicyOptions{Through: ThroughBegun}, model: m.guide.model}
		m.val.Reset(m.seed ^ valueSeed)
	}
	m.roll.leaf = nil
	if m.opts.Leaf == "model" {
		m.roll.leaf = m.val
	}
	if m.opts.Policy == "model" && m.policyGiven {
		if m.rollVal == nil || m.rollVal.model.net != m.guide.model.net {
			m.rollVal = &Policy{opts: PolicyOptions{Through: ThroughBegun}, model: m.guide.model}
		}
		m.roll.val, m.roll.heuristic = m.rollVal, false
	} else {
		m.roll.val, m.roll.heuristic = nil, true
	}
}

// Act returns the candidate with the best mean rollout result, provided it
// beats the one-step evaluation's choice by a clear margin. Every candidate
// is rolled out in the same sampled worlds with the same rollout seeds
// (common random numbers), so candidates are compared on equal luck, and a
// candidate replaces the evaluation's choice only when its paired advantage
// is at least SwitchMargin standard errors: rollouts then overrule the
// evaluation where they see a difference and leave it alone where they only
// see noise.
func (m *MC) Act(v View) int {
	if m.pick.rng == nil {
		m.Reset(0)
	}
	if m.guide.on() || m.opts.Leaf == "model" {
		if err := m.guide.prepare(v.Spec()); err != nil || m.checkLeaf() != nil {
			return -1
		}
		switch {
		case m.guide.isValue():
			m.prepareValue()
		case m.opts.Policy == "model":
			m.roll.net, m.roll.temperature = m.guide.model.net, m.guide.temperature
		}
	}
	m.seen.add(v.key())
	m.weighed = 0
	if m.opts.Line == "best" {
		if v.Spec().Hidden {
			return -1
		}
		if len(m.line) > 0 && m.lineKeys[0] != v.key() {
			// The game left the line (a move other than the agent's was
			// played): it says nothing of this position.
			m.line, m.lineKeys = m.line[:0], m.lineKeys[:0]
		}
		if len(m.line) > 0 && (m.lineScore >= float64(v.Spec().Cards)+winLeafBonus || v.Mask().Count() == 1) {
			// A won line is played out without searching; so is a
			// forced move, which every line makes.
			return m.playLine(v)
		}
	}
	if v.Mask().Count() == 1 {
		if m.val != nil {
			// The file's agent remembers a forced position too, or a
			// cycle through it would cost nothing.
			m.val.seen.add(v.key())
		}
		return v.Mask().Next(0)
	}
	if m.sample == nil {
		m.sample, m.sim, m.world = v.Scratch(), v.Scratch(), v.Scratch()
	}
	v.Sample(m.sample, &m.rng)
	cands := m.candidates(v, m.opts.Width)
	R, W := m.opts.Rollouts, len(cands)
	if cap(m.values) < R*W {
		m.values = make([]float64, R*W)
	}
	vals := m.values[:R*W] // vals[r*W+i]: candidate i in world r
	m.roll.rng = &m.rollRng
	for r := range R {
		v.Sample(m.world, &m.rng)
		seed := m.rng.Uint64()
		for i, a := range cands {
			m.sim.CopyFrom(m.world)
			m.sim.Advance(a)
			m.rollRng.Seed(seed)
			if m.opts.Line == "best" {
				m.rec, m.recKeys = append(m.rec[:0], a), append(m.recKeys[:0], v.key())
				m.roll.rec, m.roll.recKeys = &m.rec, &m.recKeys
			}
			vals[r*W+i] = m.roll.run(m.sim, m.opts.RolloutSteps)
			m.roll.rec, m.roll.recKeys = nil, nil
			if m.opts.Line == "best" && (len(m.line) == 0 || vals[r*W+i] > m.lineScore) {
				m.line, m.lineKeys, m.lineScore = append(m.line[:0], m.rec...), append(m.lineKeys[:0], m.recKeys...), vals[r*W+i]
			}
		}
	}
	if cap(m.means) < W {
		m.means = make([]float64, W)
	}
	m.means = m.means[:W]
	for i := range W {
		var sum float64
		for r := range R {
			sum += vals[r*W+i]
		}
		m.means[i] = sum / float64(R)
	}
	m.weighed = W
	if m.opts.Line == "best" {
		return m.playLine(v)
	}
	// cands[0] is the evaluation's choice; compare the others with it world
	// by world.
	best, bestGain := 0, 0.0
	for i := 1; i < W; i++ {
		var sum, sq float64
		for r := range R {
			d := vals[r*W+i] - vals[r*W]
			sum += d
			sq += d * d
		}
		mean := sum / float64(R)
		if mean <= bestGain {
			continue
		}
		se := 0.0
		if R > 1 {
			se = math.Sqrt(max(0, sq/float64(R)-mean*mean) / float64(R-1))
		}
		if mean > m.opts.SwitchMargin*se {
			best, bestGain = i, mean
		}
	}
	return cands[best]
}

// playLine plays the next move of the best line found, which starts at v's
// position, and drops it from the line.
func (m *MC) playLine(v View) int {
	if m.val != nil {
		m.val.seen.add(v.key()) // the file's agent remembers the position
	}
	a := m.line[0]
	m.line = append(m.line[:0], m.line[1:]...)
	m.lineKeys = append(m.lineKeys[:0], m.lineKeys[1:]...)
	if !v.Mask().Has(a) {
		return v.Mask().Next(0) // cannot happen in a game without hidden cards
	}
	return a
}
