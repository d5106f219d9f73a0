// Package faultgame registers, for tests only, a game that panics on
// demand: a copy of another game's rules whose Apply panics once when armed
// for the deal being played. It lets tests prove that a panic in a game's
// rules (a bug) comes back to a caller as an error instead of crashing the
// process, in the calling goroutine and in a vector's worker goroutines.
//
// Nothing in a normal build imports it: package env's tests do, and the C
// library imports it only when built with the tag pgfault (capi/fault.go),
// which the Python package's own build never sets.
package faultgame

import (
	"fmt"
	"sync/atomic"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
)

// Fault arms the panics of one registered faulty game.
type Fault struct {
	deal atomic.Int64 // the armed deal, or -1
}

// Arm makes the next Apply on a game dealt deal panic, once. A deal that
// does not fit in an int64 cannot be armed.
func (f *Fault) Arm(deal uint64) { f.deal.Store(int64(deal)) }

// fire reports whether the fault is armed for deal, disarming it.
func (f *Fault) fire(deal uint64) bool {
	d := int64(deal)
	return d >= 0 && f.deal.CompareAndSwap(d, -1)
}

// Register registers the game name, the rules of the registered game base
// (its default rules) with a Fault, and returns the Fault.
func Register(name, base string) *Fault {
	g, err := env.NewGame(base)
	if err != nil {
		panic(err)
	}
	spec := *g.Spec()
	spec.Name = name
	spec.Title = "Faulty " + spec.Title
	f := &Fault{}
	f.deal.Store(-1)
	env.Register(&spec, func() env.Game {
		g, err := env.NewGame(base)
		if err != nil {
			panic(err)
		}
		return &game{Game: g, f: f, spec: &spec}
	})
	return f
}

// game is the base game with a fault.
type game struct {
	env.Game
	f    *Fault
	spec *env.Spec
	deal uint64
}

func (g *game) Spec() *env.Spec { return g.spec }

func (g *game) Deal(seed uint64) {
	g.deal = seed
	g.Game.Deal(seed)
}

func (g *game) Apply(a int) {
	if g.f.fire(g.deal) {
		panic(fmt.Sprintf("faultgame: the fault armed for deal %d", g.deal))
	}
	g.Game.Apply(a)
}

func (g *game) Clone() env.Game {
	return &game{Game: g.Game.Clone(), f: g.f, spec: g.spec, deal: g.deal}
}

func (g *game) CopyFrom(src env.Game) {
	s := src.(*game)
	g.Game.CopyFrom(s.Game)
	g.deal = s.deal
}

// Determinize passes on to the base game when it hides cards.
func (g *game) Determinize(rng *cards.Rand) {
	if d, ok := g.Game.(env.Determinizer); ok {
		d.Determinize(rng)
	}
}
