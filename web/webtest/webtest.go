// Package webtest holds the hand-built position the browser game's tests
// play: a Cromwell ending won in four moves.
package webtest

import (
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/env/cromwell"
)

// Position returns a Cromwell game four moves from a win, wrapped in an Env
// (deal number 1): clubs and diamonds are home, hearts up to the queen,
// spades up to the ten; fan 1 holds J♠, fan 2 K♥ under Q♠, fan 3 K♠. One
// winning line is 1>F, 2>F (Q♠), 2>F (K♥), 3>F; 1>2 (J♠ onto Q♠) and 2>3
// (Q♠ onto K♠) are legal too, and an emptied fan is never refilled.
func Position() *env.Env {
	g := cromwell.New()
	g.SetFans(cards.MustParseList("JS"), cards.MustParseList("KH QS"), cards.MustParseList("KS"))
	g.SetFoundation(cards.Clubs, 13, 13)
	g.SetFoundation(cards.Diamonds, 13, 13)
	g.SetFoundation(cards.Hearts, 13, 12)
	g.SetFoundation(cards.Spades, 13, 10)
	return env.FromPosition(g, 1, env.Options{})
}
