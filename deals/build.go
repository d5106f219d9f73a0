package deals

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/internal/atomicfile"
	"github.com/patience-gym/patience/internal/journal"
	"github.com/patience-gym/patience/internal/runner"
	"github.com/patience-gym/patience/internal/textlist"
	"github.com/patience-gym/patience/solver"
)

// ChunkSize is the number of consecutive deals a shard takes at a time:
// shard i of n takes chunks i, i+n, i+2n, ... of the table's deals in
// order, so every shard gets a share of every block (the evaluation
// block, where mc plays, costs more).
const ChunkSize = 50

// chunkSize is ChunkSize, lowered by tests.
var chunkSize = ChunkSize

// Config describes a table to build, or this machine's shard of it.
type Config struct {
	// Game is the game's name (default rules only).
	Game string
	// Blocks are the blocks of deals (nil: DefaultBlocks).
	Blocks []Block
	// Settings are the budgets and agents (zero: DefaultSettings(Game)).
	Settings Settings
	// Shard and Shards select this machine's share of the deals (see
	// ChunkSize); Shards 0 means 1.
	Shard, Shards int
	// Workers is the number of deals worked on at once (0 means 1).
	Workers int
	// Work is the directory of the journals: one per game and shard,
	// GAME-shard-I-of-N.jsonl, one line per deal finished. A rerun reads
	// every journal of the game there and skips the deals they hold.
	Work string
	// Out is the directory the table is written to, as GAME.parquet, once
	// the journals in Work hold every deal ("" writes no table).
	Out string
	// Command is the command that builds the table, recorded in it.
	Command string
	// Keep, if set, is the table this one replaces (of the same game and
	// rules version): a deal it decided, won or lost, that this build's
	// search leaves unknown keeps its verdict, nodes and line length
	// (listed in Meta.Kept), so that a new search never undoes a proof.
	// A deal it decided the other way is a contradiction: Build writes no
	// table and says which deals.
	Keep *Table
	// OnStart, if set, is called once before any deal is worked on.
	OnStart func(Status)
	// OnDeal, if set, is called after each deal this run finishes, one
	// call at a time, from the goroutine that called Build.
	OnDeal func(Record)
}

// Status is what a build finds before it starts.
type Status struct {
	// Game is the game's name.
	Game string
	// Deals is the number of deals of this shard; Done of them are in the
	// journals already, Todo are to work on.
	Deals, Done, Todo int
	// Journal is the journal this run appends to.
	Journal string
	// Removed lists the stale temporary files of killed runs removed
	// from Out.
	Removed []string
	// Workers is the number of workers.
	Workers int
}

// Timing is the processor time a deal took, by part, in seconds: the
// process's processor time, so it is the deal's own only with one worker.
type Timing struct {
	Solve     float64 `json:"solve"`
	Worlds    float64 `json:"worlds"`
	Heuristic float64 `json:"heuristic"`
	MC        float64 `json:"mc"`
	// Wall is the wall time of the whole deal.
	Wall float64 `json:"wall"`
}

// round rounds the times to 0.1 ms, as the journal keeps them.
func (t *Timing) round() {
	for _, x := range []*float64{&t.Solve, &t.Worlds, &t.Heuristic, &t.MC, &t.Wall} {
		*x = math.Round(*x*1e4) / 1e4
	}
}

// Total returns the processor time of all parts.
func (t Timing) Total() float64 { return t.Solve + t.Worlds + t.Heuristic + t.MC }

// Record is a deal as a build finished it: the table's entry (without
// its score) and the time it took.
type Record struct {
	Deal Deal
	CPU  Timing
}

// Summary reports a build.
type Summary struct {
	Status
	// Worked counts the deals this run finished, and CPU their time.
	Worked int
	CPU    Timing
	// Missing counts the deals of the table no journal holds yet (other
	// shards' or unfinished).
	Missing int
	// Table is the table written, when every deal was done.
	Table *Table
	// Path is where it was written ("" when not).
	Path string
}

// DefaultBlocks are the blocks of a table: the training block, deals 0 to
// 9,999, where the heuristic agent plays, and the evaluation block, deals
// 1,000,000 to 1,000,999, where mc plays too.
func DefaultBlocks() []Block {
	return []Block{
		{Name: "train", First: 0, Count: 10_000},
		{Name: "eval", First: 1_000_000, Count: 1_000, MC: true},
	}
}

// head is a journal's first line: what every deal's result depends on.
// The blocks are not part of it: a journal's deals serve any table of the
// same settings that holds them (a table with a longer training block
// reuses the deals of a shorter one).
type head struct {
	Journal  int      `json:"patience_deals_journal"`
	Game     string   `json:"game"`
	Rules    int      `json:"rules_version"`
	Settings Settings `json:"settings"`
}

// jsonDeal is a journal line: one deal.
type jsonDeal struct {
	Seed        uint64    `json:"seed"`
	Verdict     string    `json:"verdict"`
	Nodes       int64     `json:"nodes"`
	Line        int       `json:"line,omitempty"`
	Best        int       `json:"best"`
	DeadAtStart bool      `json:"dead_at_start,omitempty"`
	Heuristic   jsonPlay  `json:"heuristic"`
	MC          *jsonPlay `json:"mc,omitempty"`
	Worlds      *Worlds   `json:"worlds,omitempty"`
	CPU         Timing    `json:"cpu"`
	Note        string    `json:"note,omitempty"`
}

type jsonPlay struct {
	Won      bool `json:"won"`
	Progress int  `json:"progress"`
}

func (j *jsonDeal) record(block string) (Record, error) {
	v, err := ParseVerdict(j.Verdict)
	if err != nil {
		return Record{}, err
	}
	d := Deal{
		Seed: j.Seed, Block: block, Verdict: v, Nodes: j.Nodes, LineLength: j.Line, BestProgress: j.Best,
		DeadAtStart: j.DeadAtStart, Heuristic: Play{Played: true, Won: j.Heuristic.Won, Progress: j.Heuristic.Progress},
	}
	if j.MC != nil {
		d.MC = Play{Played: true, Won: j.MC.Won, Progress: j.MC.Progress}
	}
	if j.Worlds != nil {
		d.Worlds = *j.Worlds
	}
	return Record{Deal: d, CPU: j.CPU}, nil
}

func toJSON(r Record, note string) jsonDeal {
	d := &r.Deal
	j := jsonDeal{
		Seed: d.Seed, Verdict: d.Verdict.String(), Nodes: d.Nodes, Line: d.LineLength, Best: d.BestProgress,
		DeadAtStart: d.DeadAtStart, Heuristic: jsonPlay{d.Heuristic.Won, d.Heuristic.Progress}, CPU: r.CPU, Note: note,
	}
	if d.MC.Played {
		j.MC = &jsonPlay{d.MC.Won, d.MC.Progress}
	}
	if d.Worlds.Tried > 0 {
		w := d.Worlds
		j.Worlds = &w
	}
	return j
}

// plan is a Config resolved once.
type plan struct {
	cfg   Config
	spec  *env.Spec
	head  head
	seeds []uint64 // this shard's deals, in order
	heur  *agents.Factory
	mc    *agents.Factory
}

func newPlan(cfg Config) (*plan, error) {
	spec, err := env.Lookup(cfg.Game)
	if err != nil {
		return nil, err
	}
	if cfg.Blocks == nil {
		cfg.Blocks = DefaultBlocks()
	}
	if cfg.Settings == (Settings{}) {
		if cfg.Settings, err = DefaultSettings(spec.Name); err != nil {
			return nil, err
		}
	}
	if err := checkBlocks(cfg.Blocks); err != nil {
		return nil, err
	}
	s := cfg.Settings
	switch {
	case s.Nodes <= 0:
		return nil, fmt.Errorf("the solver's node budget must be positive (got %d)", s.Nodes)
	case s.Worlds < 0 || s.WorldNodes < 0 || (s.Worlds > 0 && s.WorldNodes == 0):
		return nil, fmt.Errorf("worlds %d at %d nodes: want a number of worlds and a positive budget for each", s.Worlds, s.WorldNodes)
	case s.Worlds > 0 && !spec.Hidden:
		return nil, fmt.Errorf("%s has no hidden cards: it has no determinized worlds to solve (set worlds to 0)", spec.Name)
	case cfg.Work == "":
		return nil, errors.New("no work directory given for the journals")
	}
	if err := (solver.Options{Nodes: s.Nodes, TableBits: s.TableBits}).Check(); err != nil {
		return nil, err
	}
	shards := max(cfg.Shards, 1)
	if cfg.Shard < 0 || cfg.Shard >= shards {
		return nil, fmt.Errorf("shard %d/%d: the shard index must be in 0..%d", cfg.Shard, shards, shards-1)
	}
	if cfg.Workers < 0 {
		return nil, fmt.Errorf("workers %d is negative", cfg.Workers)
	}
	if cfg.Keep != nil {
		if err := Check(cfg.Keep, spec); err != nil {
			return nil, fmt.Errorf("the table whose verdicts are kept: %w", err)
		}
	}
	p := &plan{cfg: cfg, spec: spec}
	if p.heur, err = agents.Parse(s.Heuristic); err != nil {
		return nil, fmt.Errorf("heuristic agent: %w", err)
	}
	if p.mc, err = agents.Parse(s.MC); err != nil {
		return nil, fmt.Errorf("mc agent: %w", err)
	}
	p.head = head{Journal: 1, Game: spec.Name, Rules: spec.RulesVersion, Settings: s}
	i := 0
	for _, b := range cfg.Blocks {
		for k := range b.Count {
			if (i/chunkSize)%shards == cfg.Shard {
				p.seeds = append(p.seeds, b.First+uint64(k))
			}
			i++
		}
	}
	return p, nil
}

// checkBlocks checks that blocks are named, not empty, in increasing order
// and apart, and within the deal numbers.
func checkBlocks(blocks []Block) error {
	if len(blocks) == 0 {
		return errors.New("a table needs at least one block of deals")
	}
	for i, b := range blocks {
		switch {
		case b.Name == "":
			return fmt.Errorf("block %d has no name", i)
		case b.Count <= 0:
			return fmt.Errorf("block %q: the number of deals must be positive (got %d)", b.Name, b.Count)
		case b.First >= 1<<63 || uint64(b.Count) > 1<<63-b.First:
			return fmt.Errorf("block %q: deals %d and on reach 2^63", b.Name, b.First)
		}
		if i > 0 {
			p := blocks[i-1]
			if b.First < p.First+uint64(p.Count) {
				return fmt.Errorf("block %q (from deal %d) does not start after block %q ends", b.Name, b.First, p.Name)
			}
			for _, q := range blocks[:i] {
				if q.Name == b.Name {
					return fmt.Errorf("two blocks are named %q", b.Name)
				}
			}
		}
	}
	return nil
}

// journalName returns the journal of a game's shard.
func journalName(game string, shard, shards int) string {
	return fmt.Sprintf("%s-shard-%d-of-%d.jsonl", game, shard, shards)
}

// readJournals returns the deals of the table the game's journals in the
// work directory hold, by seed. A deal of a block where mc plays counts
// only with mc's game.
func (p *plan) readJournals() (map[uint64]Record, error) {
	names, err := filepath.Glob(filepath.Join(p.cfg.Work, p.spec.Name+"-shard-*.jsonl"))
	if err != nil {
		return nil, err
	}
	done := map[uint64]Record{}
	for _, name := range names {
		lines, err := journal.Read(name, p.head)
		if err != nil {
			return nil, err
		}
		for i, l := range lines {
			var j jsonDeal
			if err := json.Unmarshal(l, &j); err != nil {
				return nil, fmt.Errorf("%s: line %d: %w", name, i+2, err)
			}
			b, ok := blockOf(p.cfg.Blocks, j.Seed)
			if !ok || (b.MC && j.MC == nil) {
				continue // not in this table, or mc must play it too
			}
			r, err := j.record(b.Name)
			if err != nil {
				return nil, fmt.Errorf("%s: line %d: %w", name, i+2, err)
			}
			done[j.Seed] = r
		}
	}
	return done, nil
}

func blockOf(blocks []Block, seed uint64) (Block, bool) {
	for _, b := range blocks {
		if b.Contains(seed) {
			return b, true
		}
	}
	return Block{}, false
}

// Build works on this shard's deals of the table cfg describes, recording
// each in the shard's journal in cfg.Work as it finishes, and skipping the
// deals any journal of the game there holds already. When the journals
// hold every deal of the table, it writes the table to cfg.Out. A
// cancelled ctx stops it within about a second (a deal in flight is
// dropped) with ctx's error; the journal keeps every deal finished.
func Build(ctx context.Context, cfg Config) (*Summary, error) {
	p, err := newPlan(cfg)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(cfg.Work, 0o755); err != nil {
		return nil, fmt.Errorf("create the work directory: %w", err)
	}
	done, err := p.readJournals()
	if err != nil {
		return nil, err
	}
	sum := &Summary{Status: Status{Game: p.spec.Name, Deals: len(p.seeds)}}
	var todo []uint64
	for _, s := range p.seeds {
		if _, ok := done[s]; !ok {
			todo = append(todo, s)
		}
	}
	sum.Done, sum.Todo = len(p.seeds)-len(todo), len(todo)
	sum.Workers = min(max(cfg.Workers, 1), len(todo))
	if cfg.Out != "" {
		if err := os.MkdirAll(cfg.Out, 0o755); err != nil {
			return nil, fmt.Errorf("create the table directory: %w", err)
		}
		final := p.spec.Name + ".parquet"
		if sum.Removed, err = atomicfile.Clean(cfg.Out, func(f string) bool { return filepath.Base(f) == final }); err != nil {
			return nil, err
		}
	}
	if len(todo) > 0 {
		j, _, err := journal.Open(filepath.Join(cfg.Work, journalName(p.spec.Name, cfg.Shard, max(cfg.Shards, 1))), p.head)
		if err != nil {
			return nil, err
		}
		sum.Journal = j.Path()
		if cfg.OnStart != nil {
			cfg.OnStart(sum.Status)
		}
		err = p.work(ctx, todo, j, done, sum)
		if cerr := j.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return sum, err
		}
	} else if cfg.OnStart != nil {
		cfg.OnStart(sum.Status)
	}
	t, missing, err := p.assemble(done)
	if err != nil {
		return sum, err
	}
	sum.Missing = missing
	if t == nil || cfg.Out == "" {
		sum.Table = t
		return sum, nil
	}
	path := filepath.Join(cfg.Out, p.spec.Name+".parquet")
	if err := WriteFile(path, t); err != nil {
		return sum, err
	}
	sum.Table, sum.Path = t, path
	return sum, nil
}

// work runs the deals todo on the workers (internal/runner), adding each
// to the journal and to done as it finishes.
func (p *plan) work(ctx context.Context, todo []uint64, j *journal.Journal, done map[uint64]Record, sum *Summary) error {
	units := make([]int, len(todo))
	for i, s := range todo {
		units[i] = int(s) // deal numbers are below 2^63
	}
	type result struct {
		r    Record
		note string
	}
	return runner.Run(ctx, runner.Task[*worker, result]{
		Units: runner.List(units), Workers: sum.Workers, NewWorker: p.newWorker,
		Do: func(ctx context.Context, w *worker, seed int) (result, error) {
			r, note, err := w.deal(ctx, uint64(seed))
			return result{r, note}, err
		},
		Keep: func(_ int, res result) error {
			if err := j.Add(toJSON(res.r, res.note)); err != nil {
				return err
			}
			done[res.r.Deal.Seed] = res.r
			sum.Worked++
			sum.CPU.add(res.r.CPU)
			if p.cfg.OnDeal != nil {
				p.cfg.OnDeal(res.r)
			}
			return nil
		},
	})
}

func (t *Timing) add(o Timing) {
	t.Solve += o.Solve
	t.Worlds += o.Worlds
	t.Heuristic += o.Heuristic
	t.MC += o.MC
	t.Wall += o.Wall
}

// assemble makes the table from the deals done, scored, with the
// verdicts kept from cfg.Keep, or returns nil and the number of deals
// missing. It is an error when a verdict contradicts cfg.Keep's.
func (p *plan) assemble(done map[uint64]Record) (*Table, int, error) {
	t := &Table{Meta: Meta{
		Format: FormatVersion, Game: p.spec.Name, Title: p.spec.Title, RulesVersion: p.spec.RulesVersion,
		Clairvoyant: p.spec.Hidden, Cards: p.spec.Cards, Blocks: slices.Clone(p.cfg.Blocks), Settings: p.head.Settings,
		Command: p.cfg.Command, Counts: map[string]Counts{},
	}}
	missing := 0
	for _, b := range p.cfg.Blocks {
		for k := range b.Count {
			r, ok := done[b.First+uint64(k)]
			if !ok {
				missing++
				continue
			}
			d := r.Deal
			if d.Verdict == Won {
				d.BestProgress = p.spec.Cards // the won position is never expanded
			}
			t.Deals = append(t.Deals, d)
		}
	}
	if missing > 0 {
		return nil, missing, nil
	}
	// The table before first (a verdict it holds keeps its line), then
	// the agents' wins where the deal is still unknown.
	if err := keep(t, p.cfg.Keep); err != nil {
		return nil, 0, err
	}
	played, err := playedWins(t)
	if err != nil {
		return nil, 0, err
	}
	takePlayed(t, played)
	t.rescore()
	return t, 0, nil
}

// rescore scores t's won deals (Score) and counts its deals by verdict,
// per block and in all, into t.Meta.Counts: after its verdicts were set
// or changed.
func (t *Table) rescore() {
	Score(t)
	if t.Meta.Counts == nil {
		t.Meta.Counts = map[string]Counts{}
	}
	for _, b := range t.Meta.Blocks {
		t.Meta.Counts[b.Name] = t.Count(b.Name)
	}
	t.Meta.Counts["all"] = t.Count("")
}

// keep gives each deal of t that prev decided and t's search left
// unknown prev's verdict, nodes, line length and progress, and lists it
// in t.Meta.Kept, or, when prev took its verdict from a solver run
// (Meta.Folded), under that run in t.Meta.Folded, so that the run still
// answers for it, or when an agent won it there (Meta.WonInPlay), in
// t.Meta.WonInPlay. A deal both leave unknown keeps the nodes and
// progress of a folded run that searched it further (FoldedRun.Searched).
// It is an error, naming the first deals, when t decided a deal the other
// way.
func keep(t, prev *Table) error {
	if prev == nil {
		return nil
	}
	foldedBy := map[uint64]int{}   // prev's folded deals: the index of their run
	searchedBy := map[uint64]int{} // prev's open deals searched by a folded run
	for i, f := range prev.Meta.Folded {
		for _, seed := range f.Deals {
			foldedBy[seed] = i
		}
		for _, seed := range f.Searched {
			searchedBy[seed] = i
		}
	}
	folds := make([]FoldedRun, len(prev.Meta.Folded))
	var clash []string
	for i := range t.Deals {
		d := &t.Deals[i]
		old, ok := prev.Deal(d.Seed)
		if run, searched := searchedBy[d.Seed]; ok && searched && old.Verdict == Unknown && d.Verdict == Unknown && old.Nodes > d.Nodes {
			// Open in both: the larger search that left it so still counts.
			d.Nodes, d.BestProgress = old.Nodes, max(d.BestProgress, old.BestProgress)
			folds[run].Searched = append(folds[run].Searched, d.Seed)
			continue
		}
		if !ok || old.Verdict == Unknown || old.Verdict == d.Verdict {
			continue
		}
		if d.Verdict != Unknown {
			clash = append(clash, fmt.Sprintf("deal %d is %s, %s before", d.Seed, d.Verdict, old.Verdict))
			continue
		}
		d.Verdict, d.Nodes, d.LineLength, d.BestProgress, d.DeadAtStart = old.Verdict, old.Nodes, old.LineLength, old.BestProgress, old.DeadAtStart
		if run, ok := foldedBy[d.Seed]; ok {
			folds[run].Deals = append(folds[run].Deals, d.Seed)
			continue
		}
		if slices.Contains(prev.Meta.WonInPlay, d.Seed) {
			// Won by an agent of that table: the same agents answer for it.
			t.Meta.WonInPlay = append(t.Meta.WonInPlay, d.Seed)
			continue
		}
		t.Meta.Kept = append(t.Meta.Kept, d.Seed)
	}
	slices.Sort(t.Meta.WonInPlay)
	if len(clash) > 0 {
		return fmt.Errorf("%s: the new verdicts contradict the kept table's (%s): a search or a proof is wrong, so no table was written",
			t.Meta.Game, textlist.Short(clash, 5, "; "))
	}
	for i, f := range prev.Meta.Folded {
		if len(folds[i].Deals) > 0 || len(folds[i].Searched) > 0 {
			f.Deals, f.Searched = folds[i].Deals, folds[i].Searched // the run as recorded, with the deals kept
			t.Meta.Folded = append(t.Meta.Folded, f)
		}
	}
	return nil
}

// worker works on one deal at a time with its own game, solvers and
// agents.
type worker struct {
	p        *plan
	game     env.Game
	world    env.Game
	solve    *solver.Solver
	worlds   *solver.Solver
	env      *env.Env
	heur, mc agents.Agent
}

// worldTableBits sizes the transposition table of the world searches,
// whose budgets are small.
const worldTableBits = 20

func (p *plan) newWorker() (*worker, error) {
	s := p.head.Settings
	w := &worker{p: p}
	var err error
	if w.game, err = env.NewGame(p.spec.Name); err != nil {
		return nil, err
	}
	w.world = w.game.Clone()
	if w.solve, err = solver.New(solver.Options{Nodes: s.Nodes, TableBits: s.TableBits}); err != nil {
		return nil, err
	}
	if s.Worlds > 0 {
		if w.worlds, err = solver.New(solver.Options{Nodes: s.WorldNodes, TableBits: min(worldTableBits, tableBits(s.TableBits))}); err != nil {
			return nil, err
		}
	}
	if w.env, err = env.Make(p.spec.Name, env.Options{}); err != nil {
		return nil, err
	}
	w.heur, w.mc = p.heur.New(), p.mc.New()
	for _, a := range []agents.Agent{w.heur, w.mc} {
		if err := agents.Prepare(a, p.spec); err != nil {
			return nil, err
		}
	}
	return w, nil
}

func tableBits(b int) int {
	if b == 0 {
		return solver.DefaultTableBits
	}
	return b
}

// deal works on deal seed: the solver's verdict, the worlds, the agents.
// It returns a note for the journal (why a line did not verify).
func (w *worker) deal(ctx context.Context, seed uint64) (Record, string, error) {
	b, _ := blockOf(w.p.cfg.Blocks, seed)
	r := Record{Deal: Deal{Seed: seed, Block: b.Name}}
	d := &r.Deal
	start := time.Now()
	clock := cpuTime()
	lap := func() float64 {
		now := cpuTime()
		dt := now - clock
		clock = now
		return dt
	}
	w.game.Deal(seed)
	res := w.solve.Solve(ctx, w.game)
	if res.Stop == solver.Cancelled {
		return r, "", ctx.Err()
	}
	d.Nodes, d.BestProgress = res.Nodes, res.Best
	note := ""
	switch res.Verdict {
	case solver.Solved:
		d.Verdict, d.LineLength = Won, len(res.Line)
	case solver.Unsolvable:
		d.Verdict, d.DeadAtStart = Lost, res.Passes == 0
	default:
		d.Verdict = Unknown
		if res.Stop == solver.Unverified {
			note = "a line found did not verify: " + res.Err
		}
	}
	r.CPU.Solve = lap()
	if s := w.p.head.Settings; s.Worlds > 0 {
		det := w.world.(env.Determinizer)
		for i := range s.Worlds {
			w.world.CopyFrom(w.game)
			det.Determinize(WorldRand(seed, i))
			res := w.worlds.Solve(ctx, w.world)
			if res.Stop == solver.Cancelled {
				return r, "", ctx.Err()
			}
			d.Worlds.Tried++
			switch res.Verdict {
			case solver.Solved:
				d.Worlds.Won++
			case solver.Unsolvable:
				d.Worlds.Lost++
			}
		}
	}
	r.CPU.Worlds = lap()
	var err error
	if d.Heuristic, err = w.play(w.heur, seed); err != nil {
		return r, "", err
	}
	r.CPU.Heuristic = lap()
	if b.MC {
		if err := ctx.Err(); err != nil {
			return r, "", err
		}
		if d.MC, err = w.play(w.mc, seed); err != nil {
			return r, "", err
		}
	}
	r.CPU.MC = lap()
	r.CPU.Wall = time.Since(start).Seconds()
	r.CPU.round()
	return r, note, nil
}

// play lets agent a, seeded with the deal number, play deal seed.
func (w *worker) play(a agents.Agent, seed uint64) (Play, error) {
	res, err := agents.Play(w.env, a, seed, seed, nil)
	if err != nil {
		return Play{}, err
	}
	return Play{Played: true, Won: res.Outcome == env.Won, Progress: res.Progress}, nil
}

// WorldRand returns the generator that reshuffles the hidden cards of
// world i of deal seed: worlds are the same on every machine.
func WorldRand(seed uint64, i int) *cards.Rand {
	return cards.NewRand(mix(mix(seed) ^ uint64(i+1)))
}
