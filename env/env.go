// Package env gives two-deck patience games one Gym-style interface.
//
// A game package (env/cromwell, env/fifteen, ...) implements Game, the rules
// alone, and registers itself; Env wraps any Game with Gym semantics:
//
//	e, err := env.Make("cromwell", env.Options{})
//	obs, info := e.Reset(42)
//	obs, reward, terminated, truncated, info, err := e.Step(action)
//
// Semantics, the same for every game:
//   - reward per step is (progress after − progress before) / Spec.Cards in
//     the default RewardProgress mode (rounded so that the rewards summed in
//     order equal progress / Spec.Cards exactly), so an episode's return is
//     its final progress fraction and a win returns exactly 1; RewardSparse
//     gives 1 on the winning step and 0 otherwise.
//   - terminated is true when the game is won or no legal action is left.
//   - truncated is true when the step limit is reached first.
//   - an illegal action returns an *IllegalActionError and changes nothing;
//     a Step after the episode ended returns ErrEpisodeOver until Reset.
//   - observation slices alias an internal buffer that is valid until the next
//     call that changes the Env; copy them to keep them. Step allocates
//     nothing.
//
// Import github.com/patience-gym/patience/env/all to register every game.
//
// # Adding a game
//
// A game is one package under env/ that holds its rules alone and knows
// nothing of agents, datasets, the solver or the command line; everything
// else finds it through the registry.
//
//  1. Copy env/fifteen as a start: the smallest rules package (about 930
//     lines), perfect information, no variant. Borrow from the others what
//     yours needs: a hidden stock and Determinize from env/royalparade,
//     words for how a game ended (Class) from env/fourquarters, a variant
//     of the rules (variant.go) from env/cromwell. Keep the file plan:
//     <game>.go (the state, the Spec with its action ranges and
//     observation segments, Deal, Observe, Hash, Clone, Inventory (which
//     the property checker, env/check, counts the cards with), and the
//     small helpers every file reads), moves.go (Legal, Explain, Apply),
//     names.go (ActionString, ParseActions), render.go (Render), eval.go
//     (Evaluate, optional), terms.go (Terms, optional), layout.go (Layout)
//     and <game>_test.go. Let the files depend one way: <game>.go uses no
//     other file of the package.
//  2. Implement the Game core. Add Determinizer if the Spec says Hidden
//     (Register refuses a hidden game without it), Classifier if the game
//     has words for its ends, Evaluator if it can score a position better
//     than by its progress, Termer (with Spec.Terms) if that evaluation is
//     a weighted sum of counts a learner may reweigh, and AnyLegaler if it
//     can tell whether any move is legal faster than by listing them (the
//     look-ahead of the heuristic, mc and uct agents asks that of every
//     position it tries: write the search for legal moves once, with
//     Mask.Found, as env/ladder does).
//     State the interfaces in a var block, as the games do, so the
//     compiler checks them.
//  3. Register it in the package's init: env.Register(spec, func() env.Game
//     { return New() }), with a lower-case name of letters and digits.
//  4. Give its Zobrist tables seeds of their own (0xGAME_000n with a
//     prefix no other game uses), hash cards with zobrist.CardKeys, keep a
//     pile's cards and hash together with CardKeys.Push and Pop, and send a
//     card home with cards.Foundations.PutKey.
//  5. Add the package to env/all.
//  6. In its tests, call envtest.Check (the property checker: card
//     conservation, exact masks, clones, hashes, reproducible deals,
//     determinization), envtest.CheckHash, envtest.BenchmarkStep,
//     envtest.FuzzPlay and envtest.FuzzMoveNames; then write one test per
//     rule on positions set up directly, and golden tests of the first
//     cards of a few deals.
//  7. Write its rules page, docs/rules/<game>.md; the docs/rules tests
//     check that its move examples parse.
//  8. For pictures, implement render.Layouter in layout.go (Layout and
//     ActionSpots, describing the table with env.Table): where each card
//     a player sees lies; the render tests check every game that has one.
//
// The command line, the datasets, the agents, the benchmark, the pictures,
// the solver and the Python package then offer the game with nothing more
// to change: the solver searches its plain rules.
//
// Search knowledge is optional, and lives beside the solver, never in the
// rules package. To let the solver decide deals faster (safe moves, dead
// tests, pruning: the optional interfaces of package solver), add a
// package solver/<game> whose Position type embeds the rules' Game,
// overrides Clone and CopyFrom, implements those interfaces and reads the
// rules through exported accessors of the game (see env/cromwell's
// position.go); register it in its init with solver.Register(name, wrap)
// and add it to solver/all (solver/fifteen is the smallest example). State
// why each rule never costs a win, test that it never changes a verdict
// on many small positions (solver/rules_test.go), and pin its searches in
// solver/all's TestSearchesPinned.
package env

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/patience-gym/patience/env/cards"
)

// RewardMode selects how rewards are paid.
type RewardMode uint8

// The reward modes.
const (
	// RewardProgress pays the change of progress over the card total at each
	// step (the default).
	RewardProgress RewardMode = iota
	// RewardSparse pays 1 on the winning step and 0 otherwise.
	RewardSparse
)

// String returns "progress" or "sparse".
func (r RewardMode) String() string {
	if r == RewardSparse {
		return "sparse"
	}
	return "progress"
}

// ParseRewardMode reads "progress" (or "", the default) or "sparse".
func ParseRewardMode(s string) (RewardMode, error) {
	return parseMode("reward mode", s, RewardProgress, RewardSparse)
}

// parseMode returns the mode among modes whose String is s, the first
// (the default) for "".
func parseMode[M interface {
	~uint8
	String() string
}](kind, s string, modes ...M) (M, error) {
	names := make([]string, len(modes))
	for i, m := range modes {
		if s == m.String() || s == "" && i == 0 {
			return m, nil
		}
		names[i] = m.String()
	}
	return 0, fmt.Errorf("unknown %s %q (want %s)", kind, s, strings.Join(names, " or "))
}

// Options tune an Env. The zero value gives the game's defaults.
type Options struct {
	// MaxSteps is the step limit; 0 means the game's default (Spec.MaxSteps).
	MaxSteps int
	// Reward selects the reward mode.
	Reward RewardMode
	// Variant selects a variant of the game's rules (see Varianter); ""
	// means the default rules.
	Variant string
}

// Outcome is where an episode stands.
type Outcome uint8

// The outcomes.
const (
	Running Outcome = iota
	Won
	Lost
	Truncated
)

// String returns "running", "won", "lost" or "truncated".
func (o Outcome) String() string {
	return [...]string{"running", "won", "lost", "truncated"}[o]
}

// Info describes the episode after Reset or Step. It is a value; keeping it
// costs nothing.
type Info struct {
	// Seed is the deal number of the episode.
	Seed uint64
	// Steps is the number of steps taken since Reset.
	Steps int
	// Progress is the number of cards in their final place.
	Progress int
	// Cards is the total progress counts towards.
	Cards int
	// Legal is the number of legal actions now.
	Legal int
	// Outcome says whether the episode runs, was won, lost or truncated.
	Outcome Outcome
	// Class is the game's own word for the state, if it has one.
	Class string
}

// ErrEpisodeOver is returned by Step after the episode ended, until Reset.
var ErrEpisodeOver = errors.New("the episode is over: call Reset")

// ErrNotReset is returned by Step before the first Reset.
var ErrNotReset = errors.New("the environment has not been reset: call Reset first")

// IllegalActionError reports an action the rules do not allow now.
type IllegalActionError struct {
	Game   string
	Action int
	Name   string
	Reason error
}

// Error names the move and says why it is illegal.
func (e *IllegalActionError) Error() string {
	if e.Name == "" {
		return fmt.Sprintf("%s: illegal action %d: %v", e.Game, e.Action, e.Reason)
	}
	return fmt.Sprintf("%s: illegal move %s (action %d): %v", e.Game, e.Name, e.Action, e.Reason)
}

// Unwrap returns the reason.
func (e *IllegalActionError) Unwrap() error { return e.Reason }

// Env is one environment: a Game with Gym semantics. It is not safe for
// concurrent use; use one Env per goroutine (or a Vector).
type Env struct {
	game     Game
	det      Determinizer // game's, when it has hidden cards
	cls      Classifier   // game's, when it has classes
	eval     Evaluator    // game's, when it evaluates positions
	anyLegal AnyLegaler   // game's, when it can tell cheaply whether it has moves
	termer   Termer       // game's, when its evaluation has named terms
	spec     *Spec
	mask     Mask
	stale    bool // mask not yet listed for this position (after Try): fresh lists it
	obs      []uint8
	obsOK    bool
	maxSteps int
	reward   RewardMode
	seed     uint64
	steps    int
	progress int
	ret      float64 // the rewards paid this episode, summed in order
	outcome  Outcome
	started  bool
}

// New wraps game in an Env with the given options. opts.Variant is not
// read: game is already of its variant (Make and NewGameOf choose it).
func New(game Game, opts Options) *Env {
	spec := game.Spec()
	e := &Env{
		spec:     spec,
		mask:     NewMask(spec.Actions),
		obs:      make([]uint8, spec.ObsLen),
		maxSteps: opts.MaxSteps,
		reward:   opts.Reward,
	}
	e.bind(game)
	if e.maxSteps <= 0 {
		e.maxSteps = spec.MaxSteps
	}
	return e
}

// bind makes game the Env's game and detects its optional interfaces.
func (e *Env) bind(game Game) {
	e.game = game
	e.det, _ = game.(Determinizer)
	e.cls, _ = game.(Classifier)
	e.eval, _ = game.(Evaluator)
	e.anyLegal, _ = game.(AnyLegaler)
	e.termer, _ = game.(Termer)
}

// FromPosition wraps a game whose position was set up directly (by a game
// package's setters, in tests and tools) in an Env that starts from it, as if
// Reset had dealt it, with the given seed recorded.
func FromPosition(game Game, seed uint64, opts Options) *Env {
	e := New(game, opts)
	e.seed = seed
	e.started = true
	e.progress = game.Progress()
	e.ret = e.ProgressFraction()
	e.settle(false)
	return e
}

// Spec returns the game's description.
func (e *Env) Spec() *Spec { return e.spec }

// Game returns the game state the Env wraps. Agents must not read hidden
// information from it; it is there for rendering, tools and tests.
func (e *Env) Game() Game { return e.game }

// MaxSteps returns the step limit.
func (e *Env) MaxSteps() int { return e.maxSteps }

// RewardMode returns the reward mode.
func (e *Env) RewardMode() RewardMode { return e.reward }

// Reset deals deal number seed and returns the first observation and info.
func (e *Env) Reset(seed uint64) ([]uint8, Info) {
	e.game.Deal(seed)
	e.seed = seed
	e.steps = 0
	e.started = true
	e.progress = e.game.Progress()
	e.ret = 0
	e.settle(false)
	return e.Observation(), e.Info()
}

// settle lists the legal actions (or, lazily, leaves them for fresh to
// list when asked: see Try), sets the outcome and marks the observation
// stale.
func (e *Env) settle(lazy bool) {
	e.stale = lazy
	if !lazy {
		e.game.Legal(&e.mask)
	}
	e.obsOK = false
	switch {
	case e.game.Won():
		e.outcome = Won
	case e.stuck():
		e.outcome = Lost
	case e.steps >= e.maxSteps:
		e.outcome = Truncated
	default:
		e.outcome = Running
	}
}

// stuck reports whether no action is legal: from the mask, or, while it is
// not listed, from the game (AnyLegaler).
func (e *Env) stuck() bool {
	if e.stale {
		return !e.anyLegal.AnyLegal()
	}
	return e.mask.Empty()
}

// Step plays action a and returns the observation, the reward, whether the
// episode terminated (won or no legal action left) or was truncated (step
// limit), and the info. An illegal action or a step after the end returns an
// error and changes nothing. The observation aliases the Env's buffer.
func (e *Env) Step(a int) (obs []uint8, reward float64, terminated, truncated bool, info Info, err error) {
	reward, terminated, truncated, err = e.Advance(a)
	if err != nil {
		return nil, 0, false, false, e.Info(), err
	}
	return e.Observation(), reward, terminated, truncated, e.Info(), nil
}

// Advance is Step without building the observation (call Observation when it
// is needed). Agents' simulations use it.
func (e *Env) Advance(a int) (reward float64, terminated, truncated bool, err error) {
	return e.advance(a, false)
}

// Try plays legal action a as Advance does, for a look-ahead that scores
// the position reached and goes no further from it (the heuristic agent and
// the rollouts of mc and uct try every legal action this way): the state,
// the steps, the progress, the return and the outcome are Advance's, but
// when the game can tell cheaply whether it has a legal action (see
// AnyLegaler), the legal actions themselves are listed only when they are
// asked for (Mask, Info, the next Advance or Try). It returns Advance's
// errors.
func (e *Env) Try(a int) error {
	_, _, _, err := e.advance(a, e.anyLegal != nil)
	return err
}

// advance is Advance, listing the legal actions of the position reached
// now or, lazily, when they are asked for.
func (e *Env) advance(a int, lazy bool) (reward float64, terminated, truncated bool, err error) {
	if !e.started {
		return 0, false, false, ErrNotReset
	}
	if e.outcome != Running {
		return 0, false, false, ErrEpisodeOver
	}
	e.fresh()
	if !e.mask.Has(a) {
		return 0, false, false, e.illegal(a)
	}
	e.game.Apply(a)
	e.steps++
	p := e.game.Progress()
	e.settle(lazy)
	switch e.reward {
	case RewardSparse:
		if e.outcome == Won {
			reward = 1
		}
	default:
		reward = e.progressReward(p)
	}
	e.ret += reward
	e.progress = p
	return reward, e.outcome == Won || e.outcome == Lost, e.outcome == Truncated, nil
}

// fresh lists the legal actions of a position Try reached.
func (e *Env) fresh() {
	if e.stale {
		e.game.Legal(&e.mask)
		e.stale = false
	}
}

// progressReward returns the reward for reaching progress p: about
// (p − progress before) / cards, chosen so that the rewards summed in order
// from 0 equal p / cards exactly, and a win returns exactly 1.
func (e *Env) progressReward(p int) float64 {
	target := float64(p) / float64(e.spec.Cards)
	r := target - e.ret
	for range 8 {
		got := e.ret + r
		switch {
		case got < target:
			r = math.Nextafter(r, math.Inf(1))
		case got > target:
			r = math.Nextafter(r, math.Inf(-1))
		default:
			return r
		}
	}
	return r
}

// Return returns the sum of the rewards of the episode so far.
func (e *Env) Return() float64 { return e.ret }

// illegal builds the error for an action the mask refuses.
func (e *Env) illegal(a int) error {
	err := &IllegalActionError{Game: e.spec.ID(), Action: a}
	if a < 0 || a >= e.spec.Actions {
		err.Reason = fmt.Errorf("no such action (the ids are 0..%d)", e.spec.Actions-1)
		return err
	}
	err.Name = e.game.ActionString(a)
	err.Reason = e.game.Explain(a)
	if err.Reason == nil {
		// The rules' own check accepts what the mask refuses: a bug.
		err.Reason = errors.New("not in the legal mask (the game's mask and its rules check disagree; please report this)")
	}
	return err
}

// Observation returns the current observation. The slice aliases the Env's
// buffer and is valid until the Env changes.
func (e *Env) Observation() []uint8 {
	if !e.obsOK {
		e.game.Observe(e.obs)
		e.obsOK = true
	}
	return e.obs
}

// Mask returns the legal actions now. It aliases the Env's mask.
func (e *Env) Mask() *Mask {
	e.fresh()
	return &e.mask
}

// Info returns the episode's info now.
func (e *Env) Info() Info {
	e.fresh()
	return Info{
		Seed:     e.seed,
		Steps:    e.steps,
		Progress: e.progress,
		Cards:    e.spec.Cards,
		Legal:    e.mask.Count(),
		Outcome:  e.outcome,
		Class:    e.Class(),
	}
}

// Class returns the game's word for the state, or "" (see Classifier).
func (e *Env) Class() string {
	if e.cls == nil {
		return ""
	}
	return e.cls.Class()
}

// EndMessage announces to a player how the episode ended ("You won in 87
// moves!"), or returns "" while it runs. The terminal, the browser game and
// the episode viewer all say it this way.
func (e *Env) EndMessage() string {
	info := e.Info()
	class := ""
	if info.Class != "" {
		class = " (" + info.Class + ")"
	}
	switch info.Outcome {
	case Won:
		return fmt.Sprintf("You won%s in %d moves!", class, info.Steps)
	case Lost:
		return fmt.Sprintf("No legal move is left: the game is lost%s, with %d of %d cards placed.", class, info.Progress, info.Cards)
	case Truncated:
		return fmt.Sprintf("The step limit of %d is reached%s, with %d of %d cards placed.", e.maxSteps, class, info.Progress, info.Cards)
	}
	return ""
}

// Done reports whether the episode ended (terminated or truncated).
func (e *Env) Done() bool { return e.started && e.outcome != Running }

// Outcome returns where the episode stands.
func (e *Env) Outcome() Outcome { return e.outcome }

// Steps returns the number of steps since Reset.
func (e *Env) Steps() int { return e.steps }

// Seed returns the deal number of the episode.
func (e *Env) Seed() uint64 { return e.seed }

// Progress returns the cards in their final place.
func (e *Env) Progress() int { return e.progress }

// ProgressFraction returns Progress over the card total.
func (e *Env) ProgressFraction() float64 { return float64(e.progress) / float64(e.spec.Cards) }

// Hash returns the hash of the full game state.
func (e *Env) Hash() uint64 { return e.game.Hash() }

// Evaluate returns the game's evaluation of the state (see Evaluator), or
// its progress when the game has no evaluation of its own.
func (e *Env) Evaluate() float64 {
	if e.eval == nil {
		return float64(e.game.Progress())
	}
	return e.eval.Evaluate()
}

// Terms writes the game's evaluation terms (see Termer) into
// dst[:len(Spec().Terms)] and reports whether the game has them.
func (e *Env) Terms(dst []float64) bool {
	if e.termer == nil {
		return false
	}
	e.termer.Terms(dst)
	return true
}

// Render returns the game's text picture.
func (e *Env) Render() string { return e.game.Render() }

// ActionString returns the name of action a.
func (e *Env) ActionString(a int) string {
	if a < 0 || a >= e.spec.Actions {
		return fmt.Sprintf("#%d", a)
	}
	return e.game.ActionString(a)
}

// ParseMove reads a move a person typed into its action ids.
func (e *Env) ParseMove(s string) ([]int, error) {
	ids, err := e.game.ParseActions(s)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", e.spec.ID(), err)
	}
	return ids, nil
}

// ParseAction reads a move that is exactly one action.
func (e *Env) ParseAction(s string) (int, error) {
	ids, err := e.ParseMove(s)
	if err != nil {
		return 0, err
	}
	if len(ids) != 1 {
		return 0, fmt.Errorf("%s: %q is a move of %d actions, not one", e.spec.ID(), s, len(ids))
	}
	return ids[0], nil
}

// Clone returns an independent copy of the Env, hidden cards included.
func (e *Env) Clone() *Env {
	e.fresh()
	c := *e
	c.bind(e.game.Clone())
	c.mask = Mask{}
	c.mask.CopyFrom(&e.mask)
	c.obs = append([]uint8(nil), e.obs...)
	return &c
}

// CopyFrom makes e an independent copy of src (the same game) without
// allocating once e has been used as a copy before.
func (e *Env) CopyFrom(src *Env) {
	e.game.CopyFrom(src.game)
	e.spec = src.spec
	e.mask.CopyFrom(&src.mask)
	if len(e.obs) != len(src.obs) {
		e.obs = make([]uint8, len(src.obs))
	}
	copy(e.obs, src.obs)
	e.obsOK = src.obsOK
	e.maxSteps = src.maxSteps
	e.reward = src.reward
	e.seed = src.seed
	e.steps = src.steps
	e.progress = src.progress
	e.ret = src.ret
	e.outcome = src.outcome
	e.started = src.started
	e.stale = src.stale
}

// Determinize reshuffles the hidden cards (see Determinizer). The
// observation and the mask stay the same; an agent's simulations start from a
// copy determinized this way. Games of perfect information are left as they
// are.
func (e *Env) Determinize(rng *cards.Rand) {
	if e.det != nil {
		e.det.Determinize(rng)
		e.obsOK = false
	}
}
