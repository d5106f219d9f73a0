package policy

import (
	"math"
	"slices"

	"github.com/patience-gym/patience/env"
)

// The stages a Scorer is built from, each read from its own part of the
// metadata. A stage a file does not use is the identity: a file without
// any plays its network's output as it is.

// link turns the network's output into a score (value_link, value_floor):
// the output itself, or log σ(output), less log f and capped at 0 with a
// floor f.
type link struct {
	logSigmoid bool
	floor      bool
	logFloor   float64
}

func newLink(m *Meta) link {
	l := link{logSigmoid: m.ValueLink == LinkLogSigmoid}
	if l.logSigmoid && m.ValueFloor > 0 {
		l.floor, l.logFloor = true, math.Log(m.ValueFloor)
	}
	return l
}

func (l link) score(v float64) float64 {
	if !l.logSigmoid {
		return v
	}
	s := logSigmoid(v)
	if l.floor {
		s = min(0, s-l.logFloor)
	}
	return s
}

// logSigmoid is log σ(v) = −log(1 + e^−v), computed without overflow.
func logSigmoid(v float64) float64 {
	if v >= 0 {
		return -math.Log1p(math.Exp(-v))
	}
	return v - math.Log1p(math.Exp(v))
}

// weighing adds the game's evaluation (eval_weight) and its terms
// (eval_terms, in the order of spec.Terms; nil for none) to the score.
type weighing struct {
	eval  float64
	terms []float64
}

func newWeighing(m *Meta, spec *env.Spec) weighing {
	return weighing{eval: m.EvalWeight, terms: termVector(m.EvalTerms, spec, nil)}
}

// opening weighs the terms by other weights while the position moved from
// has placed less than until of the cards (eval_terms_opening over
// eval_terms, opening_progress); terms is nil for a file without one.
type opening struct {
	terms []float64
	until float64
}

func newOpening(m *Meta, spec *env.Spec, late []float64) opening {
	if len(m.OpeningTerms) == 0 || late == nil {
		return opening{}
	}
	return opening{terms: termVector(m.OpeningTerms, spec, slices.Clone(late)), until: m.OpeningProgress}
}

// weights returns the term weights of the moves from position from: the
// opening's while it lasts, else late.
func (o opening) weights(from *env.Env, late []float64) []float64 {
	if o.terms != nil && from.ProgressFraction() < o.until {
		return o.terms
	}
	return late
}

// termVector returns the weights by name in the order of spec.Terms, over
// base (a term named sets its weight, the others keep base's; 0 with base
// nil), or base itself when there are none. Check has made sure that every
// name is spec's.
func termVector(byName map[string]float64, spec *env.Spec, base []float64) []float64 {
	if len(byName) == 0 {
		return base
	}
	if base == nil {
		base = make([]float64, len(spec.Terms))
	}
	for i, t := range spec.Terms {
		if x, ok := byName[t.Name]; ok {
			base[i] = x
		}
	}
	return base
}

// lookahead is the number of reshuffled copies of a position a move is
// scored on (lookahead_samples; 1 when the file does not say).
type lookahead struct{ samples int }

func newLookahead(m *Meta) lookahead { return lookahead{samples: max(1, m.LookaheadSamples)} }
