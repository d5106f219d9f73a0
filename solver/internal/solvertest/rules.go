package solvertest

import (
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
)

// Position is what Rules asks of the position it forwards to: a game with
// the heuristic agent's evaluation, its cards and a picture.
type Position interface {
	env.Game
	env.Evaluator
	Inventory(dst []cards.Card) []cards.Card
	Render() string
}

// Rules forwards the rules of a game, its cards, its picture and the
// heuristic agent's evaluation to a position P of type T (PT is *T), and
// nothing else. A test embeds it in a type of its own, which adds Clone,
// CopyFrom and the forwarders of the search knowledge it keeps, to give the
// solver P without the rest of its knowledge (its SearchEvaluate, say).
type Rules[T any, PT interface {
	*T
	Position
}] struct {
	// P is the position forwarded to.
	P T
}

func (g *Rules[T, PT]) p() PT { return PT(&g.P) }

// Spec forwards to P.
func (g *Rules[T, PT]) Spec() *env.Spec { return g.p().Spec() }

// Deal forwards to P.
func (g *Rules[T, PT]) Deal(seed uint64) { g.p().Deal(seed) }

// Legal forwards to P.
func (g *Rules[T, PT]) Legal(m *env.Mask) { g.p().Legal(m) }

// Explain forwards to P.
func (g *Rules[T, PT]) Explain(a int) error { return g.p().Explain(a) }

// Apply forwards to P.
func (g *Rules[T, PT]) Apply(a int) { g.p().Apply(a) }

// Progress forwards to P.
func (g *Rules[T, PT]) Progress() int { return g.p().Progress() }

// Won forwards to P.
func (g *Rules[T, PT]) Won() bool { return g.p().Won() }

// Observe forwards to P.
func (g *Rules[T, PT]) Observe(dst []uint8) { g.p().Observe(dst) }

// Inventory forwards to P.
func (g *Rules[T, PT]) Inventory(dst []cards.Card) []cards.Card { return g.p().Inventory(dst) }

// Hash forwards to P.
func (g *Rules[T, PT]) Hash() uint64 { return g.p().Hash() }

// ActionString forwards to P.
func (g *Rules[T, PT]) ActionString(a int) string { return g.p().ActionString(a) }

// ParseActions forwards to P.
func (g *Rules[T, PT]) ParseActions(s string) ([]int, error) { return g.p().ParseActions(s) }

// Render forwards to P.
func (g *Rules[T, PT]) Render() string { return g.p().Render() }

// Evaluate forwards to P.
func (g *Rules[T, PT]) Evaluate() float64 { return g.p().Evaluate() }
