package datasets

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/env"
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
	// Game is the game's name.
	Game string
	// Agent is the agent's name and AgentOptions its settings.
	Agent        string
	AgentOptions agents.Options
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
	// OnPlan, if set, is called once before any work with what will be done.
	OnPlan func(Plan)
	// OnEpisode, if set, is called after each recorded episode with its
	// number of steps. It is called from the workers, concurrently.
	OnEpisode func(steps int)
}

// Plan is what Generate will do.
type Plan struct {
	// Meta is the dataset's metadata.
	Meta Meta
	// Parts are the parts of this shard; Done those already finished, which
	// are skipped; Todo those to write.
	Parts, Done, Todo []int
	// TodoEpisodes is the number of episodes to play.
	TodoEpisodes int64
	// Workers is the number of workers that will run.
	Workers int
}

// Summary reports a finished generation.
type Summary struct {
	Plan
	// Written counts the episodes and steps written by this run.
	Written Totals
	// Info is the meta/info.json written at the end.
	Info *Info
	// Elapsed is the time taken.
	Elapsed time.Duration
}

// maxSeed is the first seed refused: seeds are stored as int64.
const maxSeed = uint64(1) << 63

// resolve checks cfg and builds the dataset's Meta.
func (cfg *Config) resolve() (Meta, error) {
	var m Meta
	if cfg.Episodes <= 0 {
		return m, fmt.Errorf("the number of episodes must be positive (got %d)", cfg.Episodes)
	}
	if cfg.Out == "" {
		return m, errors.New("no output directory given")
	}
	spec, err := env.Lookup(cfg.Game)
	if err != nil {
		return m, err
	}
	if cfg.MaxSteps < 0 {
		return m, fmt.Errorf("step limit %d is negative", cfg.MaxSteps)
	}
	if cfg.Reward > env.RewardSparse {
		return m, fmt.Errorf("unknown reward mode %d", cfg.Reward)
	}
	maxSteps := cfg.MaxSteps
	if maxSteps == 0 {
		maxSteps = spec.MaxSteps
	}
	agent, err := agents.New(cfg.Agent, cfg.AgentOptions)
	if err != nil {
		return m, err
	}
	if cfg.SeedStart >= maxSeed || uint64(cfg.Episodes) > maxSeed-cfg.SeedStart {
		return m, fmt.Errorf("deal seeds %d..%d reach 2^63 = %d: seeds are stored as int64 and must stay below it", cfg.SeedStart, cfg.SeedStart+uint64(cfg.Episodes)-1, maxSeed)
	}
	first := int64(cfg.SeedStart) + cfg.AgentSeedOffset
	last := int64(cfg.SeedStart) + (cfg.Episodes - 1)
	if first < 0 || (cfg.AgentSeedOffset > 0 && last > math.MaxInt64-cfg.AgentSeedOffset) {
		return m, fmt.Errorf("agent seed offset %d puts agent seeds outside 0..2^63-1", cfg.AgentSeedOffset)
	}
	if cfg.Episodes > math.MaxInt64/int64(maxSteps) {
		return m, fmt.Errorf("%d episodes of up to %d steps overflow the 64-bit row index", cfg.Episodes, maxSteps)
	}
	partSize := cfg.PartSize
	switch {
	case partSize < 0:
		return m, fmt.Errorf("part size %d is negative", partSize)
	case partSize == 0:
		partSize = AutoPartSize(cfg.Episodes)
	}
	shards := max(cfg.Shards, 1)
	if cfg.Shard < 0 || cfg.Shard >= shards {
		return m, fmt.Errorf("shard %d/%d: the shard index must be in 0..%d", cfg.Shard, shards, shards-1)
	}
	if cfg.Workers < 0 {
		return m, fmt.Errorf("workers %d is negative", cfg.Workers)
	}
	m = metaFor(spec, maxSteps, cfg.Reward)
	m.Agent = agent.Name()
	m.AgentSettings = agent.Settings()
	m.AgentSeedOffset = cfg.AgentSeedOffset
	m.SeedStart = int64(cfg.SeedStart)
	m.SeedEnd = int64(cfg.SeedStart) + cfg.Episodes
	m.Episodes = cfg.Episodes
	m.PartSize = partSize
	parts := (cfg.Episodes + int64(partSize) - 1) / int64(partSize)
	if parts > math.MaxInt32 {
		return m, fmt.Errorf("%d parts are too many: raise the part size", parts)
	}
	m.Parts = int(parts)
	return m, nil
}

// Check verifies the configuration without touching the disk, and returns
// the dataset's metadata.
func (cfg *Config) Check() (Meta, error) { return cfg.resolve() }

// ShardParts returns the parts of shard i of n over a dataset of parts parts:
// the contiguous run [i*parts/n, (i+1)*parts/n).
func ShardParts(parts, i, n int) []int {
	lo := int(int64(i) * int64(parts) / int64(n))
	hi := int(int64(i+1) * int64(parts) / int64(n))
	out := make([]int, 0, hi-lo)
	for p := lo; p < hi; p++ {
		out = append(out, p)
	}
	return out
}

// Generate plays and writes the dataset (or this shard of it) described by
// cfg. Parts already finished in cfg.Out with the same metadata are skipped;
// a different dataset in cfg.Out is an error. When ctx is cancelled the
// workers stop, their temporary files are removed, and ctx's error is
// returned: no file is ever left under a final name unless complete. At the
// end meta/info.json is rewritten with the totals of all finished parts.
func Generate(ctx context.Context, cfg Config) (*Summary, error) {
	start := time.Now()
	meta, err := cfg.resolve()
	if err != nil {
		return nil, err
	}
	if err := checkExisting(cfg.Out, &meta); err != nil {
		return nil, err
	}
	plan := Plan{Meta: meta, Parts: ShardParts(meta.Parts, cfg.Shard, max(cfg.Shards, 1))}
	for _, p := range plan.Parts {
		done, err := partDone(cfg.Out, &meta, p)
		if err != nil {
			return nil, err
		}
		if done {
			plan.Done = append(plan.Done, p)
			continue
		}
		plan.Todo = append(plan.Todo, p)
		_, n := meta.partRange(p)
		plan.TodoEpisodes += n
	}
	workers := cfg.Workers
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	plan.Workers = min(workers, len(plan.Todo))
	if cfg.OnPlan != nil {
		cfg.OnPlan(plan)
	}
	for _, d := range []string{TableSteps, TableEpisodes, "meta"} {
		if err := os.MkdirAll(filepath.Join(cfg.Out, d), 0o755); err != nil {
			return nil, fmt.Errorf("create the dataset directory: %w", err)
		}
	}
	sum := &Summary{Plan: plan}
	if err := runWorkers(ctx, &cfg, &meta, plan.Todo, plan.Workers, &sum.Written); err != nil {
		return nil, err
	}
	info, err := WriteInfo(cfg.Out, &meta)
	if err != nil {
		return nil, err
	}
	sum.Info = info
	sum.Elapsed = time.Since(start)
	return sum, nil
}

// runWorkers writes the parts todo with n workers and adds what they wrote to
// written. The first error cancels the others.
func runWorkers(ctx context.Context, cfg *Config, meta *Meta, todo []int, n int, written *Totals) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	var (
		mu       sync.Mutex
		firstErr error
		wg       sync.WaitGroup
	)
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
		cancel()
	}
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w, err := newWorker(cfg, meta)
			if err != nil {
				fail(err)
				return
			}
			for p := range jobs {
				t, err := w.writePart(ctx, p)
				if err != nil {
					fail(err)
					return
				}
				mu.Lock()
				written.add(t)
				mu.Unlock()
			}
		}()
	}
feed:
	for _, p := range todo {
		select {
		case jobs <- p:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if firstErr != nil {
		// A worker stopped by the cancel of another reports the cancel;
		// the original error was recorded first.
		return firstErr
	}
	return ctx.Err()
}
