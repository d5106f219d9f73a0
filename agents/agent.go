// Package agents holds the players of the patience environments: an Agent
// interface that sees what a player at the table sees, and baseline agents
// (random, heuristic, Monte Carlo). Agents know no game by name.
package agents

import (
	"fmt"
	"sort"
	"strings"

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
	// empty when Act is called.
	Act(v View) int
}

// Options are the settings of every agent; each agent reads the ones it uses
// and zero values mean the defaults.
type Options struct {
	// Rollouts is mc's number of rollouts per candidate action
	// (DefaultRollouts).
	Rollouts int
	// RolloutSteps caps the length of one rollout (DefaultRolloutSteps).
	RolloutSteps int
	// Width is the number of candidate actions mc rolls out, the best by
	// one-step evaluation (DefaultWidth).
	Width int
	// SwitchMargin is how many standard errors of the paired rollout
	// difference a candidate must gain over the one-step evaluation's choice
	// before mc plays it instead (DefaultSwitchMargin).
	SwitchMargin float64
	// Policy is the default policy of mc rollouts: "random" or "heuristic"
	// (default "heuristic").
	Policy string
	// Iterations is uct's number of search iterations per move
	// (DefaultIterations).
	Iterations int
	// Exploration is uct's UCB1 constant (DefaultExploration).
	Exploration float64
	// Nodes is the solver agent's node budget per search
	// (DefaultSolverNodes).
	Nodes int64
}

type maker struct {
	doc  string
	make func(Options) (Agent, error)
}

var makers = map[string]maker{}

// register adds an agent constructor under name.
func register(name, doc string, f func(Options) (Agent, error)) {
	makers[name] = maker{doc: doc, make: f}
}

// New returns a fresh agent by name.
func New(name string, opts Options) (Agent, error) {
	m, ok := makers[strings.ToLower(strings.TrimSpace(name))]
	if !ok {
		return nil, fmt.Errorf("unknown agent %q; the agents are: %s", name, strings.Join(Names(), ", "))
	}
	a, err := m.make(opts)
	if err != nil {
		return nil, fmt.Errorf("agent %s: %w", name, err)
	}
	return a, nil
}

// Names returns the agent names, sorted.
func Names() []string {
	var out []string
	for n := range makers {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Doc returns a one-line description of the named agent.
func Doc(name string) string { return makers[name].doc }

// randomLegal returns a uniformly chosen legal action of m.
func randomLegal(m *env.Mask, rng *cards.Rand) int {
	return m.Nth(rng.IntN(m.Count()))
}

// Step is one decision of an episode, as Play reports it.
type Step struct {
	Index  int
	Action int
	Reward float64
	Info   env.Info
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
func Play(e *env.Env, agent Agent, seed, agentSeed uint64, each func(e *env.Env, action int) bool) (Result, error) {
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
	register("random", "uniform over the legal actions", func(Options) (Agent, error) { return &Random{}, nil })
}

// Name returns "random".
func (r *Random) Name() string { return "random" }

// Settings returns "".
func (r *Random) Settings() string { return "" }

// Reset seeds the agent.
func (r *Random) Reset(seed uint64) { r.seed = seed; r.rng.Seed(seed) }

// Act picks a legal action uniformly.
func (r *Random) Act(v View) int { return randomLegal(v.Mask(), &r.rng) }
