package policy

import (
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
)

// Scorer is a value file's score of the positions an agent looks at,
// composed of the file's stages, each read from its own part of the
// metadata (docs/models.md):
//
//   - the link (value_link, value_floor): the network's output as a score,
//     Value;
//   - the weighing (eval_weight, eval_terms): the game's evaluation over
//     its cards and its terms added to it, Score;
//   - the opening (eval_terms_opening, opening_progress): other term
//     weights early in a game, chosen by From;
//   - the look-ahead (lookahead_samples): each move scored by its mean
//     over reshuffled copies of the position, LookAhead.
//
// What a finished game, a dead end or a repeated position is worth is the
// agent's to add. A Scorer holds the buffers of one goroutine, as its Net
// does; scoring allocates nothing.
type Scorer struct {
	net   *Net
	link  link
	weigh weighing
	open  opening
	look  lookahead
	cur   []float64 // the term weights From chose, nil for none
	terms []float64 // the terms of the position being scored
}

// NewScorer returns the scorer of n's model for n's game (NewNet has
// checked the file against the game).
func NewScorer(n *Net) *Scorer {
	meta, spec := &n.m.meta, n.spec
	s := &Scorer{net: n, link: newLink(meta), weigh: newWeighing(meta, spec), look: newLookahead(meta),
		terms: make([]float64, len(spec.Terms))}
	s.open = newOpening(meta, spec, s.weigh.terms)
	s.cur = s.weigh.terms
	return s
}

// Net returns the network the scorer evaluates.
func (s *Scorer) Net() *Net { return s.net }

// EvalWeight returns the file's weight of the game's evaluation
// (eval_weight), 0 for none: with one, Score is the position's score.
func (s *Scorer) EvalWeight() float64 { return s.weigh.eval }

// LogLink reports whether the link is logsigmoid: Value is then the log of
// a probability, at most 0, and a lost game is worth less than any
// running position.
func (s *Scorer) LogLink() bool { return s.link.logSigmoid }

// Value returns the network's score of the position observed: its output
// through the file's link. It does not allocate.
func (s *Scorer) Value(obs []uint8) float64 { return s.link.score(float64(s.net.Value(obs))) }

// From chooses the term weights of the moves from position from: the
// opening's while from has placed less of the cards than the opening's
// end, else eval_terms'. All the moves of one position are scored with the
// same weights.
func (s *Scorer) From(from *env.Env) { s.cur = s.open.weights(from, s.weigh.terms) }

// Score returns the score of position e whose evaluation (with or without
// the agent's bonuses) is ev: Value, plus the eval weight times ev over
// the game's cards, plus each of e's terms times its weight (From first,
// for the position moved from). It does not allocate.
func (s *Scorer) Score(e *env.Env, ev float64) float64 {
	v := s.Value(e.Observation()) + s.weigh.eval*ev/float64(e.Spec().Cards)
	if s.cur != nil && e.Terms(s.terms) {
		for i, w := range s.cur {
			v += w * s.terms[i]
		}
	}
	return v
}

// Samples returns the number of reshuffled copies LookAhead scores a move
// on: the file's lookahead_samples, or 1.
func (s *Scorer) Samples() int { return s.look.samples }

// Sampler draws into dst a copy of the position an agent moves from, with
// the hidden cards reshuffled by rng (agents.View does).
type Sampler interface {
	Sample(dst *env.Env, rng *cards.Rand)
}

// LookAhead scores every move of mask by its mean over Samples() copies of
// the position: for each copy, drawn by from into dst with rng, it calls
// score(dst), which adds to scores the score of each move of mask on that
// copy; scores holds the means after. It does not allocate.
func (s *Scorer) LookAhead(from Sampler, rng *cards.Rand, dst *env.Env, mask *env.Mask, scores []float64, score func(copy *env.Env)) {
	for a := mask.Next(0); a >= 0; a = mask.Next(a + 1) {
		scores[a] = 0
	}
	k := s.look.samples
	for range k {
		from.Sample(dst, rng)
		score(dst)
	}
	for a := mask.Next(0); a >= 0; a = mask.Next(a + 1) {
		scores[a] /= float64(k)
	}
}
