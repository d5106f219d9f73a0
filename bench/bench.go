// Package bench measures the play strength of agents: every agent plays
// the same deals of every game, and the results are compared on those
// deals. The patience bench command is its front end.
//
// Run plays every (game, agent, deal) triple of a Config on a pool of
// workers, each episode with a fresh agent seeded with the deal number, on
// the worker's Env of the game. Because every agent plays the same deals,
// the outcomes are paired: the summaries compare each agent with a
// baseline (random by default) by the exact McNemar test on the wins and a
// paired t interval on the final progress (package stats).
//
// The Result is reproducible: the same Config gives the same episodes
// whatever the number of workers or the order in which they finish; only
// wall times differ. It writes itself as markdown tables, CSV, JSON and a
// chart (see WriteMarkdown, WriteCSV, WriteJSON and WritePlot).
//
// Evaluation protocol v1 (protocol.go) is a fixed benchmark: each game's
// 1,000 evaluation deals, the dead deals named, one result file a paper
// can cite, resumable from its journal (RunProtocol). The C ABI (capi) and
// Python's patience_gym.evaluate are thin wrappers over it.
package bench

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"time"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/internal/runner"
	"github.com/patience-gym/patience/stats"
)

// DefaultAgents are the agent strings of the agents measured when
// Config.Agents is empty.
var DefaultAgents = []string{"random", "heuristic", "mc"}

// DefaultSeedStart is the first deal of the measuring range: deals below it
// are for tuning and tests, deals from it up for measuring.
const DefaultSeedStart = 1_000_000

// DefaultConfidence is the level of every interval unless Config says
// otherwise.
const DefaultConfidence = 0.95

// Config says what to measure.
type Config struct {
	// Games are the games to play (env.Lookup and env.Specs give them);
	// empty means all registered games (env.Specs()).
	Games []*env.Spec
	// Agents are the agents (agents.Parse makes them from "mc" or
	// "mc:rollouts=8"), in the order the reports list them; one agent may
	// appear with several settings. Empty means DefaultAgents. Reports name
	// each by its label (agents.Factory.Label).
	Agents []*agents.Factory
	// Deals is the number of deals per game; every agent plays the same
	// ones. It must be positive.
	Deals int
	// SeedStart is the first deal number; the deals are SeedStart,
	// SeedStart+1, ... The agent playing a deal is seeded with its number.
	SeedStart uint64
	// Workers is the number of episodes played at once; 0 means
	// runtime.GOMAXPROCS(0).
	Workers int
	// MaxSteps overrides the games' step limits when positive.
	MaxSteps int
	// Confidence is the level of the intervals; 0 means 0.95.
	Confidence float64
	// Baseline is the label (agents.Factory.Label) of the agent the others
	// are compared with; "" means "random". If it is not among Agents, no
	// comparisons are made.
	Baseline string
	// Progress, if not nil, is called after each episode with the number
	// done and the total. Calls come from one goroutine, in order.
	Progress func(done, total int)
	// Played, if not nil, is asked before each episode whether it was
	// played already (by an earlier run whose journal holds it): Run takes
	// the episode it returns as it is instead of playing the deal again.
	// game is the game's ID and agent the agent's label.
	Played func(game, agent string, seed uint64) (Episode, bool)
	// OnEpisode, if not nil, is called with each episode Run plays (not
	// those Played returned), from one goroutine, in the order they
	// finish; an error it returns stops the run with that error.
	OnEpisode func(Episode) error

	// shard, when not the whole run, plays only the deals of the shard's
	// chunks of shardChunk deals (a protocol shard, whose episodes go to
	// its journal); the Result then has no summaries.
	shard      runner.Shard
	shardChunk int
}

// Episode is one deal played by one agent.
type Episode struct {
	// Game and Agent name what was played by whom.
	Game  string `json:"game"`
	Agent string `json:"agent"`
	// Seed is the deal number, which is also the agent's seed.
	Seed uint64 `json:"seed"`
	// Won reports whether the game was won.
	Won bool `json:"won"`
	// Outcome is "won", "lost" or "truncated".
	Outcome string `json:"outcome"`
	// Progress is the number of cards in their final place at the end, out
	// of Cards.
	Progress int `json:"progress"`
	Cards    int `json:"cards"`
	// Steps is the number of actions played.
	Steps int `json:"steps"`
	// Truncated reports whether the step limit ended the episode.
	Truncated bool `json:"truncated"`
	// Wall is the wall-clock time the episode took.
	Wall time.Duration `json:"wall_ns"`
}

// Fraction is the final progress as a fraction of the cards: the episode's
// return in the default reward mode.
func (e Episode) Fraction() float64 { return float64(e.Progress) / float64(e.Cards) }

// Comparison compares an agent with the baseline on the same deals.
type Comparison struct {
	// Baseline is the agent compared with.
	Baseline string
	// Wins is the exact McNemar test on the paired wins: B counts the deals
	// the agent won and the baseline lost, C the deals the baseline won and
	// the agent lost.
	Wins stats.McNemar
	// Progress is the paired comparison of the final progress fractions:
	// the mean of agent − baseline over the deals, its t interval (clamped
	// to [−1, 1]) and the paired t test's p-value.
	Progress stats.PairedT
}

// Summary aggregates the episodes of one agent on one game.
type Summary struct {
	Game, Agent string
	// Settings are the agent's settings as it reports them.
	Settings string
	// Games is the number of episodes.
	Games int
	// Wins is the win proportion with its Wilson interval.
	Wins stats.Proportion
	// Progress is the mean final progress fraction with its t interval,
	// clamped to [0, 1] (where the mean lies).
	Progress stats.Mean
	// MeanSteps is the mean number of steps.
	MeanSteps float64
	// Truncated counts the episodes the step limit ended.
	Truncated int
	// MsPerGame is the mean wall time of an episode in milliseconds.
	MsPerGame float64
	// VsBaseline compares the agent with the baseline on the same deals;
	// nil for the baseline itself, when there is no baseline, and for a
	// ceiling.
	VsBaseline *Comparison
	// Ceiling is true when the agent sees the hidden cards of this game
	// (a clairvoyant agent, such as the solver, in a game with hidden
	// cards): its figures bound what a fair agent can reach, and it is
	// compared with no one.
	Ceiling bool
}

// TruncatedRate is the fraction of episodes the step limit ended.
func (s Summary) TruncatedRate() float64 {
	if s.Games == 0 {
		return math.NaN()
	}
	return float64(s.Truncated) / float64(s.Games)
}

// Result is a finished benchmark.
type Result struct {
	// Games, Agents, Deals, SeedStart, MaxSteps, Confidence and Baseline
	// are the Config, with defaults filled in and names canonical.
	Games      []string
	Agents     []string
	Deals      int
	SeedStart  uint64
	MaxSteps   int
	Confidence float64
	Baseline   string
	// Settings maps each agent to its settings.
	Settings map[string]string
	// Titles maps each game to its title ("Royal Parade").
	Titles map[string]string
	// Workers is the number of workers used.
	Workers int
	// Episodes are all episodes, ordered by game, agent (in Agents order)
	// and deal.
	Episodes []Episode
	// Clairvoyant lists the agents (by label) that read hidden cards.
	Clairvoyant map[string]bool
	// Hidden lists the games (by ID) with hidden cards.
	Hidden map[string]bool
	// Summaries are ordered by game and agent like Episodes.
	Summaries []Summary
	// Elapsed is the wall time of the whole run.
	Elapsed time.Duration
}

// Validate reports the first mistake in c that shows before any game is
// played: a count out of range, a game or an agent missing or listed
// twice. Run calls it; a command line calls it first,
// to report its mistakes as such. Whether every agent can play every game
// (a policy agent needs a model of each) is checked by Run, which prepares
// one of each for each game before the first deal.
func (c *Config) Validate() error {
	switch {
	case c.Deals <= 0:
		return fmt.Errorf("the number of deals must be positive, not %d", c.Deals)
	case c.SeedStart > math.MaxUint64-uint64(c.Deals-1):
		return fmt.Errorf("deals %d.. plus %d deals pass the last deal number %d", c.SeedStart, c.Deals, uint64(math.MaxUint64))
	case c.Workers < 0:
		return fmt.Errorf("the number of workers must not be negative, not %d", c.Workers)
	case c.MaxSteps < 0:
		return fmt.Errorf("the step limit must not be negative, not %d", c.MaxSteps)
	}
	if c.Confidence != 0 {
		if err := stats.CheckConfidence(c.Confidence); err != nil {
			return err
		}
	}
	for i, spec := range c.Games {
		if spec == nil {
			return fmt.Errorf("game %d of the list is nil", i)
		}
		if slices.ContainsFunc(c.Games[:i], func(s *env.Spec) bool { return s.ID() == spec.ID() }) {
			return fmt.Errorf("game %s is listed twice", spec.ID())
		}
	}
	for i, f := range c.Agents {
		if f == nil {
			return fmt.Errorf("agent %d of the list is nil", i)
		}
		if slices.ContainsFunc(c.Agents[:i], func(g *agents.Factory) bool { return g.Label() == f.Label() }) {
			return fmt.Errorf("agent %s is listed twice", f.Label())
		}
	}
	return nil
}

// normalize checks cfg, fills in its defaults and returns the games'
// titles and the agents' labels, with their settings and factories by
// label.
func normalize(cfg *Config) (settings, titles map[string]string, labels []string, makers map[string]*agents.Factory, err error) {
	if err := cfg.Validate(); err != nil {
		return nil, nil, nil, nil, err
	}
	if cfg.Workers == 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	if cfg.Confidence == 0 {
		cfg.Confidence = DefaultConfidence
	}
	if cfg.Baseline == "" {
		cfg.Baseline = "random"
	}
	if len(cfg.Games) == 0 {
		cfg.Games = env.Specs()
		if len(cfg.Games) == 0 {
			return nil, nil, nil, nil, errors.New("no games are registered (import github.com/patience-gym/patience/env/all)")
		}
	}
	titles = map[string]string{}
	for _, spec := range cfg.Games {
		titles[spec.ID()] = spec.Title
	}
	if len(cfg.Agents) == 0 {
		for _, s := range DefaultAgents {
			f, err := agents.Parse(s)
			if err != nil {
				return nil, nil, nil, nil, err
			}
			cfg.Agents = append(cfg.Agents, f)
		}
	}
	settings = map[string]string{}
	makers = map[string]*agents.Factory{}
	labels = make([]string, 0, len(cfg.Agents))
	for _, f := range cfg.Agents {
		labels = append(labels, f.Label())
		a := f.New()
		settings[f.Label()] = a.Settings()
		makers[f.Label()] = f
		// An agent that cannot play a game (a policy without a model for
		// it) is an error now, before any game is played.
		for _, spec := range cfg.Games {
			if err := agents.Prepare(a, spec); err != nil {
				return nil, nil, nil, nil, err
			}
		}
	}
	return settings, titles, labels, makers, nil
}

// job is one episode to play.
type job struct {
	game  int // index in Config.Games
	agent string
	seed  uint64
}

// Run plays the benchmark cfg describes and returns its result. It stops
// early, returning ctx's error, when ctx is cancelled (also in the middle
// of an episode), and returns the first error an episode meets (an agent
// playing an illegal action is a bug worth stopping for).
func Run(ctx context.Context, cfg Config) (*Result, error) {
	settings, titles, labels, makers, err := normalize(&cfg)
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	// One Env of each game, which every worker copies once.
	protos := make([]*env.Env, len(cfg.Games))
	for i, spec := range cfg.Games {
		if protos[i], err = env.Make(spec.ID(), env.Options{MaxSteps: cfg.MaxSteps}); err != nil {
			return nil, fmt.Errorf("bench: %w", err)
		}
	}
	start := time.Now()
	nA, nD := len(labels), cfg.Deals
	total := len(cfg.Games) * nA * nD
	res := &Result{
		Agents:      labels,
		Deals:       cfg.Deals,
		SeedStart:   cfg.SeedStart,
		MaxSteps:    cfg.MaxSteps,
		Confidence:  cfg.Confidence,
		Baseline:    cfg.Baseline,
		Settings:    settings,
		Titles:      titles,
		Clairvoyant: map[string]bool{},
		Hidden:      map[string]bool{},
		Workers:     min(cfg.Workers, total),
		Episodes:    make([]Episode, total),
	}
	for _, a := range labels {
		if agents.IsClairvoyant(makers[a].New()) {
			res.Clairvoyant[a] = true
		}
	}
	for _, spec := range cfg.Games {
		res.Games = append(res.Games, spec.ID())
		if spec.Hidden {
			res.Hidden[spec.ID()] = true
		}
	}

	// The units are the episodes in the order they are fed to the
	// workers, deal by deal, so that every game and agent advances
	// together and the progress bar's estimate is fair from the start:
	// unit u is deal u/(games*agents), game and agent u%(games*agents).
	nG := len(cfg.Games)
	index := func(u int) (i, gi, ai, d int) {
		d, k := u/(nG*nA), u%(nG*nA)
		gi, ai = k/nA, k%nA
		return (gi*nA+ai)*nD + d, gi, ai, d
	}
	type worker struct{ envs []*env.Env } // this worker's Env of each game, made when first needed
	units := runner.Span(0, total)
	if !cfg.shard.Whole() {
		// The shard's deals, each with every game and agent.
		units = cfg.shard.Interleaved(units, max(cfg.shardChunk, 1)*nG*nA)
	}
	err = runner.Run(ctx, runner.Task[*worker, Episode]{
		Units: units, Workers: res.Workers,
		NewWorker: func() (*worker, error) { return &worker{envs: make([]*env.Env, len(protos))}, nil },
		Do: func(ctx context.Context, w *worker, u int) (Episode, error) {
			_, gi, ai, d := index(u)
			if w.envs[gi] == nil {
				w.envs[gi] = protos[gi].Clone()
			}
			a := labels[ai]
			return play(ctx, w.envs[gi], makers[a], job{game: gi, agent: a, seed: cfg.SeedStart + uint64(d)})
		},
		Held: func(u int) (Episode, bool) {
			if cfg.Played == nil {
				return Episode{}, false
			}
			_, gi, ai, d := index(u)
			return cfg.Played(cfg.Games[gi].ID(), labels[ai], cfg.SeedStart+uint64(d))
		},
		Keep: func(_ int, ep Episode) error {
			if cfg.OnEpisode != nil {
				return cfg.OnEpisode(ep)
			}
			return nil
		},
		Emit: func(u int, ep Episode, _ bool) error {
			i, _, _, _ := index(u)
			res.Episodes[i] = ep
			return nil
		},
		Progress: cfg.Progress,
	})
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	if cfg.shard.Whole() {
		res.Summaries = summarize(res)
	}
	res.Elapsed = time.Since(start)
	return res, nil
}

// play plays one job on e (the worker's Env of the job's game, dealt anew)
// with a fresh agent.
func play(ctx context.Context, e *env.Env, agent *agents.Factory, j job) (Episode, error) {
	if err := ctx.Err(); err != nil {
		return Episode{}, err
	}
	a := agent.New()
	t0 := time.Now()
	stopped := false
	r, err := agents.Play(e, a, j.seed, j.seed, func(*env.Env, int) bool {
		if ctx.Err() != nil {
			stopped = true
			return false
		}
		return true
	})
	wall := time.Since(t0)
	if err != nil {
		return Episode{}, err
	}
	if stopped {
		return Episode{}, ctx.Err()
	}
	return Episode{
		Game:      e.Spec().ID(),
		Agent:     j.agent,
		Seed:      j.seed,
		Won:       r.Outcome == env.Won,
		Outcome:   r.Outcome.String(),
		Progress:  r.Progress,
		Cards:     e.Spec().Cards,
		Steps:     r.Steps,
		Truncated: r.Outcome == env.Truncated,
		Wall:      wall,
	}, nil
}

// EpisodesOf returns the episodes of one game and agent, ordered by deal
// (nil if there are none).
func (r *Result) EpisodesOf(game, agent string) []Episode {
	gi, ai := slices.Index(r.Games, game), slices.Index(r.Agents, agent)
	if gi < 0 || ai < 0 || len(r.Episodes) != len(r.Games)*len(r.Agents)*r.Deals {
		return nil
	}
	lo := (gi*len(r.Agents) + ai) * r.Deals
	return r.Episodes[lo : lo+r.Deals]
}

// summarize computes the summaries of r's episodes.
func summarize(r *Result) []Summary {
	var out []Summary
	for _, g := range r.Games {
		base := r.EpisodesOf(g, r.Baseline)
		for _, a := range r.Agents {
			eps := r.EpisodesOf(g, a)
			s := Summary{Game: g, Agent: a, Settings: r.Settings[a], Games: len(eps), Ceiling: r.Clairvoyant[a] && r.Hidden[g]}
			wins := 0
			frac := make([]float64, len(eps))
			won := make([]bool, len(eps))
			var steps, wall float64
			for i, e := range eps {
				if e.Won {
					wins++
				}
				if e.Truncated {
					s.Truncated++
				}
				won[i] = e.Won
				frac[i] = e.Fraction()
				steps += float64(e.Steps)
				wall += float64(e.Wall) / float64(time.Millisecond)
			}
			s.Wins = stats.Wilson(wins, len(eps), r.Confidence)
			s.Progress = stats.MeanCI(frac, r.Confidence)
			s.Progress.CI = s.Progress.CI.Clamp(0, 1)
			s.MeanSteps = steps / float64(len(eps))
			s.MsPerGame = wall / float64(len(eps))
			if base != nil && a != r.Baseline && !s.Ceiling && !(r.Clairvoyant[r.Baseline] && r.Hidden[g]) {
				s.VsBaseline = compare(eps, base, r.Baseline, r.Confidence)
			}
			out = append(out, s)
		}
	}
	return out
}

// compare pairs eps with base deal by deal.
func compare(eps, base []Episode, baseline string, conf float64) *Comparison {
	x, y := make([]float64, len(eps)), make([]float64, len(base))
	wx, wy := make([]bool, len(eps)), make([]bool, len(base))
	for i := range eps {
		x[i], wx[i] = eps[i].Fraction(), eps[i].Won
	}
	for i := range base {
		y[i], wy[i] = base[i].Fraction(), base[i].Won
	}
	c := &Comparison{Baseline: baseline}
	// The lengths are equal by construction (both are Deals long).
	c.Wins, _ = stats.McNemarPaired(wx, wy)
	c.Progress, _ = stats.PairedTTest(x, y, conf)
	c.Progress.Diff.CI = c.Progress.Diff.CI.Clamp(-1, 1)
	return c
}

// Summary returns the summary of one game and agent.
func (r *Result) Summary(game, agent string) (Summary, bool) {
	for _, s := range r.Summaries {
		if s.Game == game && s.Agent == agent {
			return s, true
		}
	}
	return Summary{}, false
}
