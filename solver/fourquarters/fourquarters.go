// Package fourquarters is the solver's knowledge of Four Quarters
// (package env/fourquarters holds the rules): a position type that wraps
// the rules' game and adds dead tests (Dead, DeadAtStart) and pruning
// (Prune). Importing it registers it with package solver, which then
// searches every game of Four Quarters through it. The solver sees the
// stock: its verdicts are upper bounds on what a player can do.
//
// What the knowledge rests on: a card leaves the cross only in a pair of
// one arm (in the variant hub, also in a pair of two cells next to the
// hub), and an arm changes only by its own pairs and by closing up, which
// slides its files toward the hub and refills its empty cells from the
// stock. So
//   - the arms' parity (parity.go): an arm with an odd number of cards of
//     a rank keeps one of them unless the stock gives it another;
//   - frozen arms (frozen.go): an arm that holds cards, has no pair and
//     that closing up would not change never changes again, so its cards
//     stay;
//   - one arm a round (prune.go): pairs removed in several arms before one
//     close-up are the same as each arm's pairs removed and closed up on
//     its own, the arms in the order of the refill, so a search removes
//     pairs in one arm between close-ups, in one order; and since such a
//     round refills its arm from the stock's top, the search knows before
//     closing up whether the arm will be frozen or the parity past
//     mending, and leaves out the close-ups, and the arms all of whose
//     rounds, that lead to such dead positions;
//   - ranks, not cards (key.go): suits never matter, so the transposition
//     table remembers a position by the ranks in its cells.
package fourquarters

import (
	"github.com/patience-gym/patience/env"
	rules "github.com/patience-gym/patience/env/fourquarters"
	"github.com/patience-gym/patience/solver"
)

func init() { solver.Register(rules.Spec().Name, solver.WrapperOf(New)) }

// Technique names one piece of the knowledge, so that a measurement or a
// test can switch it off (NewWith).
type Technique uint8

// The techniques.
const (
	// Parity is the dead test of the arms' parity (parity.go).
	Parity Technique = 1 << iota
	// Frozen is the dead test of frozen arms (frozen.go).
	Frozen
	// OneArm is the pruning to one arm a round (prune.go).
	OneArm
	// RankKeys keys positions by ranks, not cards (key.go).
	RankKeys
	// Lookahead leaves out, with OneArm, the close-ups and rounds that
	// lead to dead positions (prune.go).
	Lookahead
	// ProofFirst gives the default rules' search one line before the
	// exhaustive pass instead of the solver's limited passes (passes.go).
	ProofFirst
	// All is every technique.
	All = Parity | Frozen | OneArm | RankKeys | Lookahead | ProofFirst
)

// Position is a game of Four Quarters as the solver searches it: the
// rules' game, the techniques in use, and what DeadAtStart noted about the
// position a search starts from.
type Position struct {
	rules.Game
	use Technique
	// regular is set when no arm of the position the search starts from
	// is in the middle of a round: closing up would change nothing in it
	// (prune.go). DeadAtStart sets it; New sets it for g.
	regular bool
}

// New returns g's position (a copy of g) for a search, with every
// technique.
func New(g *rules.Game) *Position { return NewWith(g, All) }

// NewWith returns g's position (a copy of g) for a search with the
// techniques use only.
func NewWith(g *rules.Game, use Technique) *Position {
	p := &Position{Game: *g, use: use}
	p.regular = p.calm()
	return p
}

// Clone returns an independent copy.
func (g *Position) Clone() env.Game { c := *g; return &c }

// CopyFrom makes g a copy of src (a *Position).
func (g *Position) CopyFrom(src env.Game) { *g = *src.(*Position) }

// hub reports whether g plays the variant hub, in which the cells next to
// the hub pair across arms.
func (g *Position) hub() bool { return g.Spec().Variant == rules.VariantHub }

// Dead reports a position from which no first-class win (every card
// removed) is possible: by the arms' parity (parity.go) or a frozen arm
// (frozen.go), where those techniques are in use. It reads the stock (the
// test serves clairvoyant search).
func (g *Position) Dead() bool {
	if g.use&Parity != 0 && g.parityDead() {
		return true
	}
	return g.use&Frozen != 0 && g.frozenDead()
}

// DeadAtStart is Dead, run on the position a search starts from; it also
// notes whether that position is regular, which the pruning needs
// (prune.go).
func (g *Position) DeadAtStart() bool {
	g.regular = g.calm()
	return g.Dead()
}
