package datasets

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/internal/atomicfile"
	"github.com/patience-gym/patience/internal/runner"
)

// DefaultPartSize is the largest automatic part size, in episodes.
const DefaultPartSize = 1000

// autoSizes are the part sizes AutoPartSize chooses from, largest first.
var autoSizes = []int{DefaultPartSize, 500, 250, 100, 50, 25}

// AutoPartSize returns the part size used when none is given: the largest of
// 1000, 500, 250, 100, 50 and 25 episodes that still cuts the dataset into at
// least 32 parts (so that small datasets keep many cores busy), and 25 for
// datasets under 800 episodes. It depends on the number of episodes only.
func AutoPartSize(episodes int64) int {
	for _, s := range autoSizes {
		if (episodes+int64(s)-1)/int64(s) >= 32 {
			return s
		}
	}
	return autoSizes[len(autoSizes)-1]
}

// RowGroupRows is the number of steps rows after which a row group is closed
// at the next episode boundary, so row groups hold about this many rows and
// an episode never spans two row groups.
const RowGroupRows = 64 * 1024

// rowGroupRows is RowGroupRows, lowered by tests.
var rowGroupRows = RowGroupRows

// Config describes a dataset to generate, or this machine's shard of it.
type Config struct {
	// Game is the game to play (env.Lookup gives it).
	Game *env.Spec
	// Agent makes the agent that plays (agents.Parse makes it from
	// "random" or "mc:rollouts=8").
	Agent *agents.Factory
	// Episodes is the number of episodes of the whole dataset (all shards).
	Episodes int64
	// SeedStart is the first deal seed: episode i plays deal SeedStart+i.
	// Seeds must stay below 2^63.
	SeedStart uint64
	// AgentSeedOffset is added to the deal seed to give the agent's seed
	// (0: the agent's seed is the deal seed).
	AgentSeedOffset int64
	// MaxSteps is the step limit (0 = the game's default).
	MaxSteps int
	// Reward is the reward mode.
	Reward env.RewardMode
	// PartSize is the number of episodes per part (0 = AutoPartSize).
	PartSize int
	// Shard and Shards select this machine's share: the parts
	// [Shard*Parts/Shards, (Shard+1)*Parts/Shards). Shards 0 means 1.
	Shard, Shards int
	// Workers is the number of parallel workers (0 = GOMAXPROCS).
	Workers int
	// Out is the dataset directory.
	Out string
	// Scores records, with every step, the moves the agent weighed and its
	// score of each (ScoredStep). The agent must be an agents.MoveScorer
	// (mc or uct).
	Scores bool
	// OnStart, if set, is called once, after the directory was read and
	// before any episode is played, with what will be done.
	OnStart func(Status)
	// OnEpisode, if set, is called after each recorded episode with its
	// number of steps. It is called from the workers, concurrently.
	OnEpisode func(steps int)
}

// Plan is a dataset resolved from a Config once: the game, the agent, the
// metadata and this shard's parts. NewPlan makes one without touching the
// disk; Run writes it.
type Plan struct {
	// Meta is the dataset's metadata.
	Meta Meta
	// First and End delimit this shard's parts: [First, End).
	First, End int
	// Workers is the number of workers Run starts (at most one per part).
	Workers int

	cfg   Config
	agent *agents.Factory
	proto *env.Env // the game's Env, which each worker copies
}

// Status is what Run finds on disk before it starts.
type Status struct {
	// Parts is the number of parts of this shard; Skipped of them are
	// already finished, Todo are to write.
	Parts, Skipped, Todo int
	// TodoEpisodes is the number of episodes to play.
	TodoEpisodes int64
	// Removed lists the stale temporary files of killed runs that were
	// removed.
	Removed []string
	// Workers is the number of workers running.
	Workers int
}

// Summary reports a finished generation.
type Summary struct {
	Status
	// Meta is the dataset's metadata.
	Meta Meta
	// Wrote lists the parts this run wrote, in order.
	Wrote []int
	// Written counts the episodes and steps written by this run.
	Written Totals
	// Info is the meta/info.json written at the end.
	Info *Info
	// Elapsed is the time taken.
	Elapsed time.Duration
}

// maxSeed is the first seed refused: seeds are stored as int64.
const maxSeed = uint64(1) << 63

// SeedLimitDoc says which deal seeds a dataset can hold, in the words every
// message uses.
const SeedLimitDoc = "deal seeds of a dataset run from 0 to 2^63-1 (they are stored as int64)"

// NewPlan checks cfg and resolves it: the game, the agent (one is built
// and prepared for the game, to check its settings and any model file it
// reads), the metadata and this shard's parts. It writes nothing.
func NewPlan(cfg Config) (*Plan, error) {
	if cfg.Episodes <= 0 {
		return nil, fmt.Errorf("the number of episodes must be positive (got %d)", cfg.Episodes)
	}
	if cfg.Out == "" {
		return nil, errors.New("no output directory given")
	}
	spec := cfg.Game
	switch {
	case spec == nil:
		return nil, errors.New("no game given")
	case spec.Variant != "":
		// The metadata, the game column and replay name a game by its
		// name alone: a dataset holds games of the default rules.
		return nil, fmt.Errorf("%s is a variant of the rules; datasets hold games of the default rules (%s)", spec.ID(), spec.Name)
	}
	if cfg.MaxSteps < 0 {
		return nil, fmt.Errorf("step limit %d is negative", cfg.MaxSteps)
	}
	if cfg.Reward > env.RewardSparse {
		return nil, fmt.Errorf("unknown reward mode %d", cfg.Reward)
	}
	maxSteps := cfg.MaxSteps
	if maxSteps == 0 {
		maxSteps = spec.MaxSteps
	}
	agent := cfg.Agent
	if agent == nil {
		return nil, errors.New("no agent given")
	}
	if cfg.SeedStart >= maxSeed || uint64(cfg.Episodes) > maxSeed-cfg.SeedStart {
		return nil, fmt.Errorf("deal seeds %d..%d reach 2^63: %s", cfg.SeedStart, cfg.SeedStart+uint64(cfg.Episodes)-1, SeedLimitDoc)
	}
	first := int64(cfg.SeedStart) + cfg.AgentSeedOffset
	last := int64(cfg.SeedStart) + (cfg.Episodes - 1)
	if first < 0 || (cfg.AgentSeedOffset > 0 && last > math.MaxInt64-cfg.AgentSeedOffset) {
		return nil, fmt.Errorf("agent seed offset %d puts agent seeds outside 0..2^63-1", cfg.AgentSeedOffset)
	}
	if cfg.Episodes > math.MaxInt64/int64(maxSteps) {
		return nil, fmt.Errorf("%d episodes of up to %d steps overflow the 64-bit row index", cfg.Episodes, maxSteps)
	}
	partSize := cfg.PartSize
	switch {
	case partSize < 0:
		return nil, fmt.Errorf("part size %d is negative", partSize)
	case partSize == 0:
		partSize = AutoPartSize(cfg.Episodes)
	}
	shards := max(cfg.Shards, 1)
	if cfg.Shard < 0 || cfg.Shard >= shards {
		return nil, fmt.Errorf("shard %d/%d: the shard index must be in 0..%d", cfg.Shard, shards, shards-1)
	}
	if cfg.Workers < 0 {
		return nil, fmt.Errorf("workers %d is negative", cfg.Workers)
	}
	parts := (cfg.Episodes + int64(partSize) - 1) / int64(partSize)
	if parts > math.MaxInt32 {
		return nil, fmt.Errorf("%d parts are too many: raise the part size", parts)
	}
	a := agent.New()
	if err := agents.Prepare(a, spec); err != nil {
		return nil, err
	}
	proto, err := env.Make(spec.ID(), env.Options{MaxSteps: maxSteps, Reward: cfg.Reward})
	if err != nil {
		return nil, err
	}
	m := metaFor(spec, maxSteps, cfg.Reward)
	m.Agent = a.Name()
	m.AgentSettings = a.Settings()
	if u, ok := a.(agents.ModelUser); ok && u.UsedModel() != nil {
		m.AgentModelSHA256 = u.UsedModel().SHA256()
	}
	if cfg.Scores {
		sc, ok := a.(agents.MoveScorer)
		if !ok {
			return nil, fmt.Errorf("the %s agent plays without weighing moves, so it has no move scores to record: mc and uct have them", a.Name())
		}
		m.MoveScores = sc.ScoreKind()
	}
	m.AgentSeedOffset = cfg.AgentSeedOffset
	m.SeedStart = int64(cfg.SeedStart)
	m.SeedEnd = int64(cfg.SeedStart) + cfg.Episodes
	m.Episodes = cfg.Episodes
	m.PartSize = partSize
	m.Parts = int(parts)
	p := &Plan{Meta: m, cfg: cfg, agent: agent, proto: proto}
	p.First, p.End = ShardRange(m.Parts, cfg.Shard, shards)
	workers := cfg.Workers
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	p.Workers = min(workers, p.End-p.First)
	return p, nil
}

// ShardRange returns the parts of shard i of n over a dataset of parts
// parts: the contiguous run [lo, hi) = [i*parts/n, (i+1)*parts/n).
func ShardRange(parts, i, n int) (lo, hi int) {
	return int(int64(i) * int64(parts) / int64(n)), int(int64(i+1) * int64(parts) / int64(n))
}

// Generate plays and writes the dataset (or this shard of it) described by
// cfg: NewPlan, then Run.
func Generate(ctx context.Context, cfg Config) (*Summary, error) {
	p, err := NewPlan(cfg)
	if err != nil {
		return nil, err
	}
	return p.Run(ctx)
}

// Run writes the plan's parts into its directory. Parts already finished
// there with the same metadata are skipped; a different dataset there is an
// error that names the setting that differs. Stale temporary files of
// killed runs (of this host, for parts of this shard) are removed first;
// those of a writer still running are left alone, so two writers on one
// directory never remove each other's work. When ctx is cancelled the
// workers stop, their temporary files are removed, and ctx's error is
// returned: no file is ever left under a final name unless complete. At the
// end meta/info.json is rewritten with the totals of all finished parts.
// Memory and the time to react to ctx do not depend on the number of
// episodes.
func (p *Plan) Run(ctx context.Context) (*Summary, error) {
	start := time.Now()
	dir := p.cfg.Out
	for _, d := range []string{TableSteps, TableEpisodes, "meta"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			return nil, fmt.Errorf("create the dataset directory: %w", err)
		}
	}
	disk, err := scan(ctx, dir, &p.Meta, p.conflict)
	if err != nil {
		return nil, err
	}
	sum := &Summary{Meta: p.Meta}
	sum.Parts = p.End - p.First
	sum.TodoEpisodes = p.episodes(p.First, p.End)
	for part := range disk.done {
		if part >= p.First && part < p.End {
			sum.Skipped++
			sum.TodoEpisodes -= p.episodes(part, part+1)
		}
	}
	sum.Todo = sum.Parts - sum.Skipped
	sum.Workers = min(p.Workers, sum.Todo)
	if sum.Removed, err = p.clean(dir); err != nil {
		return nil, err
	}
	if p.cfg.OnStart != nil {
		p.cfg.OnStart(sum.Status)
	}
	if err := p.runWorkers(ctx, disk.done, sum); err != nil {
		return nil, err
	}
	if sum.Info, err = WriteInfo(dir, &p.Meta); err != nil {
		return nil, err
	}
	sum.Elapsed = time.Since(start)
	return sum, nil
}

// episodes returns the number of episodes in parts [lo, hi).
func (p *Plan) episodes(lo, hi int) int64 {
	if lo >= hi {
		return 0
	}
	first, _ := p.Meta.partRange(lo)
	last, n := p.Meta.partRange(hi - 1)
	return last + n - first
}

// clean removes the stale temporary files of this shard's parts and of
// info.json.
func (p *Plan) clean(dir string) ([]string, error) {
	var removed []string
	for _, table := range []string{TableSteps, TableEpisodes, "meta"} {
		r, err := atomicfile.Clean(filepath.Join(dir, table), func(final string) bool {
			part, ok := parsePartName(filepath.Base(final))
			return !ok || (part >= p.First && part < p.End)
		})
		removed = append(removed, r...)
		if err != nil {
			return removed, err
		}
	}
	return removed, nil
}

// runWorkers writes the plan's parts that done does not hold, with the
// plan's workers (on internal/runner), and adds what they wrote to sum.
// The first error cancels the others.
func (p *Plan) runWorkers(ctx context.Context, done map[int]Totals, sum *Summary) error {
	return runner.Run(ctx, runner.Task[*worker, Totals]{
		Units: runner.Span(p.First, p.End-p.First), Workers: max(sum.Workers, 1), NewWorker: p.newWorker,
		Do: func(ctx context.Context, w *worker, part int) (Totals, error) { return w.writePart(ctx, part) },
		Held: func(part int) (Totals, bool) {
			_, ok := done[part]
			return Totals{}, ok
		},
		// Emit is in part order, so Wrote is sorted.
		Emit: func(part int, t Totals, held bool) error {
			if !held {
				sum.Written.add(t)
				sum.Wrote = append(sum.Wrote, part)
			}
			return nil
		},
	})
}

// conflict names the generate setting in which another dataset's metadata
// o differs from the plan's, the way the command line spells it, or
// returns "" when they are the same dataset.
func (p *Plan) conflict(o *Meta) string {
	m := &p.Meta
	agent := func(x *Meta) string {
		if x.AgentSettings == "" {
			return x.Agent
		}
		return x.Agent + ":" + x.AgentSettings
	}
	if m.Game == o.Game && m.RulesVersion != o.RulesVersion {
		return fmt.Sprintf("it was played under %s rules version %d, this build plays version %d", o.Game, o.RulesVersion, m.RulesVersion)
	}
	for _, c := range []struct {
		flag        string
		here, there any
	}{
		{"--game", m.Game, o.Game},
		{"--agent", agent(m), agent(o)},
		{"--agent-seed-offset", m.AgentSeedOffset, o.AgentSeedOffset},
		{"--seed-start", m.SeedStart, o.SeedStart},
		{"--episodes", m.Episodes, o.Episodes},
		{"--max-steps", m.MaxSteps, o.MaxSteps},
		{"--reward", m.RewardMode, o.RewardMode},
		{"--part-size", m.PartSize, o.PartSize},
		{"--scores", m.MoveScores != "", o.MoveScores != ""},
	} {
		if c.here != c.there {
			return fmt.Sprintf("it was made with %s %v, not %v", c.flag, c.there, c.here)
		}
	}
	return m.Diff(o)
}
