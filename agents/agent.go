// Package agents holds the players of the patience environments: an Agent
// interface that sees what a player at the table sees, baseline agents
// (random, heuristic, Monte Carlo, tree search) and the learned policy
// agent. Agents know no game by name.
//
// # Learned policies
//
// The policy agent plays with a network read from a model file: an MLP
// over the one-hot observation saved as safetensors, with metadata that
// names the game, its rules version and sizes. Package policy reads the
// file (policy.Load), evaluates the network (policy.Net) and scores a value
// file's positions (policy.Scorer); docs/models.md is the file contract,
// which trainers follow. mc and uct take a model too (setting model=FILE),
// as their rollout policy and to rank their candidate moves.
// A model path is a path: {game} stands for the game's name, and a relative
// path is taken from the working directory. The library knows no default
// place; a caller names one with Factory.WithModel or, for the policy agent
// named without a model, Factory.WithDefaultModel (the patience command
// gives the repository's models/<game>.safetensors).
//
// Agents that need to know the game before they play (the policy agent, mc
// and uct with a model) implement Preparer; Prepare calls it, and Play calls
// Prepare before the first move, so that a missing or mismatched model file
// is an error before any move is played.
package agents

import (
	"fmt"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
)

// View is what an agent sees of an episode: the observation, the legal
// actions, and the right to simulate on a copy whose hidden cards were
// reshuffled (determinized). It never exposes the hidden cards themselves.
type View struct {
	e *env.Env
}

// NewView returns the view of e that agents receive.
func NewView(e *env.Env) View { return View{e: e} }

// Spec returns the game's description.
func (v View) Spec() *env.Spec { return v.e.Spec() }

// Observation returns the current observation (aliased; do not modify).
func (v View) Observation() []uint8 { return v.e.Observation() }

// Mask returns the legal actions (aliased; do not modify).
func (v View) Mask() *env.Mask { return v.e.Mask() }

// Steps returns the steps taken so far and the step limit.
func (v View) Steps() (taken, limit int) { return v.e.Steps(), v.e.MaxSteps() }

// Progress returns the cards in their final place (public).
func (v View) Progress() int { return v.e.Progress() }

// Evaluate returns the game's evaluation of the position, which uses only
// public information.
func (v View) Evaluate() float64 { return v.e.Evaluate() }

// Sample makes dst a copy of the episode whose hidden cards were reshuffled
// with rng: a position consistent with everything the player sees. dst must
// be an Env of the same game (make one with Scratch). Without hidden cards
// the copy is exact.
func (v View) Sample(dst *env.Env, rng *cards.Rand) {
	dst.CopyFrom(v.e)
	dst.Determinize(rng)
}

// key identifies the position the player sees (see visibleHash); it reads
// nothing hidden.
func (v View) key() uint64 { return visibleHash(v.e) }

// Peek returns the true game state, hidden cards included. It is for
// clairvoyant agents only (the solver agent): an agent that calls it must
// report Clairvoyant() true, and its results in games with hidden cards are
// a ceiling, not a fair player's (see IsClairvoyant). Do not modify the
// state.
func (v View) Peek() env.Game { return v.e.Game() }

// Scratch returns a new Env of the view's game for use with Sample.
func (v View) Scratch() *env.Env { return v.e.Clone() }

// Agent chooses actions. An Agent is seeded: the same deal and the same agent
// seed give the same game. It is not safe for concurrent use; give each
// goroutine its own (New makes them).
type Agent interface {
	// Name returns the agent's name as the registry knows it.
	Name() string
	// Settings describes the agent's options ("rollouts=32 policy=random").
	Settings() string
	// Reset prepares the agent for a new episode with its own seed.
	Reset(seed uint64)
	// Act returns a legal action for the position v shows. v's mask is never
	// empty when Act is called. An agent that is a Preparer and cannot play
	// v's game returns -1 (see Preparer).
	Act(v View) int
}

// Preparer is implemented by agents that need to know the game before they
// play, typically to load and check a model file. Prepare returns an error
// saying what is wrong when the agent cannot play spec's game; it is cheap
// when called again for the same game. Whoever drives an agent calls
// Prepare (the function) once before the first Act of a game; an agent
// that was not prepared prepares itself at its first Act, and if that fails
// it returns -1, which no Env accepts.
type Preparer interface {
	Prepare(spec *env.Spec) error
}

// Prepare makes a ready to play spec's game: it calls a's Prepare method if
// a is a Preparer, and does nothing otherwise. The error names the agent
// and the game.
func Prepare(a Agent, spec *env.Spec) error {
	p, ok := a.(Preparer)
	if !ok {
		return nil
	}
	if err := p.Prepare(spec); err != nil {
		return fmt.Errorf("%s agent cannot play %s: %w", a.Name(), spec.Name, err)
	}
	return nil
}

// randomLegal returns a uniformly chosen legal action of m.
func randomLegal(m *env.Mask, rng *cards.Rand) int {
	return m.Nth(rng.IntN(m.Count()))
}

// Result sums up an episode.
type Result struct {
	Seed     uint64
	Steps    int
	Return   float64
	Progress int
	Outcome  env.Outcome
	Class    string
	Actions  []int
}

// Play resets e to deal seed, lets agent (seeded with agentSeed) play it to
// the end, and returns the result. each, if not nil, is called before every
// step with the action chosen, and may stop the episode by returning false.
// The agent is prepared for e's game first (see Prepare); if it cannot play
// it, no move is played and the error says why.
func Play(e *env.Env, agent Agent, seed, agentSeed uint64, each func(e *env.Env, action int) bool) (Result, error) {
	if err := Prepare(agent, e.Spec()); err != nil {
		return Result{Seed: seed}, err
	}
	e.Reset(seed)
	agent.Reset(agentSeed)
	res := Result{Seed: seed}
	for !e.Done() {
		a := agent.Act(NewView(e))
		if each != nil && !each(e, a) {
			break
		}
		r, _, _, err := e.Advance(a)
		if err != nil {
			return res, fmt.Errorf("%s on %s deal %d step %d: %w", agent.Name(), e.Spec().Name, seed, e.Steps(), err)
		}
		res.Return += r
		res.Actions = append(res.Actions, a)
	}
	res.Steps = e.Steps()
	res.Progress = e.Progress()
	res.Outcome = e.Outcome()
	res.Class = e.Info().Class
	return res, nil
}

// Random plays uniformly among the legal actions.
type Random struct {
	seed uint64
	rng  cards.Rand
}

func init() {
	Register("random", "uniform over the legal actions", func(*Settings) (func() Agent, error) {
		return func() Agent { return &Random{} }, nil
	})
}

// Name returns "random".
func (r *Random) Name() string { return "random" }

// Settings returns "".
func (r *Random) Settings() string { return "" }

// Reset seeds the agent.
func (r *Random) Reset(seed uint64) { r.seed = seed; r.rng.Seed(seed) }

// Act picks a legal action uniformly.
func (r *Random) Act(v View) int { return randomLegal(v.Mask(), &r.rng) }
