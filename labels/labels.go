// Package labels holds the label datasets of `patience label`: this
// package's, and the solver's in labels/solverlabels, both written as
// numbered part files by the runner of parts.go.
//
// This package writes positions labelled with the value of every legal move, the final progress an agent
// reaches when it plays on from the position the move leads to. These are the targets a value network learns from (the
// trainer's `value --moves`): every move of a position is labelled, the
// ones the agent would not play too, so the network learns to rank the
// moves of one position, not only to score the positions an agent visits.
//
// For each deal the agent plays a whole game; Config.PerDeal of its
// positions with at least two legal moves are drawn (seeded by the deal);
// in each, every legal move is played on a copy of the real position and
// the agent, seeded by the deal, the step and the move, plays on from there
// to the end of the game (or to the step limit), Config.Rollouts times with
// different seeds; the label is the mean final progress. With
// Config.RolloutSteps a continuation stops after that many moves and is
// worth the game's evaluation there (in cards) over its cards. A move that ends the game
// is worth its final progress. In games with hidden cards the copies hold
// the deal's real hidden cards, so a label is one sample of what the move
// is worth, not its expectation.
//
// The output is a directory of Parquet files, part-NNNNN.parquet, each
// with the rows (Row) of Config.PartDeals deals, written under a temporary
// name and renamed when complete; a rerun skips finished parts. Every file
// carries the key-value metadata key "patience" (datasets.MetaKey; Meta,
// as JSON). The files are written with the datasets' Parquet writer
// (datasets.NewParquetWriter).
package labels

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/internal/atomicfile"
)

// Version is the version of the labelling procedure and of the rows'
// layout; it is bumped whenever the same Config would write other rows
// (2: the eval column).
const Version = 2

// Row is one legal move of one drawn position.
type Row struct {
	// Deal is the deal number.
	Deal int64 `parquet:"deal"`
	// Position numbers the drawn positions through the whole output:
	// (Deal − SeedStart) × PerDeal + the position's rank in its deal. The
	// moves of one position share it.
	Position int64 `parquet:"position"`
	// Step is the position's step in the agent's game, from 0.
	Step int32 `parquet:"step"`
	// Action is the move; ActionName its name as a person types it.
	Action     int32  `parquet:"action"`
	ActionName string `parquet:"action_name,dict"`
	// Chosen is true for the move the agent played in its game.
	Chosen bool `parquet:"chosen"`
	// Before is the observation of the position, before the move (the
	// same in every row of the position).
	Before []byte `parquet:"before"`
	// Obs is the observation of the position the move leads to.
	Obs []byte `parquet:"obs"`
	// Terminal is true when the move ends the game (won or no move left).
	Terminal bool `parquet:"terminal"`
	// Eval is the game's evaluation of the position the move leads to, over
	// the game's cards: what the heuristic agent ranks its moves by (a
	// label's baseline, which a residual value network learns to correct).
	Eval float64 `parquet:"eval"`
	// Value is the final progress fraction (cards home over all cards)
	// after the move and the agent's play from there (or the evaluation
	// over the cards where a capped rollout stopped), the mean over the
	// rollouts.
	Value float64 `parquet:"value"`
}

// Meta describes an output; every file carries it.
type Meta struct {
	Version      int    `json:"version"`
	Game         string `json:"game"`
	RulesVersion int    `json:"rules_version"`
	ObsLen       int    `json:"obs_len"`
	Actions      int    `json:"actions"`
	Agent        string `json:"agent"`
	SeedStart    uint64 `json:"seed_start"`
	Deals        int64  `json:"deals"`
	PerDeal      int    `json:"per_deal"`
	Rollouts     int    `json:"rollouts"`
	RolloutSteps int    `json:"rollout_steps"`
	RolloutSeed  uint64 `json:"rollout_seed"`
	PartDeals    int    `json:"part_deals"`
	MaxSteps     int    `json:"max_steps"`
	// Part and PartFirstDeal say which deals the file holds.
	Part          int    `json:"part"`
	PartFirstDeal uint64 `json:"part_first_deal"`
	PartDealsHeld int64  `json:"part_deals_held"`
}

// Config says what to label.
type Config struct {
	// Game is the game (env.Lookup gives it; "game:variant" names a
	// variant); MaxSteps its step limit (0: the default).
	Game     *env.Spec
	MaxSteps int
	// Agent plays the games and the continuations.
	Agent *agents.Factory
	// SeedStart and Deals give the deals.
	SeedStart uint64
	Deals     int64
	// PerDeal is the number of positions drawn from each game.
	PerDeal int
	// Rollouts is the number of continuations played after each move
	// (each with its own agent seed); a label is their mean (0: 1).
	Rollouts int
	// NoRollouts plays no continuation: a move's label is the game's
	// evaluation after it over the game's cards (its final progress
	// fraction where it ends the game). Such rows serve to learn the
	// agent's choices (column chosen) rather than values; Meta.Rollouts
	// is 0.
	NoRollouts bool
	// RolloutSteps caps a continuation's length (0: to the end of the
	// game). A continuation stopped by the cap is worth the game's
	// evaluation of where it stopped over the game's cards, instead of its
	// final progress fraction.
	RolloutSteps int
	// RolloutSeed changes the continuations' agent seeds (mixed into
	// each), so that two runs can draw independent labels of the same
	// moves; the agent's own games do not depend on it.
	RolloutSeed uint64
	// PartDeals is the number of deals per file (0: 50).
	PartDeals int
	// Shard and Shards select this machine's share of the part files (the
	// contiguous span [Shard*parts/Shards, (Shard+1)*parts/Shards); Shards
	// 0 or 1: every part). The shards' parts go into directories merged by
	// copying them into one: every file says what it holds.
	Shard, Shards int
	// Out is the output directory; Workers the parallel workers (files do
	// not depend on it).
	Out     string
	Workers int
	// OnDeal, when set, is called (from any worker) after each deal.
	OnDeal func()
}

// Run labels the configured deals into cfg.Out. It stops at the first
// error or when ctx is cancelled; the parts finished by then stay.
func Run(ctx context.Context, cfg Config) (Totals, error) {
	var tot Totals
	spec := cfg.Game
	switch {
	case spec == nil:
		return tot, errors.New("labels: no game")
	case cfg.Agent == nil:
		return tot, errors.New("labels: no agent")
	case cfg.Deals <= 0:
		return tot, fmt.Errorf("labels: deals must be positive, not %d", cfg.Deals)
	case cfg.PerDeal <= 0:
		return tot, fmt.Errorf("labels: positions per deal must be positive, not %d", cfg.PerDeal)
	case cfg.RolloutSteps < 0:
		return tot, fmt.Errorf("labels: rollout steps must not be negative, not %d", cfg.RolloutSteps)
	case cfg.Rollouts < 0:
		return tot, fmt.Errorf("labels: rollouts must not be negative, not %d", cfg.Rollouts)
	case cfg.PartDeals < 0:
		return tot, fmt.Errorf("labels: deals per part must not be negative, not %d", cfg.PartDeals)
	}
	if cfg.PartDeals == 0 {
		cfg.PartDeals = 50
	}
	switch {
	case cfg.NoRollouts:
		cfg.Rollouts = 0
	case cfg.Rollouts == 0:
		cfg.Rollouts = 1
	}
	if cfg.Workers <= 0 {
		cfg.Workers = 1
	}
	if err := os.MkdirAll(cfg.Out, 0o755); err != nil {
		return tot, fmt.Errorf("labels: %w", err)
	}
	if _, err := atomicfile.Clean(cfg.Out, nil); err != nil {
		return tot, fmt.Errorf("labels: %w", err)
	}
	meta := Meta{Version: Version, Game: spec.ID(), RulesVersion: spec.RulesVersion, ObsLen: spec.ObsLen, Actions: spec.Actions,
		Agent: cfg.Agent.Label(), SeedStart: cfg.SeedStart, Deals: cfg.Deals, PerDeal: cfg.PerDeal, Rollouts: cfg.Rollouts, RolloutSteps: cfg.RolloutSteps, RolloutSeed: cfg.RolloutSeed, PartDeals: cfg.PartDeals, MaxSteps: cfg.MaxSteps}
	proto, err := env.Make(spec.ID(), env.Options{MaxSteps: cfg.MaxSteps})
	if err != nil {
		return tot, fmt.Errorf("labels: %w", err)
	}
	n := int((cfg.Deals + int64(cfg.PartDeals) - 1) / int64(cfg.PartDeals))
	return RunParts(ctx, n, cfg.Shard, cfg.Shards, cfg.Workers, func() (*worker, error) { return newWorker(&cfg, proto, meta) }, nil)
}

// worker labels parts, one at a time.
type worker struct {
	cfg                *Config
	meta               Meta // the run's metadata
	game, child, after *env.Env
	player, other      agents.Agent
	path               []*env.Env // the positions of the agent's game
	steps              []int      // the agent's move at each position
	rng                cards.Rand
	rows               []Row
}

// newWorker makes a worker with its own copies of proto, the game's Env,
// and its own agents.
func newWorker(cfg *Config, proto *env.Env, meta Meta) (*worker, error) {
	w := &worker{cfg: cfg, meta: meta, game: proto.Clone()}
	spec := proto.Spec()
	w.child, w.after = w.game.Clone(), w.game.Clone()
	w.player, w.other = cfg.Agent.New(), cfg.Agent.New()
	for _, a := range []agents.Agent{w.player, w.other} {
		if err := agents.Prepare(a, spec); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// Part writes part p unless its file exists.
func (w *worker) Part(ctx context.Context, p int) (rows int64, skipped bool, err error) {
	meta := w.meta
	first, n := PartSpan(p, meta.PartDeals, meta.Deals)
	meta.Part, meta.PartFirstDeal, meta.PartDealsHeld = p, meta.SeedStart+uint64(first), n
	f := PartFile{Path: PartPath(w.cfg.Out, p), Version: Version, ByteColumns: []string{"obs", "before"}, Meta: &meta,
		Same: SameRun(func(old Meta) string {
			if old == meta {
				return ""
			}
			return fmt.Sprintf("%s agent %q, deals from %d, %d per deal, %d deals a part", old.Game, old.Agent, old.SeedStart, old.PerDeal, old.PartDeals)
		})}
	rows, skipped, err = WritePart(ctx, f, n, func(i int64) ([]Row, error) {
		err := w.deal(meta, first+i)
		return w.rows, err
	}, w.cfg.OnDeal)
	if err != nil && ctx.Err() == nil {
		err = fmt.Errorf("labels: %w", err)
	}
	return rows, skipped, err
}

// deal labels the positions of deal SeedStart+i into w.rows.
func (w *worker) deal(meta Meta, i int64) error {
	seed := meta.SeedStart + uint64(i)
	w.rows = w.rows[:0]
	// The agent's game, every position kept.
	w.game.Reset(seed)
	w.player.Reset(seed)
	w.steps = w.steps[:0]
	n := 0
	for !w.game.Done() {
		if n == len(w.path) {
			w.path = append(w.path, w.game.Clone())
		} else {
			w.path[n].CopyFrom(w.game)
		}
		a := w.player.Act(agents.NewView(w.game))
		if _, _, _, err := w.game.Advance(a); err != nil {
			return fmt.Errorf("labels: deal %d step %d: %s: %w", seed, n, meta.Agent, err)
		}
		w.steps = append(w.steps, a)
		n++
	}
	// The positions with a choice, drawn without replacement.
	var choice []int
	for s := range n {
		if w.path[s].Mask().Count() > 1 {
			choice = append(choice, s)
		}
	}
	w.rng.Seed(seed ^ 0x6d6f766576616c75) // "movevalu": the package's first name, kept so that the draws stay the same
	k := min(meta.PerDeal, len(choice))
	for j := range k {
		r := j + w.rng.IntN(len(choice)-j)
		choice[j], choice[r] = choice[r], choice[j]
	}
	choice = choice[:k]
	for rank, s := range choice {
		pos := w.path[s]
		m := pos.Mask()
		before := append([]byte(nil), pos.Observation()...)
		for a := m.Next(0); a >= 0; a = m.Next(a + 1) {
			w.child.CopyFrom(pos)
			if _, _, _, err := w.child.Advance(a); err != nil {
				return fmt.Errorf("labels: deal %d step %d: %w", seed, s, err)
			}
			row := Row{Deal: int64(seed), Position: i*int64(meta.PerDeal) + int64(rank), Step: int32(s), Action: int32(a),
				ActionName: pos.ActionString(a), Chosen: a == w.steps[s], Before: before, Obs: append([]byte(nil), w.child.Observation()...),
				Terminal: w.child.Done(), Eval: w.child.Evaluate() / float64(w.child.Spec().Cards)}
			if meta.Rollouts == 0 { // no continuation: the label stops at the move's own position
				row.Value = row.Eval
				if row.Terminal {
					row.Value = w.child.ProgressFraction()
				}
				w.rows = append(w.rows, row)
				continue
			}
			w.after.CopyFrom(w.child)
			sum := 0.0
			for r := range meta.Rollouts {
				w.child.CopyFrom(w.after)
				w.other.Reset(seed ^ uint64(s)<<20 ^ uint64(a)<<44 ^ uint64(r)<<8 ^ meta.RolloutSeed)
				for k := 0; !w.child.Done() && (meta.RolloutSteps == 0 || k < meta.RolloutSteps); k++ {
					b := w.other.Act(agents.NewView(w.child))
					if _, _, _, err := w.child.Advance(b); err != nil {
						return fmt.Errorf("labels: deal %d step %d move %s: %s: %w", seed, s, pos.ActionString(a), meta.Agent, err)
					}
				}
				if w.child.Done() {
					sum += w.child.ProgressFraction()
				} else {
					sum += w.child.Evaluate() / float64(w.child.Spec().Cards)
				}
			}
			row.Value = sum / float64(meta.Rollouts)
			w.rows = append(w.rows, row)
		}
	}
	return nil
}

// ReadMeta returns the metadata of the file at path.
func ReadMeta(path string) (Meta, error) {
	var m Meta
	if err := ReadPartMeta(path, &m); err != nil {
		return m, fmt.Errorf("labels: %w", err)
	}
	return m, nil
}
