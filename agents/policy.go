package agents

import (
	"fmt"
	"math"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/policy"
)

// ModelUser is implemented by agents that may play with a policy model
// (policy, and mc and uct with model=FILE). UsedModel returns the model
// the agent was prepared with (agents.Prepare), or nil when it has none.
type ModelUser interface {
	UsedModel() *policy.Model
}

// UsedModel returns the policy's model once prepared, else nil.
func (p *Policy) UsedModel() *policy.Model { return p.model.used() }

// Policy plays with a learned network: one forward pass per move over the
// one-hot observation, then the legal action with the largest logit
// (masked argmax) or, with sampling on, an action drawn from the softmax of
// the legal actions' logits with the agent's seeded generator. It reads
// only the observation, so it never sees hidden cards. A value network
// (policy.Model.IsValue) is played by a one-step look-ahead instead: one
// forward pass per legal move, over the position the move leads to on a
// determinized copy, scored by the file's policy.Scorer (see actByValue).
type Policy struct {
	opts    PolicyOptions
	model   modelRef
	rng     cards.Rand
	seen    hashSet  // the positions of this episode, by what the player sees
	sample  *env.Env // a determinized copy, to look one move ahead
	child   *env.Env
	allowed env.Mask   // the legal moves that do not go back to a seen position
	scores  []float64  // a value network's score of each legal move
	deep    []*env.Env // positions inside a move of several actions (completion)
	// scorer is a value file's score of positions, for the net it was
	// made with (scorerFor).
	scorer *policy.Scorer
}

// PolicyOptions are the policy agent's settings.
type PolicyOptions struct {
	// Model is the policy model file; {game} stands for the game's name.
	Model string
	// Sample draws from the masked softmax instead of taking the argmax.
	Sample bool
	// Temperature divides the logits before the softmax when sampling.
	Temperature float64
	// AllowRepeats lets the network's choice lead back to a position of
	// the episode; by default such moves are set aside while another is
	// legal, as the heuristic does, so that a greedy network cannot cycle
	// until the step limit.
	AllowRepeats bool
	// Through says where a value network's action is judged by the best
	// way to finish the move of several actions (Cromwell's swap) it is
	// part of: by default (ThroughBegun) inside a move already begun.
	Through Through
}

// policyRepeats is the policy agent's setting repeats
// (PolicyOptions.AllowRepeats).
var policyRepeats = toggle{key: "repeats", off: "avoid", on: "allow",
	doc: "avoid: set aside moves back to a position already seen this episode while another is legal; allow: play the network's choice"}

// newPolicy reads the policy agent's settings.
func newPolicy(s *Settings) (func() Agent, error) {
	path, file := s.model("policy model file (safetensors, docs/models.md); {game} stands for the game's name", true)
	o := PolicyOptions{
		Model:       path,
		Sample:      s.Int("sample", 0, "0: play the legal action with the largest logit; 1: sample from the softmax of the legal actions' logits (seeded)") == 1,
		Temperature: s.Float("temperature", 1, "with sample=1, the softmax temperature (lower is greedier)"),
	}
	o.AllowRepeats = policyRepeats.read(s)
	o.Through = readThrough(s, ThroughBegun)
	if v, _ := s.lookupGiven("sample"); v != "" && v != "0" && v != "1" {
		s.Errorf("sample=%s: want 0 or 1", v)
	}
	if !(o.Temperature > 0) || math.IsInf(o.Temperature, 0) {
		s.Errorf("temperature must be a positive number")
	}
	return func() Agent { return &Policy{opts: o, model: modelRef{file: file}} }, nil
}

func init() {
	Register("policy", "a learned network (safetensors, docs/models.md): masked argmax or seeded sampling over its logits; a value network by one-step look-ahead", newPolicy)
}

// Name returns "policy".
func (p *Policy) Name() string { return "policy" }

// Settings describes the model and how it is played.
func (p *Policy) Settings() string {
	sample := 0
	if p.opts.Sample {
		sample = 1
	}
	through := ""
	if p.opts.Through != ThroughBegun {
		through = " through=" + p.opts.Through.String()
	}
	return fmt.Sprintf("model=%s sample=%d temperature=%g repeats=%s", p.opts.Model, sample, p.opts.Temperature, policyRepeats.word(p.opts.AllowRepeats)) + through
}

// Reset seeds the sampling.
func (p *Policy) Reset(seed uint64) { p.rng.Seed(seed); p.seen.clear() }

// Prepare loads the model for spec's game (once per process per file) and
// checks that it was made for that game.
func (p *Policy) Prepare(spec *env.Spec) error { return p.model.prepare(spec) }

// Model returns the model the agent plays with, or nil before Prepare.
func (p *Policy) Model() *policy.Model {
	if p.model.net == nil {
		return nil
	}
	return p.model.net.Model()
}

// Act returns the masked argmax of the network's logits, or a sample of its
// masked softmax; when that move leads back to a position of the episode
// and another does not, it chooses again among those (unless repeats are
// allowed). Unprepared, it prepares itself and returns -1 if the model
// cannot play v's game.
func (p *Policy) Act(v View) int {
	if err := p.model.prepare(v.Spec()); err != nil {
		return -1
	}
	n := p.model.net
	if n.Model().IsValue() {
		return p.actByValue(v, n)
	}
	n.Logits(v.Observation())
	a := p.choose(n, v.Mask())
	if p.opts.AllowRepeats {
		return a
	}
	p.seen.add(v.key())
	if v.Mask().Count() == 1 {
		return a
	}
	if p.sample == nil {
		p.sample, p.child = v.Scratch(), v.Scratch()
		p.allowed = env.NewMask(v.Spec().Actions)
	}
	v.Sample(p.sample, &p.rng)
	if !p.repeats(v, a) {
		return a
	}
	// The choice goes back: choose again among the moves that do not.
	p.allowed.CopyFrom(v.Mask())
	m := v.Mask()
	for b := m.Next(0); b >= 0; b = m.Next(b + 1) {
		if b == a || p.repeats(v, b) {
			p.allowed.Unset(b)
		}
	}
	if p.allowed.Empty() {
		return a
	}
	return p.choose(n, &p.allowed)
}

// actByValue plays a value network: every legal move is tried on a
// determinized copy of the position, and the move whose position the
// network values most is played (or one drawn from the softmax of the
// values over the temperature). A move that ends the game is scored by its
// exact final progress fraction instead, plus winBonus for a win (minus
// deadPenalty for a loss when the network's link is logsigmoid, whose
// scores are logs of probabilities, all below 0); a move back to a
// position of the episode costs repeatedCost per earlier visit unless
// repeats are allowed. Equal scores go to the lowest id.
//
// A network with an eval weight w (policy.Meta.EvalWeight) scores every
// position, finished or not, by its output plus w times the heuristic's
// score of it over the game's cards (the evaluation, plus winBonus for a
// win and minus deadPenalty for a dead end, and repeatedCost per visit of a
// position seen before): the heuristic's ranking with the network's
// correction. A file with eval_terms adds each of the game's evaluation
// terms of the position times its weight. Equal scores are broken at
// random, as the heuristic does.
//
// A file with lookahead_samples k (policy.Meta.LookaheadSamples) does all
// this on k determinized copies and scores each move by the mean of its k
// scores (policy.Scorer.LookAhead).
func (p *Policy) actByValue(v View, n *policy.Net) int {
	m := v.Mask()
	if !p.opts.AllowRepeats {
		p.seen.add(v.key())
	}
	if m.Count() == 1 {
		return m.Next(0)
	}
	if p.sample == nil {
		p.sample, p.child = v.Scratch(), v.Scratch()
		p.allowed = env.NewMask(v.Spec().Actions)
	}
	if len(p.scores) < v.Spec().Actions {
		p.scores = make([]float64, v.Spec().Actions)
	}
	sc := p.scorerFor(n)
	sc.LookAhead(v, &p.rng, p.sample, m, p.scores, func(sample *env.Env) { p.scoreMoves(v, sc, sample, m) })
	w := sc.EvalWeight()
	best, bs, ties := -1, math.Inf(-1), 0
	for a := m.Next(0); a >= 0; a = m.Next(a + 1) {
		s := p.scores[a]
		switch {
		case best < 0 || s > bs:
			best, bs, ties = a, s, 1
		case s == bs && w != 0:
			// Reservoir sampling: each of the equal moves is kept with
			// the same chance.
			ties++
			if p.rng.IntN(ties) == 0 {
				best = a
			}
		}
	}
	if !p.opts.Sample || best < 0 || math.IsInf(bs, -1) {
		if best < 0 {
			return m.Next(0)
		}
		return best
	}
	sum := 0.0
	for a := m.Next(0); a >= 0; a = m.Next(a + 1) {
		e := math.Exp((p.scores[a] - bs) / p.opts.Temperature)
		p.scores[a] = e
		sum += e
	}
	u := p.rng.Float64() * sum
	for a := m.Next(0); a >= 0; a = m.Next(a + 1) {
		u -= p.scores[a]
		if u < 0 {
			return a
		}
	}
	return best
}

// scorerFor returns the scorer of the value file n evaluates, made once
// for each net (a net is made for one game).
func (p *Policy) scorerFor(n *policy.Net) *policy.Scorer {
	if p.scorer == nil || p.scorer.Net() != n {
		p.scorer = policy.NewScorer(n)
	}
	return p.scorer
}

// scoreMoves adds to p.scores the score of every legal move of m played
// on sample, the position determinized once, with the term weights of
// that position.
func (p *Policy) scoreMoves(v View, sc *policy.Scorer, sample *env.Env, m *env.Mask) {
	sc.From(sample)
	// Inside a move of several actions, a child that does not finish the
	// move is judged by its best completion (see Through).
	through := p.opts.Through.at(sample)
	for a := m.Next(0); a >= 0; a = m.Next(a + 1) {
		p.child.CopyFrom(sample)
		if err := p.child.Try(a); err != nil {
			p.scores[a] = math.Inf(-1) // cannot happen: a is in the mask
			continue
		}
		if through && midway(p.child.Game()) {
			p.scores[a] += bestCompletion(p.child, &p.deep, 0, func(e *env.Env) float64 { return p.valueScore(v, sc, e) })
		} else {
			p.scores[a] += p.valueScore(v, sc, p.child)
		}
	}
}

// valueScore is a value network's score of the position child a move
// leads to (see actByValue), with the cost of a repeated position.
func (p *Policy) valueScore(v View, sc *policy.Scorer, child *env.Env) float64 {
	var s float64
	w := sc.EvalWeight()
	switch {
	case w != 0:
		s = sc.Score(child, score(child))
	case child.Outcome() == env.Won:
		s = child.ProgressFraction() + winBonus
	case child.Outcome() == env.Running:
		s = sc.Value(child.Observation())
	case sc.LogLink():
		// A lost game's chance of a win is 0, whose log is below every
		// running position's score; among dead ends, the most progress.
		s = child.ProgressFraction() - deadPenalty
	default:
		s = child.ProgressFraction()
	}
	if s != s {
		s = math.Inf(-1)
	}
	if !p.opts.AllowRepeats {
		cost := repeatedCost
		if w != 0 { // in the units of the weighted score
			cost *= w / float64(v.Spec().Cards)
		}
		s -= cost * float64(p.seen.visits(visibleHash(child)))
	}
	return s
}

// choose takes the masked argmax of the network's logits, or samples.
func (p *Policy) choose(n *policy.Net, m *env.Mask) int {
	if p.opts.Sample {
		return n.Sample(m, p.opts.Temperature, &p.rng)
	}
	return n.Argmax(m)
}

// repeats reports whether action a leads to a position seen this episode,
// looking ahead on p.sample, the position determinized (so nothing hidden
// is read).
func (p *Policy) repeats(v View, a int) bool {
	p.child.CopyFrom(p.sample)
	if err := p.child.Try(a); err != nil {
		return false
	}
	return p.seen.has(visibleHash(p.child))
}

// guide is the model setting shared by mc and uct: the network as rollout
// policy and as a prior in the ranking of candidate moves.
type guide struct {
	// pattern is the model setting as written ("" for none), model the
	// agent's use of it.
	pattern string
	model   modelRef
	// prior weighs the network's log-probability (in cards per nat)
	// against the one-step evaluation; +Inf ranks by the network alone.
	prior float64
	// temperature is the rollout policy's softmax temperature (0: argmax).
	temperature float64
	logp        []float64
	// values says whether the agent takes a value file (mc does, uct
	// does not).
	values bool
}

// readGuide reads the model, prior and temperature settings of a search
// agent; ranked says what the prior ranks. The prior and the temperature
// need a model.
func readGuide(s *Settings, ranked string) guide {
	var g guide
	var file *modelFile
	g.pattern, file = s.model(
		"policy model file (docs/models.md; {game} stands for the game's name): rollouts follow the network and it helps rank "+ranked+"; empty: no network", false)
	g.model.file = file
	g.prior = s.Float("prior", 1, "with a model: weight, in cards per nat, of the network's log-probability added to the one-step evaluation to rank "+ranked+" (0: evaluation only; inf: network only)")
	g.temperature = s.Float("temperature", 1, "with a model: softmax temperature of the network's rollout moves (0: argmax)")
	if g.pattern == "" {
		for _, k := range []string{"prior", "temperature"} {
			if _, ok := s.lookupGiven(k); ok {
				s.Errorf("%s needs a model (model=FILE)", k)
			}
		}
		return g
	}
	if math.IsNaN(g.prior) || g.prior < 0 {
		s.Errorf("prior must not be negative")
	}
	if math.IsNaN(g.temperature) || g.temperature < 0 || math.IsInf(g.temperature, 0) {
		s.Errorf("temperature must be a finite number, 0 or more")
	}
	return g
}

// on reports whether a model was given.
func (g *guide) on() bool { return g.pattern != "" }

// settings returns the guide's part of an agent's Settings: "" without a
// model, so that the settings of unguided agents are what they always
// were.
func (g *guide) settings() string {
	if !g.on() {
		return ""
	}
	return fmt.Sprintf(" model=%s prior=%g temperature=%g", g.pattern, g.prior, g.temperature)
}

// prepare readies the network for spec's game when a model is given.
func (g *guide) prepare(spec *env.Spec) error {
	if !g.on() {
		return nil
	}
	if err := g.model.prepare(spec); err != nil {
		return err
	}
	if m := g.model.net.Model(); m.IsValue() && !g.values {
		return fmt.Errorf("%s is a value network (head=%s): uct takes a policy network; mc and the policy agent play a value network", m, policy.HeadValue)
	}
	if len(g.logp) < spec.Actions {
		g.logp = make([]float64, spec.Actions)
	}
	return nil
}

// isValue reports whether the prepared model is a value network.
func (g *guide) isValue() bool {
	return g.model.net != nil && g.model.net.Model().IsValue()
}

// rank turns the one-step scores of the legal actions of the position whose
// observation is obs into ranking keys: score + prior × log-probability
// under the network, or the log-probability alone when prior is +Inf.
// It does nothing when prior is 0.
func (g *guide) rank(obs []uint8, mask *env.Mask, scores []float64) {
	if g.prior == 0 {
		return
	}
	n := g.model.net
	n.Logits(obs)
	n.LogProbs(mask, g.logp)
	for a := mask.Next(0); a >= 0; a = mask.Next(a + 1) {
		if math.IsInf(g.prior, 1) {
			scores[a] = g.logp[a]
		} else if !math.IsInf(g.logp[a], -1) {
			scores[a] += g.prior * g.logp[a]
		} else {
			scores[a] = math.Inf(-1)
		}
	}
}
