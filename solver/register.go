package solver

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/patience-gym/patience/env"
)

// A game's search knowledge lives in a package of its own beside the
// solver (solver/cromwell, for example), never in the game's rules
// package: that package declares a position type that wraps the rules'
// game and implements the optional interfaces of knowledge.go, and
// registers, in its init, how to wrap a game of its name. Solve wraps the
// game it is given where one is registered and searches the plain rules
// otherwise. Import solver/all for every game's knowledge.

var (
	wrapMu   sync.RWMutex
	wrappers = map[string]func(env.Game) env.Game{}
	sets     = map[string]map[string]func(env.Game) env.Game{} // by game, then set
)

// Register makes wrap the search knowledge of the game named name (its
// Spec().Name; every variant of the game goes through the same wrap). wrap
// is given the game a search is asked to decide and returns a new position
// of its own type that holds a copy of it, or nil to leave the game as it
// is (a type it does not know, or a position of its own already). The
// position it returns plays by the rules of the game it wraps (the same
// Spec, legal actions, effects, hash and progress), except where it is a
// LineMapper after DeadAtStart. A search package calls Register from its
// init, as image/png registers its format with package image; Register
// panics if name is registered twice.
func Register(name string, wrap func(g env.Game) env.Game) {
	wrapMu.Lock()
	defer wrapMu.Unlock()
	if _, dup := wrappers[name]; dup {
		panic(fmt.Sprintf("solver: search knowledge of %q registered twice", name))
	}
	wrappers[name] = wrap
}

// WrapperOf returns the wrap a search package gives Register when its
// position type holds a copy of the rules' game (of type R, a pointer): it
// wraps an R with newPosition (which copies it) and leaves any other game
// as it is (nil), a position of its own type included.
func WrapperOf[R, P env.Game](newPosition func(R) P) func(env.Game) env.Game {
	return func(g env.Game) env.Game {
		if rg, ok := g.(R); ok {
			return newPosition(rg)
		}
		return nil
	}
}

// Wrap returns g as a search sees it: a copy of g wrapped in its game's
// search knowledge where a package registered one (see Register), and g
// itself otherwise.
func Wrap(g env.Game) env.Game {
	wrapMu.RLock()
	wrap := wrappers[g.Spec().Name]
	wrapMu.RUnlock()
	if wrap == nil {
		return g
	}
	if w := wrap(g); w != nil {
		return w
	}
	return g
}

// RegisterSet makes wrap another set of search knowledge of the game
// named name, beside its default (Register): set names it for
// Options.Knowledge and the command line (`patience solve --knowledge
// SET`). A search package offers such a set for techniques that find
// other verdicts than its default but are left out of it (each package
// says why); wrap is as Register's. RegisterSet panics if the set is
// registered twice or its name is empty.
func RegisterSet(name, set string, wrap func(g env.Game) env.Game) {
	wrapMu.Lock()
	defer wrapMu.Unlock()
	if set == "" {
		panic(fmt.Sprintf("solver: a set of search knowledge of %q without a name", name))
	}
	if _, dup := sets[name][set]; dup {
		panic(fmt.Sprintf("solver: search knowledge %q of %q registered twice", set, name))
	}
	if sets[name] == nil {
		sets[name] = map[string]func(env.Game) env.Game{}
	}
	sets[name][set] = wrap
}

// KnowledgeSets returns the names of the sets of search knowledge
// registered for the game named name beside its default (RegisterSet),
// in order.
func KnowledgeSets(name string) []string {
	wrapMu.RLock()
	defer wrapMu.RUnlock()
	names := make([]string, 0, len(sets[name]))
	for set := range sets[name] {
		names = append(names, set)
	}
	slices.Sort(names)
	return names
}

// CheckKnowledge reports an error unless set is "" (the default
// knowledge) or a set registered for the game named name: the check of
// Options.Knowledge for that game, which the command line makes before
// any search.
func CheckKnowledge(name, set string) error {
	if set == "" {
		return nil
	}
	wrapMu.RLock()
	_, ok := sets[name][set]
	wrapMu.RUnlock()
	if !ok {
		if have := KnowledgeSets(name); len(have) > 0 {
			return fmt.Errorf("%s has no search knowledge %q (it has %s)", name, set, strings.Join(have, ", "))
		}
		return fmt.Errorf("%s has no search knowledge %q (only its default)", name, set)
	}
	return nil
}

// wrapSet returns g wrapped in the set of its game's search knowledge
// named set (Wrap's for ""), and false if its game has no such set.
func wrapSet(g env.Game, set string) (env.Game, bool) {
	if set == "" {
		return Wrap(g), true
	}
	wrapMu.RLock()
	wrap := sets[g.Spec().Name][set]
	wrapMu.RUnlock()
	if wrap == nil {
		return g, false
	}
	if w := wrap(g); w != nil {
		return w, true
	}
	return g, true
}

// Knows reports whether search knowledge is registered for the game named
// name (see Register). A program that must give the full solver's verdicts
// (the verdict tables, the solver's labels) checks it, so that a caller
// who forgot to import solver/all gets an error rather than the plain
// search's weaker verdicts.
func Knows(name string) bool {
	wrapMu.RLock()
	defer wrapMu.RUnlock()
	return wrappers[name] != nil
}

// ErrNoKnowledge is returned (wrapped) by programs that need a game's
// search knowledge when none is registered: the program's main package
// must import github.com/patience-gym/patience/solver/all.
var ErrNoKnowledge = errors.New("no search knowledge is registered for this game (import github.com/patience-gym/patience/solver/all in the main package)")
