// Package check verifies a registered game against the properties every game
// must keep, by playing many seeded random games: each of the 104 cards in
// exactly one place at every step, an exact action mask, independent clones,
// equal hashes for equal states, the same game from the same seed, and
// determinizations that leave the observation and the mask unchanged and
// depend only on what a player sees.
//
// It also checks that every action id's name parses back to that id.
//
// Every game's tests call Run, and so does `patience check`.
package check

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/internal/runner"
)

// Options tune a check.
type Options struct {
	// Games is the number of random games to play (default 100).
	Games int
	// SeedStart is the first deal; games use SeedStart, SeedStart+1, ...
	SeedStart uint64
	// MaxSteps overrides the game's step limit when positive.
	MaxSteps int
	// MaxFailures stops the check after this many failures (default 20).
	MaxFailures int
	// Workers is the number of goroutines playing games at once (default
	// 1); each plays a contiguous run of the deals, and Run merges their
	// reports in the order of the deals.
	Workers int
	// Progress, if set, is called after each game with the number of games
	// done so far; calls never overlap.
	Progress func(done int)
}

// Report is what a check found.
type Report struct {
	Game       string
	Games      int
	Steps      int
	Wins       int
	Truncated  int
	Hidden     int // determinizations that changed the hidden cards
	Determined int // determinizations tried
	Failures   []string
}

// OK reports whether no property failed.
func (r *Report) OK() bool { return len(r.Failures) == 0 }

// Err returns nil when the check passed, or an error listing the failures.
func (r *Report) Err() error {
	if r.OK() {
		return nil
	}
	return fmt.Errorf("%s: %d failures:\n  %s", r.Game, len(r.Failures), strings.Join(r.Failures, "\n  "))
}

// String summarises the report on one line.
func (r *Report) String() string {
	status := "ok"
	if !r.OK() {
		status = fmt.Sprintf("FAIL (%d)", len(r.Failures))
	}
	return fmt.Sprintf("%-13s %s  games %d  steps %d  wins %d  truncated %d  determinizations %d (%d changed hidden cards)",
		r.Game, status, r.Games, r.Steps, r.Wins, r.Truncated, r.Determined, r.Hidden)
}

type checker struct {
	// ctx, when set, stops a game at its next step once cancelled.
	ctx context.Context
	// choose picks the next action among the legal ones, or returns -1 to
	// stop the game there (nil: uniformly at random).
	choose func(m *env.Mask) int
	name   string
	opts   Options
	rep    *Report
	rng    *cards.Rand
	inv    []cards.Card
	terms  [2][]float64 // a position's evaluation terms, and its determinization's
	seed   uint64
	step   int
}

func (c *checker) failf(format string, args ...any) {
	if len(c.rep.Failures) >= c.opts.MaxFailures {
		return
	}
	c.rep.Failures = append(c.rep.Failures, fmt.Sprintf("deal %d step %d: ", c.seed, c.step)+fmt.Sprintf(format, args...))
}

func (c *checker) full() bool { return len(c.rep.Failures) >= c.opts.MaxFailures }

// Inventorier is what the checker needs of a game beyond env.Game: every
// game implements it, and Run refuses one that does not.
type Inventorier interface {
	// Inventory appends every card of the state with its real face, hidden
	// or not, including foundations and removed cards, to dst, so that the
	// checker can verify that each card exists exactly twice.
	Inventory(dst []cards.Card) []cards.Card
}

// inventoried refuses a game that is no Inventorier.
func inventoried(spec *env.Spec) error {
	g, err := env.NewGame(spec.ID())
	if err != nil {
		return err
	}
	if _, ok := g.(Inventorier); !ok {
		return fmt.Errorf("check: %s has no Inventory method (check.Inventorier): the checker cannot count its cards", spec.ID())
	}
	return nil
}

// Run checks the named game and returns its report; the error is for a game
// that cannot be made at all, or ctx's when it is cancelled (between two
// games).
func Run(ctx context.Context, name string, opts Options) (*Report, error) {
	if opts.Games <= 0 {
		opts.Games = 100
	}
	if opts.MaxFailures <= 0 {
		opts.MaxFailures = 20
	}
	workers := min(max(opts.Workers, 1), opts.Games)
	first, err := newChecker(name, opts)
	if err != nil {
		return nil, err
	}
	if err := first.names(); err != nil {
		return nil, err
	}
	// The games run on the project's runner, each worker with a checker
	// (and a report) of its own; the first worker's is first's.
	var (
		mu   sync.Mutex
		reps []*Report
	)
	err = runner.Run(ctx, runner.Task[*checker, struct{}]{
		Units: runner.Span(0, opts.Games), Workers: workers,
		NewWorker: func() (*checker, error) {
			mu.Lock()
			defer mu.Unlock()
			c := first
			if len(reps) > 0 {
				c = &checker{name: first.name, opts: opts, rep: &Report{Game: first.name}}
			}
			c.ctx = ctx
			reps = append(reps, c.rep)
			return c, nil
		},
		Do: func(ctx context.Context, c *checker, i int) (struct{}, error) {
			if c.full() {
				return struct{}{}, nil
			}
			if err := ctx.Err(); err != nil {
				return struct{}{}, err
			}
			return struct{}{}, c.game(opts.SeedStart + uint64(i))
		},
		Progress: func(done, _ int) {
			if opts.Progress != nil {
				opts.Progress(done)
			}
		},
	})
	if err != nil {
		return nil, err
	}
	total := &Report{Game: first.name}
	for _, r := range reps {
		total.Games += r.Games
		total.Steps += r.Steps
		total.Wins += r.Wins
		total.Truncated += r.Truncated
		total.Hidden += r.Hidden
		total.Determined += r.Determined
		total.Failures = append(total.Failures, r.Failures...)
	}
	if len(total.Failures) > opts.MaxFailures {
		total.Failures = total.Failures[:opts.MaxFailures]
	}
	return total, nil
}

// newChecker makes a checker, with a report of its own, of the named
// game, which must be registered and count its cards (inventoried).
func newChecker(name string, opts Options) (*checker, error) {
	spec, err := env.Lookup(name)
	if err != nil {
		return nil, err
	}
	if err := inventoried(spec); err != nil {
		return nil, err
	}
	return &checker{name: spec.ID(), opts: opts, rep: &Report{Game: spec.ID()}}, nil
}

// Sequence checks the named game as Run does, on one game: deal seed, with
// the actions data chooses. Byte i picks the legal action number data[i]
// modulo the number of legal actions; the game stops when the data runs
// out or the episode ends. Every property is checked at every step. It is
// the body of each game's fuzz target.
func Sequence(name string, seed uint64, data []byte, opts Options) (*Report, error) {
	if opts.MaxFailures <= 0 {
		opts.MaxFailures = 20
	}
	c, err := newChecker(name, opts)
	if err != nil {
		return nil, err
	}
	c.choose = func(m *env.Mask) int {
		if len(data) == 0 {
			return -1
		}
		a := m.Nth(int(data[0]) % m.Count())
		data = data[1:]
		return a
	}
	if err := c.game(seed); err != nil {
		return nil, err
	}
	return c.rep, nil
}

// names checks that every action id has a name that parses back to it
// alone (names do not depend on the state, so one game suffices).
func (c *checker) names() error {
	g, err := env.NewGame(c.name)
	if err != nil {
		return err
	}
	for a := 0; a < g.Spec().Actions && !c.full(); a++ {
		name := g.ActionString(a)
		ids, err := g.ParseActions(name)
		if err != nil || len(ids) != 1 || ids[0] != a {
			c.failf("action %d is named %q, which parses to %v (%v)", a, name, ids, err)
		}
	}
	return nil
}

func obsHash(obs []uint8) uint64 {
	h := fnv.New64a()
	h.Write(obs)
	return h.Sum64()
}

func (c *checker) game(seed uint64) error {
	c.seed, c.step = seed, 0
	c.rng = cards.NewRand(seed ^ 0x5eed5eed5eed5eed)
	e, err := env.Make(c.name, env.Options{MaxSteps: c.opts.MaxSteps})
	if err != nil {
		return err
	}
	twin, _ := env.Make(c.name, env.Options{MaxSteps: c.opts.MaxSteps})
	spec := e.Spec()
	obs0, _ := e.Reset(seed)
	first := append([]uint8(nil), obs0...)
	twin.Reset(seed)
	if string(twin.Observation()) != string(first) || twin.Hash() != e.Hash() {
		c.failf("two resets with the same seed give different states")
	}
	// Dealing again into a used state gives the same deal.
	twin.Reset(seed + 1)
	twin.Reset(seed)
	if twin.Hash() != e.Hash() {
		c.failf("re-dealing a used state gives a different state")
	}

	var actions []int
	ret := 0.0
	seen := map[uint64]uint64{}    // state hash -> observation hash (perfect information)
	seenObs := map[uint64]uint64{} // observation hash -> state hash (perfect information)
	scratch, _ := env.Make(c.name, env.Options{MaxSteps: c.opts.MaxSteps})
	other, _ := env.Make(c.name, env.Options{MaxSteps: c.opts.MaxSteps})
	for !e.Done() && !c.full() {
		if c.ctx != nil && c.ctx.Err() != nil {
			return c.ctx.Err()
		}
		c.state(e, spec, seen, seenObs, scratch, other)
		var a int
		if c.choose == nil {
			a = e.Mask().Nth(c.rng.IntN(e.Mask().Count()))
		} else if a = c.choose(e.Mask()); a < 0 {
			break
		}
		c.clone(e, a)
		c.illegal(e)
		before := e.Progress()
		obs, r, term, trunc, info, err := e.Step(a)
		if err != nil {
			c.failf("legal action %d (%s) refused: %v", a, e.ActionString(a), err)
			break
		}
		c.step++
		actions = append(actions, a)
		ret += r
		if info.Progress < before {
			c.failf("progress fell from %d to %d", before, info.Progress)
		}
		if term != (info.Outcome == env.Won || info.Outcome == env.Lost) || trunc != (info.Outcome == env.Truncated) {
			c.failf("terminated=%v truncated=%v but outcome %v", term, trunc, info.Outcome)
		}
		if term && !e.Game().Won() && !e.Mask().Empty() {
			c.failf("terminated while not won and with legal moves")
		}
		if len(obs) != spec.ObsLen {
			c.failf("observation length %d, spec says %d", len(obs), spec.ObsLen)
		}
	}
	if c.full() {
		return nil
	}
	c.state(e, spec, seen, seenObs, scratch, other)
	c.rep.Games++
	c.rep.Steps += e.Steps()
	switch e.Outcome() {
	case env.Won:
		c.rep.Wins++
		if e.Progress() != spec.Cards {
			c.failf("won with progress %d of %d", e.Progress(), spec.Cards)
		}
	case env.Truncated:
		c.rep.Truncated++
	}
	// The return is the final progress (the first step pays for what the
	// deal itself placed, as Royal Parade's dead aces).
	if ret != e.ProgressFraction() && len(actions) > 0 {
		c.failf("return %.6f differs from final progress %.6f", ret, e.ProgressFraction())
	}
	if e.Done() {
		if _, _, _, _, _, err := e.Step(e.Mask().Next(0)); err == nil {
			c.failf("a step after the end was accepted")
		}
	}
	// Same seed, same actions: same game.
	twin.Reset(seed)
	for i, a := range actions {
		if _, _, _, err := twin.Advance(a); err != nil {
			c.failf("replay of the same seed refused action %d at step %d: %v", a, i, err)
			return nil
		}
	}
	if twin.Hash() != e.Hash() || string(twin.Observation()) != string(e.Observation()) {
		c.failf("replaying the same seed and actions gives a different end state")
	}
	return nil
}

// state checks the properties of the current state.
func (c *checker) state(e *env.Env, spec *env.Spec, seen, seenObs map[uint64]uint64, scratch, other *env.Env) {
	g := e.Game()
	// Card conservation.
	c.inv = g.(Inventorier).Inventory(c.inv[:0])
	if len(c.inv) != cards.DeckSize {
		c.failf("inventory has %d cards, want %d", len(c.inv), cards.DeckSize)
	}
	var count [cards.NumCodes]int
	for _, k := range c.inv {
		count[k]++
	}
	for k := 1; k <= 52; k++ {
		if count[k] != 2 {
			c.failf("%d copies of %v in the inventory", count[k], cards.Card(k))
			break
		}
	}
	if count[0] != 0 || count[cards.FaceDown] != 0 {
		c.failf("inventory holds %d empty and %d face-down cards", count[0], count[cards.FaceDown])
	}
	// Observation ranges.
	obs := e.Observation()
	for _, s := range spec.Segments {
		for i, v := range obs[s.Offset : s.Offset+s.Len] {
			if v > s.Max {
				c.failf("observation %s[%d] = %d above its max %d", s.Name, i, v, s.Max)
				break
			}
		}
	}
	if !spec.Hidden {
		for _, s := range spec.Segments {
			if !s.Card {
				continue
			}
			for i, v := range obs[s.Offset : s.Offset+s.Len] {
				if v == uint8(cards.FaceDown) {
					c.failf("observation %s[%d] is face down in a game of perfect information", s.Name, i)
					break
				}
			}
		}
		// With everything visible, the observation is the state: equal
		// observations must hash equal, and equal hashes must show equal
		// observations.
		h, oh := e.Hash(), obsHash(obs)
		if prev, ok := seen[h]; ok && prev != oh {
			c.failf("two states with the same hash have different observations")
		}
		seen[h] = oh
		if prev, ok := seenObs[oh]; ok && prev != h {
			c.failf("the same position reached twice has two different hashes")
		}
		seenObs[oh] = h
	}
	// Mask exactness: the mask agrees with the rules' own check on every id.
	// Every id is compared on every eighth step and at the end; in between,
	// every legal id and a random sample of the others.
	m := e.Mask()
	agree := func(a int) bool {
		why := g.Explain(a)
		if m.Has(a) != (why == nil) {
			c.failf("action %d (%s): in mask %v, rules check says %v", a, g.ActionString(a), m.Has(a), why)
			return false
		}
		return true
	}
	if c.step%8 == 0 || e.Done() {
		for a := 0; a < spec.Actions && agree(a); a++ {
		}
	} else {
		for a := m.Next(0); a >= 0 && agree(a); a = m.Next(a + 1) {
		}
		for range 32 {
			if !agree(c.rng.IntN(spec.Actions)) {
				break
			}
		}
	}
	if e.Outcome() == env.Running && m.Empty() {
		c.failf("running with an empty mask")
	}
	if al, ok := g.(env.AnyLegaler); ok && al.AnyLegal() == m.Empty() {
		c.failf("AnyLegal says %v with %d legal actions", al.AnyLegal(), m.Count())
	}
	// Hash is a function of the state: a copy hashes the same.
	scratch.CopyFrom(e)
	if scratch.Hash() != e.Hash() || string(scratch.Observation()) != string(obs) || !scratch.Mask().Equal(m) {
		c.failf("CopyFrom gives a different hash, observation or mask")
	}
	// Determinize keeps observation and mask and depends only on what is seen.
	c.rep.Determined++
	seed := c.rng.Uint64()
	scratch.Determinize(cards.NewRand(seed))
	dg := scratch.Game()
	if string(scratch.Observation()) != string(obs) {
		c.failf("Determinize changed the observation")
	}
	dm := env.NewMask(spec.Actions)
	dg.Legal(&dm)
	if !dm.Equal(m) {
		c.failf("Determinize changed the legal actions")
	}
	if scratch.Hash() != e.Hash() {
		c.rep.Hidden++
	}
	c.evalTerms(e, scratch, spec)
	if spec.Hidden {
		c.inv = dg.(Inventorier).Inventory(c.inv[:0])
		var dc [cards.NumCodes]int
		for _, k := range c.inv {
			dc[k]++
		}
		if dc != count {
			c.failf("Determinize changed the set of cards")
		}
		// From a differently shuffled copy, the same rng gives the same state.
		other.CopyFrom(e)
		other.Determinize(cards.NewRand(seed ^ 0x9e3779b97f4a7c15))
		other.Determinize(cards.NewRand(seed))
		if other.Hash() != scratch.Hash() {
			c.failf("Determinize depends on the hidden order it replaces")
		}
	} else if scratch.Hash() != e.Hash() {
		c.failf("Determinize changed a game of perfect information")
	}
}

// evalTerms checks a game's evaluation terms (env.Termer): their sum
// weighted by the Spec's weights is the evaluation (up to rounding), and
// they read only what the player sees, so a determinization (det) has the
// same.
func (c *checker) evalTerms(e, det *env.Env, spec *env.Spec) {
	if len(spec.Terms) == 0 {
		if e.Terms(nil) {
			c.failf("the game is a Termer but its Spec names no terms")
		}
		return
	}
	for i := range c.terms {
		if len(c.terms[i]) != len(spec.Terms) {
			c.terms[i] = make([]float64, len(spec.Terms))
		}
	}
	if !e.Terms(c.terms[0]) {
		c.failf("the Spec names %d evaluation terms but the game is no Termer", len(spec.Terms))
		return
	}
	sum := 0.0
	for i, t := range spec.Terms {
		sum += t.Weight * c.terms[0][i]
	}
	if ev := e.Evaluate(); math.Abs(sum-ev) > 1e-9*math.Max(1, math.Abs(ev)) {
		c.failf("the weighted evaluation terms sum to %v; Evaluate says %v (terms %v)", sum, ev, c.terms[0])
	}
	det.Terms(c.terms[1])
	if !slices.Equal(c.terms[0], c.terms[1]) {
		c.failf("a determinization changed the evaluation terms from %v to %v", c.terms[0], c.terms[1])
	}
}

// clone checks that a clone is independent and behaves the same.
func (c *checker) clone(e *env.Env, a int) {
	h, obs := e.Hash(), string(e.Observation())
	cl := e.Clone()
	if _, _, _, err := cl.Advance(a); err != nil {
		c.failf("clone refused legal action %d: %v", a, err)
		return
	}
	if e.Hash() != h || string(e.Observation()) != obs {
		c.failf("stepping a clone changed the original")
	}
	// Compare with the original stepped the same way, on a second clone.
	cl2 := e.Clone()
	cl2.Advance(a)
	if cl2.Hash() != cl.Hash() || string(cl2.Observation()) != string(cl.Observation()) || !cl2.Mask().Equal(cl.Mask()) {
		c.failf("two clones stepped alike differ")
	}
	// Try is Advance for a look-ahead: the same position, outcome, steps,
	// progress and return, and the same mask once it is asked for; a copy
	// taken before the mask is listed lists it too.
	tr, cp := e.Clone(), e.Clone()
	if err := tr.Try(a); err != nil {
		c.failf("Try refused legal action %d: %v", a, err)
		return
	}
	cp.CopyFrom(tr)
	if tr.Outcome() != cl.Outcome() || tr.Steps() != cl.Steps() || tr.Progress() != cl.Progress() || tr.Return() != cl.Return() ||
		tr.Hash() != cl.Hash() || string(tr.Observation()) != string(cl.Observation()) {
		c.failf("Try(%d) and Advance(%d) differ: outcome %v and %v, return %v and %v", a, a, tr.Outcome(), cl.Outcome(), tr.Return(), cl.Return())
	}
	if !tr.Mask().Equal(cl.Mask()) || !cp.Mask().Equal(cl.Mask()) || tr.Info() != cl.Info() {
		c.failf("after Try(%d), the mask or the info differs from Advance's", a)
	}
}

// illegal checks that an action outside the mask is refused and changes
// nothing.
func (c *checker) illegal(e *env.Env) {
	n := e.Spec().Actions
	m := e.Mask()
	if m.Count() == n {
		return
	}
	var a int
	for {
		a = c.rng.IntN(n)
		if !m.Has(a) {
			break
		}
	}
	h, obs, steps := e.Hash(), string(e.Observation()), e.Steps()
	_, _, _, _, _, err := e.Step(a)
	if err == nil {
		c.failf("illegal action %d (%s) accepted", a, e.ActionString(a))
		return
	}
	var ill *env.IllegalActionError
	if !errors.As(err, &ill) || ill.Name != e.ActionString(a) || ill.Reason == nil {
		c.failf("refusing action %d (%s) gave %v, not an error naming the move and the reason", a, e.ActionString(a), err)
	}
	if e.Hash() != h || string(e.Observation()) != obs || e.Steps() != steps {
		c.failf("a refused action changed the state")
	}
	for _, bad := range []int{-1, n} {
		if _, _, _, _, _, err := e.Step(bad); err == nil {
			c.failf("action id %d accepted", bad)
		}
	}
}
