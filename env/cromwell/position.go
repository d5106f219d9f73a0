package cromwell

import "github.com/patience-gym/patience/env/cards"

// The position, for code that reasons about Cromwell beyond its rules (a
// search's dead tests and pruning): cheap accessors that allocate nothing,
// and one move the rules do not make on their own.

// Fans returns the cards of the fans: fans[f][k] is the card at depth k of
// fan f (0 the deepest), FanLen(f) of them, None above. The array is the
// game's own, valid until its next change: read it, never write it.
func (g *Game) Fans() *[NumFans][MaxDepth]cards.Card { return &g.fans }

// FanLen returns the number of cards in fan f.
func (g *Game) FanLen(f int) int { return int(g.n[f]) }

// FanLens returns the number of cards in each fan.
func (g *Game) FanLens() [NumFans]uint8 { return g.n }

// RunLen returns the length of the run on top of fan f: the cards from the
// top down that each lie on the card of their suit one rank higher (0 for
// an empty fan).
func (g *Game) RunLen(f int) int { return int(g.run[f]) }

// Foundations returns the foundations.
func (g *Game) Foundations() cards.Foundations { return g.found }

// Stage returns the stage of the swap.
func (g *Game) Stage() SwapStage { return g.swap }

// Midway reports that a move of several actions is under way: the swap
// has been begun and its two picks are not both made, so the next action
// continues it. Agents that judge a move by the position it leads to look
// through such positions to the end of the move.
func (g *Game) Midway() bool { return g.swap == SwapFirst || g.swap == SwapSecond }

// FirstPick returns the place of the swap's first card while the second is
// being picked (stage SwapSecond): SwapDepth*f + k for the card at depth k
// of fan f. It returns -1 in the other stages.
func (g *Game) FirstPick() int { return int(g.pick) }

// Follows reports that card up, lying on card down, continues a run: the
// same suit, one rank lower.
func Follows(down, up cards.Card) bool { return follows(down, up) }

// Decode splits action a into its kind (ActFoundation, ActMove,
// ActSwapBegin or ActSwap) and operands: the fan for ActFoundation; the
// source and destination fans for ActMove; the fan and depth of the pick
// for ActSwap.
func Decode(a int) (kind, x, y int) { return decode(a) }

// MoveCards moves the top k cards of fan from onto fan to, keeping their
// order, whatever card lies on top of to: a build that the rules do not
// make, for a search that plays a form of the game of its own (a card that
// stands for another). The caller keeps fans within MaxDepth cards.
func (g *Game) MoveCards(from, to, k int) { g.moveCards(from, to, k) }
