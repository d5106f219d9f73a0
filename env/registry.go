package env

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

var registry struct {
	sync.RWMutex
	games map[string]entry
}

type entry struct {
	spec    *Spec
	newGame func() Game
}

// Register makes a game available to Make under spec.Name. Game packages call
// it from init. It panics on an invalid spec, a duplicate name, or hidden cards
// without a Determinizer: all are programming errors.
func Register(spec *Spec, newGame func() Game) {
	if err := spec.validate(); err != nil {
		panic(err)
	}
	if Normalize(spec.Name) != spec.Name {
		panic(fmt.Sprintf("env: invalid game name %q (want lower-case letters and digits)", spec.Name))
	}
	if _, ok := newGame().(Determinizer); spec.Hidden && !ok {
		panic("env: game " + spec.Name + " hides cards but does not implement Determinizer")
	}
	registry.Lock()
	defer registry.Unlock()
	if registry.games == nil {
		registry.games = map[string]entry{}
	}
	if _, dup := registry.games[spec.Name]; dup {
		panic("env: game registered twice: " + spec.Name)
	}
	registry.games[spec.Name] = entry{spec: spec, newGame: newGame}
}

// RegisterGame is Register for a game package's constructor, which returns
// its own game type: a game package calls
//
//	func init() { env.RegisterGame(spec, New) }
//
// and the compiler checks that the type implements Game.
func RegisterGame[G Game](spec *Spec, newGame func() G) {
	Register(spec, func() Game { return newGame() })
}

// Normalize turns a name as a person writes it into a registry name: "Royal
// Parade", "royal-parade" or "ROYALPARADE" become "royalparade". Games and
// agents are both named this way.
func Normalize(name string) string {
	var sb strings.Builder
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			sb.WriteRune(r)
		}
	}
	return sb.String()
}

func lookup(name string) (entry, error) {
	registry.RLock()
	defer registry.RUnlock()
	if e, ok := registry.games[Normalize(name)]; ok {
		return e, nil
	}
	known := "none (import github.com/patience-gym/patience/env/all)"
	if len(registry.games) > 0 {
		known = strings.Join(namesLocked(), ", ")
	}
	return entry{}, fmt.Errorf("unknown game %q; the known games are: %s", name, known)
}

// Make returns a new Env for the named game. Names are matched ignoring case,
// spaces and dashes; an unknown name is an error listing the known ones. A
// variant of the rules is chosen by opts.Variant or by naming the game
// "game:variant" (both at once must agree).
func Make(name string, opts Options) (*Env, error) {
	g, err := NewGameOf(name, opts.Variant)
	if err != nil {
		return nil, err
	}
	spec := g.Spec()
	if opts.MaxSteps < 0 {
		return nil, fmt.Errorf("%s: step limit %d is negative", spec.ID(), opts.MaxSteps)
	}
	if opts.Reward > RewardSparse {
		return nil, fmt.Errorf("%s: unknown reward mode %d", spec.ID(), opts.Reward)
	}
	return New(g, opts), nil
}

// NewGame returns a fresh Game of the named game (not yet dealt); the name
// may carry a variant, "cromwell:noswap".
func NewGame(name string) (Game, error) { return NewGameOf(name, "") }

// NewGameOf returns a fresh Game of the named game under the given variant
// of its rules ("" for the default, or the variant the name carries after a
// colon). An unknown variant is an error listing the game's variants.
func NewGameOf(name, variant string) (Game, error) {
	base, v, hasV := strings.Cut(name, ":")
	switch {
	case hasV && variant != "" && !strings.EqualFold(strings.TrimSpace(v), strings.TrimSpace(variant)):
		return nil, fmt.Errorf("game %q names variant %q, but variant %q was asked for", name, v, variant)
	case hasV:
		variant = v
	}
	e, err := lookup(base)
	if err != nil {
		return nil, err
	}
	g := e.newGame()
	variant = strings.ToLower(strings.TrimSpace(variant))
	if variant == "" {
		return g, nil
	}
	vr, ok := g.(Varianter)
	if !ok {
		return nil, fmt.Errorf("%s has no variants (asked for %q)", e.spec.Name, variant)
	}
	if err := vr.SetVariant(variant); err != nil {
		return nil, fmt.Errorf("%s: %w (the variants are: %s)", e.spec.Name, err, strings.Join(vr.Variants(), ", "))
	}
	if err := g.Spec().validate(); err != nil {
		return nil, fmt.Errorf("%s variant %s: %w", e.spec.Name, variant, err)
	}
	return g, nil
}

// Variants returns the names of the named game's variants besides its
// default rules (none for most games).
func Variants(name string) ([]string, error) {
	e, err := lookup(name)
	if err != nil {
		return nil, err
	}
	if vr, ok := e.newGame().(Varianter); ok {
		return vr.Variants(), nil
	}
	return nil, nil
}

// Lookup returns the Spec of the named game; "game:variant" returns the
// variant's.
func Lookup(name string) (*Spec, error) {
	if strings.Contains(name, ":") {
		g, err := NewGame(name)
		if err != nil {
			return nil, err
		}
		return g.Spec(), nil
	}
	e, err := lookup(name)
	if err != nil {
		return nil, err
	}
	return e.spec, nil
}

// Names returns the registered game names, sorted.
func Names() []string {
	registry.RLock()
	defer registry.RUnlock()
	return namesLocked()
}

func namesLocked() []string {
	names := make([]string, 0, len(registry.games))
	for n := range registry.games {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Specs returns the Specs of the registered games, sorted by name.
func Specs() []*Spec {
	registry.RLock()
	defer registry.RUnlock()
	var out []*Spec
	for _, n := range namesLocked() {
		out = append(out, registry.games[n].spec)
	}
	return out
}
