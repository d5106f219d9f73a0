package render

import "github.com/patience-gym/patience/env"

// Layouter is implemented by games that can describe their table for
// pictures: where each card a player sees lies, which cards are face down,
// the empty places, and the game's own marks. This package draws any
// Layouter as SVG or as an image; a game describes, the renderer draws.
// The words of a description (env.Table, env.Spot) are package env's, so
// that a game's rules package never imports the renderer.
//
// A layout shows exactly what the observation shows: a hidden card is a
// face-down back with no identity (cards.FaceDown), so a Determinize never
// changes a layout.
type Layouter interface {
	// Layout describes the table as it is now into t (reset first, its
	// slices reused). t.Width and t.Height are the same for every state of
	// the game, so pictures of one game all have one size.
	Layout(t *env.Table)
	// ActionSpots says where action a takes a card from and puts it, as
	// the places of the layout name them, whether or not a is legal now:
	// the card clicked to choose the move (from) and the place clicked to
	// finish it (to). to.Place is "" when a click on from alone plays the
	// action (turning the stock, a pick); from.Place is "" when the action
	// has no card to click (it is chosen by its name only). The spots may
	// depend on the state (which foundation a card goes to, where a tail
	// of a row begins).
	ActionSpots(a int) (from, to env.Spot)
}

// LayoutOf returns g's Layouter, or false when the game cannot be drawn.
func LayoutOf(g env.Game) (Layouter, bool) {
	l, ok := g.(Layouter)
	return l, ok
}
