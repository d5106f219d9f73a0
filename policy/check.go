package policy

import (
	"fmt"
	"strings"

	"github.com/patience-gym/patience/env"
)

// Check returns an error, naming both values, unless the model was made for
// the game spec describes: the same game, rules version, observation
// length, one-hot length and action count (and a card-embedding model's
// input width), terms the game has, stacks within its card cells, and a
// look-ahead over reshuffles only where cards are hidden.
func (m *Model) Check(spec *env.Spec) error {
	mm := &m.meta
	switch {
	case mm.Game != spec.Name:
		return fmt.Errorf("%s was trained for %s, not %s", m, mm.Game, spec.Name)
	case mm.RulesVersion != spec.RulesVersion:
		return fmt.Errorf("%s was trained under %s rules version %d; this build plays rules version %d", m, mm.Game, mm.RulesVersion, spec.RulesVersion)
	case mm.ObsLen != spec.ObsLen:
		return fmt.Errorf("%s: obs_len is %d, but %s's observations have %d cells", m, mm.ObsLen, spec.Name, spec.ObsLen)
	case mm.OneHotLen != spec.OneHotLen():
		return fmt.Errorf("%s: onehot_len is %d, but %s's one-hot observation has %d inputs", m, mm.OneHotLen, spec.Name, spec.OneHotLen())
	case mm.Actions != spec.Actions:
		return fmt.Errorf("%s: actions is %d, but %s has %d actions", m, mm.Actions, spec.Name, spec.Actions)
	case mm.encoding() == EncodingCards && mm.InputLen != CardInputLen(spec, mm.CardDim):
		return fmt.Errorf("%s: input_len is %d, but %s's cells with card_dim %d make a first-layer input of %d",
			m, mm.InputLen, spec.Name, mm.CardDim, CardInputLen(spec, mm.CardDim))
	}
	if mm.LookaheadSamples > 1 && !spec.Hidden {
		return fmt.Errorf("%s looks ahead on %s=%d copies, but %s has no hidden cards: its one copy is exact (want %s 1 or none)",
			m, KeyLookaheadSamples, mm.LookaheadSamples, spec.Name, KeyLookaheadSamples)
	}
	// Every term the file weighs is one of the game's.
	for _, terms := range []map[string]float64{mm.EvalTerms, mm.OpeningTerms} {
		for name := range terms {
			if spec.TermIndex(name) < 0 {
				return fmt.Errorf("%s weighs the evaluation term %q; %s", m, name, termList(spec))
			}
		}
	}
	// Each stack group lies within one card segment.
	for _, g := range mm.Stacks {
		ok := false
		for _, seg := range spec.Segments {
			if seg.Card && g.Offset >= seg.Offset && g.Offset+g.Count*g.Height <= seg.Offset+seg.Len {
				ok = true
			}
		}
		if !ok {
			return fmt.Errorf("%s: stacks %d:%d:%d (cells %d to %d) do not lie within one of %s's card segments",
				m, g.Offset, g.Count, g.Height, g.Offset, g.Offset+g.Count*g.Height-1, spec.Name)
		}
	}
	return nil
}

// termList says which evaluation terms spec's game has.
func termList(spec *env.Spec) string {
	if len(spec.Terms) == 0 {
		return spec.Name + "'s evaluation has no named terms"
	}
	names := make([]string, len(spec.Terms))
	for i, t := range spec.Terms {
		names[i] = t.Name
	}
	return spec.Name + "'s are " + strings.Join(names, ", ")
}
