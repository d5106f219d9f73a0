// Package solverlabels writes the label datasets of `patience label
// --solver`: positions labelled with the solver's verdict, the exact
// targets of a network that learns which positions can still be won.
//
// For each deal, one of Config.Agents (in turn, deal by deal) plays a whole
// game, with a uniformly random legal move instead of its own with chance
// Config.Explore, so that lost positions appear beside won ones. Its
// positions are then labelled by solver.Solver with a node budget
// (Config.Nodes): won (a winning line was found; Distance is its length),
// lost (every reachable position was searched), or unknown (the budget ran
// out).
//
// In a game of perfect information a position the agent reached after a
// lost one is lost too, and one before a winnable one is winnable, so the
// labels of the whole game follow from a few searches: the start and the
// end are searched, then the game is cut in halves until the agent's last
// winnable position (the critical one, where its move lost the game) is
// found. Every position on a winning line found is winnable, at a known
// distance from the win (a cache keeps them, and saves searches). The rows
// are:
//
//   - "path": up to Config.PathPositions positions of the agent's game
//     whose verdict is known, the critical position and the first lost one
//     always among them;
//   - "child": every legal move's successor of the critical position and
//     of Config.SiblingPositions other winnable positions of the game,
//     each searched on its own: which moves keep a position winnable, and
//     the lost siblings, the scarce negatives a one-step look-ahead must
//     learn to avoid;
//   - "line": Config.LinePositions positions of the winning line found from
//     the deal's start, with their distance to the win.
//
// In a game with hidden cards the solver is clairvoyant, so a position is
// labelled by Config.Worlds determinizations of it (env.Env.Determinize:
// the hidden cards reshuffled consistently with what the player sees),
// each searched: Wins of Worlds can be won, a value estimate a player can
// use. Config.PathPositions positions of the agent's game are drawn and
// labelled; the first Config.SiblingPositions of them with a choice have
// every child labelled too, each child in the same worlds as its parent
// (the parent determinized, then the move made), so that the children of
// one position are compared on the same deals. There are no line rows.
//
// The output is a directory of Parquet files, part-NNNNN.parquet, each
// with the rows (Row) of Config.PartDeals deals, written under a temporary
// name and renamed when complete, with the key-value metadata
// datasets.MetaKey (Meta, as JSON); a rerun skips finished parts. Labels
// depend on the node budget, never on time or on the number of workers.
package solverlabels

import (
	"context"
	"errors"
	"fmt"
	"os"
	"reflect"
	"slices"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/internal/atomicfile"
	"github.com/patience-gym/patience/internal/memlimit"
	"github.com/patience-gym/patience/labels"
	"github.com/patience-gym/patience/solver"
)

// Version is the version of the labelling procedure and of the rows'
// layout; it is bumped whenever the same Config would write other rows.
// (2: the inside column; 3: the best column).
const Version = 3

// The kinds of rows (Row.Kind).
const (
	KindPath  = "path"
	KindChild = "child"
	KindLine  = "line"
)

// Row is one labelled position.
type Row struct {
	// Deal is the deal number.
	Deal int64 `parquet:"deal"`
	// Position numbers the labelled positions of the output: (Deal −
	// SeedStart) × 2^20 + the position's rank among the deal's rows.
	Position int64 `parquet:"position"`
	// Parent is, for a child row, the Position of the path row it is a
	// child of; −1 otherwise. The children of one position share it.
	Parent int64 `parquet:"parent"`
	// Kind is "path", "child" or "line" (see the package comment).
	Kind string `parquet:"kind,dict"`
	// Agent is the agent (its label, as `patience agents` writes it) whose
	// game the position comes from.
	Agent string `parquet:"agent,dict"`
	// Step is the position's step in the agent's game (a child's: its
	// parent's; a line position's: its step along the line).
	Step int32 `parquet:"step"`
	// Action is, for a child row, the move from the parent; −1 otherwise.
	// Chosen is true for the move the agent played there.
	Action int32 `parquet:"action"`
	Chosen bool  `parquet:"chosen"`
	// Obs is the observation of the position.
	Obs []byte `parquet:"obs"`
	// Terminal is true when the game is over in the position (won or no
	// legal move left).
	Terminal bool `parquet:"terminal"`
	// Inside is true when the position lies inside a move of the rules
	// that takes several actions, past its first action (Cromwell's swap
	// with its first card picked): a player that judges moves by the
	// positions they lead to looks through such positions to the end of
	// the move, and never scores them.
	Inside bool `parquet:"inside"`
	// Progress is the position's progress fraction (cards home over all
	// cards); Eval the game's evaluation over its cards.
	Progress float64 `parquet:"progress"`
	Eval     float64 `parquet:"eval"`
	// Worlds is the number of searches the label sums (1 in a game of
	// perfect information, Config.Worlds determinizations otherwise); Wins
	// how many found a win, Unknown how many ran out of budget (the rest
	// were proved lost).
	Worlds  int32 `parquet:"worlds"`
	Wins    int32 `parquet:"wins"`
	Unknown int32 `parquet:"unknown"`
	// Distance is the length of the shortest winning line found (the mean
	// over the worlds won, rounded), −1 when none is known: a lost
	// position, or a winnable one whose label follows from a later
	// position of the agent's game without a search.
	Distance int32 `parquet:"distance"`
	// Best is the most progress (cards home over all cards) of any position
	// the searches reached, the mean over the worlds: the progress a
	// player who saw the hidden cards could reach at least, a value
	// target where wins are rare. A won position's is 1; a label that
	// followed from others without a search has its own progress.
	Best float64 `parquet:"best"`
	// Nodes is the number of positions the searches of this label
	// expanded (0 for a label that followed from others): a measure of
	// how hard the position is to decide.
	Nodes int64 `parquet:"nodes"`
}

// Meta describes an output; every file carries it.
type Meta struct {
	Version          int      `json:"version"`
	Game             string   `json:"game"`
	RulesVersion     int      `json:"rules_version"`
	ObsLen           int      `json:"obs_len"`
	Actions          int      `json:"actions"`
	Agents           []string `json:"agents"`
	Explore          float64  `json:"explore"`
	Completions      int      `json:"completions"`
	SeedStart        uint64   `json:"seed_start"`
	Deals            int64    `json:"deals"`
	Nodes            int64    `json:"nodes"`
	TableBits        int      `json:"table_bits"`
	Worlds           int      `json:"worlds"`
	PathPositions    int      `json:"path_positions"`
	SiblingPositions int      `json:"sibling_positions"`
	LinePositions    int      `json:"line_positions"`
	PartDeals        int      `json:"part_deals"`
	MaxSteps         int      `json:"max_steps"`
	// Command is the command line that wrote the output (not compared
	// when a rerun checks that a part is its own).
	Command string `json:"command"`
	// Part and PartFirstDeal say which deals the file holds.
	Part          int    `json:"part"`
	PartFirstDeal uint64 `json:"part_first_deal"`
	PartDealsHeld int64  `json:"part_deals_held"`
}

// same reports whether two parts' metadata describe the same run.
func (m Meta) same(o Meta) bool {
	m.Command, o.Command = "", ""
	return reflect.DeepEqual(m, o)
}

// Config says what to label.
type Config struct {
	// Game is the game; MaxSteps its step limit (0: the default).
	Game     *env.Spec
	MaxSteps int
	// Agents play the games, deal SeedStart+i by Agents[i mod len].
	Agents []*agents.Factory
	// Explore is the chance of a uniformly random legal move instead of
	// the agent's (0 to 1).
	Explore float64
	// SeedStart and Deals give the deals.
	SeedStart uint64
	Deals     int64
	// Nodes is the node budget of one search (required).
	Nodes int64
	// TableBits sizes each worker's transposition table (0: 21, 32 MiB).
	TableBits int
	// Worlds is the number of determinizations a position of a game with
	// hidden cards is labelled by (0: 8); 1 in games of perfect
	// information.
	Worlds int
	// PathPositions, SiblingPositions and LinePositions say how many rows
	// of each kind a deal gives (see the package comment).
	PathPositions, SiblingPositions, LinePositions int
	// Completions is the number of ways to finish a move under way that
	// are labelled where a position whose children are labelled lies
	// inside a move of several actions (the best by the game's
	// evaluation, and a quarter as many drawn from the others); 0: 32.
	Completions int
	// PartDeals is the number of deals per file (0: 20).
	PartDeals int
	// Shard and Shards select this machine's share of the part files (the
	// contiguous span [Shard*parts/Shards, (Shard+1)*parts/Shards); Shards
	// 0 or 1: every part). The shards' parts go into directories merged by
	// copying them into one: every file says what it holds.
	Shard, Shards int
	// Command is recorded in the metadata.
	Command string
	// Out is the output directory; Workers the parallel workers (files do
	// not depend on it).
	Out     string
	Workers int
	// OnDeal, when set, is called (from any worker) after each deal.
	OnDeal func()
}

// Totals counts what a run wrote.
type Totals struct {
	labels.Totals
	// Searches and Nodes count the solver's work.
	Searches, Nodes int64
}

// Run labels the configured deals into cfg.Out. It stops at the first
// error or when ctx is cancelled; the parts finished by then stay.
func Run(ctx context.Context, cfg Config) (Totals, error) {
	var tot Totals
	spec := cfg.Game
	switch {
	case spec == nil:
		return tot, errors.New("solver labels: no game")
	case len(cfg.Agents) == 0:
		return tot, errors.New("solver labels: no agent")
	case cfg.Deals <= 0:
		return tot, fmt.Errorf("solver labels: deals must be positive, not %d", cfg.Deals)
	case cfg.Nodes <= 0:
		return tot, fmt.Errorf("solver labels: the node budget must be positive, not %d", cfg.Nodes)
	case !(cfg.Explore >= 0 && cfg.Explore <= 1):
		return tot, fmt.Errorf("solver labels: explore %g is not a chance from 0 to 1", cfg.Explore)
	case cfg.PathPositions < 0 || cfg.SiblingPositions < 0 || cfg.LinePositions < 0 || cfg.Worlds < 0 || cfg.PartDeals < 0 || cfg.Completions < 0:
		return tot, errors.New("solver labels: counts must not be negative")
	}
	if cfg.PartDeals == 0 {
		cfg.PartDeals = 20
	}
	if cfg.Completions == 0 {
		cfg.Completions = 32
	}
	if cfg.TableBits == 0 {
		cfg.TableBits = 21
	}
	switch {
	case !spec.Hidden:
		cfg.Worlds = 1
	case cfg.Worlds == 0:
		cfg.Worlds = 8
	}
	if cfg.Workers <= 0 {
		cfg.Workers = 1
	}
	// Each worker makes a solver with its own table: all of them must fit.
	tables := memlimit.Mul(uint64(cfg.Workers), solver.TableBytes(cfg.TableBits))
	if err := memlimit.Check(fmt.Sprintf("solver labels: %d workers' transposition tables of 2^%d entries", cfg.Workers, cfg.TableBits), tables); err != nil {
		return tot, err
	}
	if _, err := solver.New(solver.Options{Nodes: cfg.Nodes, TableBits: cfg.TableBits}); err != nil {
		return tot, fmt.Errorf("solver labels: %w", err)
	}
	if err := os.MkdirAll(cfg.Out, 0o755); err != nil {
		return tot, fmt.Errorf("solver labels: %w", err)
	}
	if _, err := atomicfile.Clean(cfg.Out, nil); err != nil {
		return tot, fmt.Errorf("solver labels: %w", err)
	}
	names := make([]string, len(cfg.Agents))
	for i, f := range cfg.Agents {
		names[i] = f.Label()
	}
	meta := Meta{Version: Version, Game: spec.ID(), RulesVersion: spec.RulesVersion, ObsLen: spec.ObsLen, Actions: spec.Actions,
		Agents: names, Explore: cfg.Explore, Completions: cfg.Completions, SeedStart: cfg.SeedStart, Deals: cfg.Deals, Nodes: cfg.Nodes, TableBits: cfg.TableBits,
		Worlds: cfg.Worlds, PathPositions: cfg.PathPositions, SiblingPositions: cfg.SiblingPositions, LinePositions: cfg.LinePositions,
		PartDeals: cfg.PartDeals, MaxSteps: cfg.MaxSteps, Command: cfg.Command}
	proto, err := env.Make(spec.ID(), env.Options{MaxSteps: cfg.MaxSteps})
	if err != nil {
		return tot, fmt.Errorf("solver labels: %w", err)
	}
	n := int((cfg.Deals + int64(cfg.PartDeals) - 1) / int64(cfg.PartDeals))
	tot.Totals, err = labels.RunParts(ctx, n, cfg.Shard, cfg.Shards, cfg.Workers, func() (*worker, error) { return newWorker(&cfg, proto, meta) },
		func(w *worker) { tot.Searches, tot.Nodes = tot.Searches+w.searches, tot.Nodes+w.nodes })
	return tot, err
}

// PartPath returns the file of part p in dir.
func PartPath(dir string, p int) string { return labels.PartPath(dir, p) }

// label is what the searches say about one position.
type label struct {
	worlds, wins, unknown int32
	distance              int32 // −1: no win found
	nodes                 int64
	best                  float64 // the most progress reached (cards), summed over the worlds; 0: the position's own
}

// won and lost report a perfect-information verdict.
func (l label) won() bool  { return l.wins > 0 && l.wins == l.worlds }
func (l label) lost() bool { return l.wins == 0 && l.unknown == 0 }

// worker labels parts, one at a time.
type worker struct {
	cfg      *Config
	runMeta  Meta // the run's metadata
	spec     *env.Spec
	game     *env.Env
	scratch  *env.Env // a position to search or determinize
	child    *env.Env
	line     env.Game // a winning line replayed
	players  []agents.Agent
	s        *solver.Solver
	path     []*env.Env // the positions of the agent's game, the last one after its last move
	pool     []*env.Env // the buffers path uses
	moves    []int      // the agent's move at each position
	known    map[uint64]label
	rng      cards.Rand
	rows     []Row
	deal     int64 // the deal's index from SeedStart
	meta     *Meta
	ctx      context.Context
	searches int64
	nodes    int64
	startWin []int // the winning line found from the deal's start
	hint     []int // a winning line to try first (repair)
	// The completions of a move under way (labelCompletions).
	seq, prefix []int
	comps       []completion
	deep        []*env.Env
	fixed       []int // the moves of hint that repair played
	mask        env.Mask
}

// newWorker makes a worker with its own copies of proto, the game's Env,
// its own agents and its own solver.
func newWorker(cfg *Config, proto *env.Env, meta Meta) (*worker, error) {
	s, err := solver.New(solver.Options{Nodes: cfg.Nodes, TableBits: cfg.TableBits})
	if err != nil {
		return nil, err
	}
	w := &worker{cfg: cfg, runMeta: meta, spec: proto.Spec(), game: proto.Clone(), s: s, known: map[uint64]label{}}
	w.scratch, w.child = w.game.Clone(), w.game.Clone()
	w.line = w.game.Game().Clone()
	w.mask = env.NewMask(w.spec.Actions)
	for _, f := range cfg.Agents {
		a := f.New()
		if err := agents.Prepare(a, w.spec); err != nil {
			return nil, err
		}
		w.players = append(w.players, a)
	}
	return w, nil
}

// Part writes part p unless its file exists. A part whose run was
// cancelled is not kept: a cancelled search leaves unknown labels.
func (w *worker) Part(ctx context.Context, p int) (rows int64, skipped bool, err error) {
	meta := w.runMeta
	first, n := labels.PartSpan(p, meta.PartDeals, meta.Deals)
	meta.Part, meta.PartFirstDeal, meta.PartDealsHeld = p, meta.SeedStart+uint64(first), n
	f := labels.PartFile{Path: PartPath(w.cfg.Out, p), Version: Version, ByteColumns: []string{"obs"}, Meta: &meta,
		Same: labels.SameRun(func(old Meta) string {
			if old.same(meta) {
				return ""
			}
			return fmt.Sprintf("%s, agents %q, deals from %d, budget %d, %d deals a part", old.Game, old.Agents, old.SeedStart, old.Nodes, old.PartDeals)
		})}
	w.meta, w.ctx = &meta, ctx
	rows, skipped, err = labels.WritePart(ctx, f, n, func(i int64) ([]Row, error) {
		err := w.label(first + i)
		return w.rows, err
	}, w.cfg.OnDeal)
	if err != nil && ctx.Err() == nil {
		err = fmt.Errorf("solver labels: %w", err)
	}
	return rows, skipped, err
}

// label labels deal SeedStart+i into w.rows.
func (w *worker) label(i int64) error {
	seed := w.meta.SeedStart + uint64(i)
	w.rows, w.deal = w.rows[:0], i
	clear(w.known)
	if err := w.play(seed); err != nil {
		return err
	}
	// The draws of a deal depend on its seed alone.
	w.rng.Seed(seed ^ 0x736f6c7665726c61) // "solverla"
	if w.spec.Hidden {
		return w.labelHidden()
	}
	return w.labelOpen()
}

// play plays the deal with its agent, keeping every position in w.path
// (the last one the position after the last move) and every move in
// w.moves.
func (w *worker) play(seed uint64) error {
	agent := w.players[int(w.deal%int64(len(w.players)))]
	w.game.Reset(seed)
	agent.Reset(seed)
	w.rng.Seed(seed ^ 0x6578706c6f726521) // "explore!"
	w.moves = w.moves[:0]
	n := 0
	for {
		if n == len(w.pool) {
			w.pool = append(w.pool, w.game.Clone())
		} else {
			w.pool[n].CopyFrom(w.game)
		}
		if w.game.Done() {
			break
		}
		m := w.game.Mask()
		var a int
		if w.cfg.Explore > 0 && w.rng.Float64() < w.cfg.Explore {
			a = m.Nth(w.rng.IntN(m.Count()))
			// The agent does not see the move: agents keep no state
			// between moves that a foreign move would break, beyond the
			// positions seen.
		} else {
			a = agent.Act(agents.NewView(w.game))
		}
		if _, _, _, err := w.game.Advance(a); err != nil {
			return fmt.Errorf("solver labels: deal %d step %d: %s: %w", seed, n, agent.Name(), err)
		}
		w.moves = append(w.moves, a)
		n++
	}
	w.path = w.pool[:n+1]
	return nil
}

// agentLabel is the label of the agent that plays the current deal.
func (w *worker) agentLabel() string {
	return w.meta.Agents[int(w.deal%int64(len(w.meta.Agents)))]
}

// solve labels the game state of e (a perfect-information game, or one
// world of a hidden one) by one search, or from what earlier searches of
// the deal found. A winning line found makes every position along it
// known.
func (w *worker) solve(e *env.Env) label {
	g := e.Game()
	h := g.Hash()
	if l, ok := w.known[h]; ok {
		return l
	}
	l := label{worlds: 1, distance: -1}
	switch {
	case g.Won():
		l.wins, l.distance = 1, 0
	case e.Mask().Empty():
		// No legal move: lost.
	case w.repair(g):
		l.wins, l.distance = 1, int32(len(w.fixed))
		w.learnLine(g, w.fixed)
	default:
		res := w.s.Solve(w.ctx, g)
		w.searches++
		w.nodes += res.Nodes
		l.nodes = res.Nodes
		l.best = float64(res.Best)
		switch res.Verdict {
		case solver.Solved:
			l.wins, l.distance = 1, int32(len(res.Line))
			w.learnLine(g, res.Line)
		case solver.Unknown:
			l.unknown = 1
		}
	}
	l.best = max(l.best, float64(g.Progress()))
	if l.wins > 0 {
		l.best = float64(w.spec.Cards)
	}
	w.known[h] = l
	return l
}

// repair tries the hint line (a winning line from a position next to g)
// from g, skipping the moves that are not legal there, and reports whether
// it wins; w.fixed is then the moves played. Many children of a winnable
// position are won this way without a search: most moves of a line do
// not depend on the one move that differs.
func (w *worker) repair(g env.Game) bool {
	if len(w.hint) == 0 {
		return false
	}
	w.fixed = w.fixed[:0]
	w.line.CopyFrom(g)
	for _, a := range w.hint {
		w.line.Legal(&w.mask)
		if !w.mask.Has(a) {
			continue
		}
		w.line.Apply(a)
		w.fixed = append(w.fixed, a)
		if w.line.Won() {
			return true
		}
	}
	return false
}

// lineFrom returns a winning line from e read from the positions known
// to be won (each move to a known won position one move nearer the win),
// searching e first if none is known; nil when none is found.
func (w *worker) lineFrom(e *env.Env) []int {
	l := w.solve(e)
	if !l.won() || l.distance < 0 {
		return nil
	}
	var out []int
	g := w.line
	g.CopyFrom(e.Game())
	next := w.scratch.Game()
	for d := l.distance; d > 0; d-- {
		g.Legal(&w.mask)
		found := false
		for a := w.mask.Next(0); a >= 0; a = w.mask.Next(a + 1) {
			next.CopyFrom(g)
			next.Apply(a)
			if k, ok := w.known[next.Hash()]; ok && k.won() && k.distance == d-1 {
				out = append(out, a)
				g.Apply(a)
				found = true
				break
			}
		}
		if !found {
			return nil
		}
	}
	return out
}

// learnLine records every position along a winning line from g as won, at
// its distance from the end of the line (unless a shorter one is known).
func (w *worker) learnLine(g env.Game, line []int) {
	w.line.CopyFrom(g)
	for j, a := range line {
		w.line.Apply(a)
		d := int32(len(line) - j - 1)
		h := w.line.Hash()
		if old, ok := w.known[h]; ok && old.won() && old.distance <= d {
			continue
		}
		w.known[h] = label{worlds: 1, wins: 1, distance: d}
	}
}

// labelOpen labels a deal of a game of perfect information.
func (w *worker) labelOpen() error {
	n := len(w.path) - 1 // the positions are 0..n, n after the last move
	lv := make([]label, n+1)
	has := make([]bool, n+1)
	at := func(k int) label {
		if !has[k] {
			lv[k], has[k] = w.solve(w.path[k]), true
		}
		return lv[k]
	}
	// lo: the last position known winnable; lostFrom: the first known lost.
	lo, lostFrom := -1, n+1
	start, end := at(0), at(n)
	w.startWin = w.startWin[:0]
	if start.won() {
		lo = 0
		w.startWin = append(w.startWin, w.lineFrom(w.path[0])...)
	}
	switch {
	case end.won():
		lo = n
	case end.lost():
		lostFrom = n
	}
	if start.lost() {
		lostFrom = 0
	}
	if lo >= 0 && lo < n {
		hi := min(lostFrom, n)
		for hi-lo > 1 && w.ctx.Err() == nil {
			mid := (lo + hi) / 2
			l := at(mid)
			switch {
			case l.won():
				lo = mid
			case l.lost():
				lostFrom, hi = mid, mid
			default:
				hi = mid // unknown: search below it
			}
		}
	}
	for k := 0; k <= n; k++ {
		if has[k] {
			continue
		}
		switch {
		case k <= lo:
			lv[k], has[k] = label{worlds: 1, wins: 1, distance: -1}, true
			if l, ok := w.known[w.path[k].Hash()]; ok {
				lv[k] = l
			}
		case k >= lostFrom:
			lv[k], has[k] = label{worlds: 1, distance: -1}, true
		}
	}
	// The path rows: the critical position and the first lost one, then
	// others drawn among the known.
	var pick []int
	if lo >= 0 {
		pick = append(pick, lo)
	}
	if lostFrom <= n && lostFrom != lo {
		pick = append(pick, lostFrom)
	}
	var pool []int
	for k := 0; k <= n; k++ {
		if has[k] && k != lo && k != lostFrom {
			pool = append(pool, k)
		}
	}
	pick = append(pick, w.draw(pool, w.cfg.PathPositions-len(pick))...)
	rowOf := map[int]int64{}
	for _, k := range pick {
		rowOf[k] = w.addRow(Row{Kind: KindPath, Step: int32(k), Action: -1, Parent: -1}, w.path[k], w.before(k), lv[k])
	}
	// The children of the critical position and of others winnable.
	var sib []int
	if lo >= 0 && lo < n && w.path[lo].Mask().Count() > 1 {
		sib = append(sib, lo)
	}
	pool = pool[:0]
	for k := 0; k < lo; k++ {
		if w.path[k].Mask().Count() > 1 {
			pool = append(pool, k)
		}
	}
	sib = append(sib, w.draw(pool, w.cfg.SiblingPositions)...)
	for _, k := range sib {
		parent, ok := rowOf[k]
		if !ok {
			parent = w.addRow(Row{Kind: KindPath, Step: int32(k), Action: -1, Parent: -1}, w.path[k], w.before(k), lv[k])
			rowOf[k] = parent
		}
		// A line from the position, to try from each child first.
		w.hint = append(w.hint[:0], w.lineFrom(w.path[k])...)
		if midway(w.path[k]) {
			if err := w.labelCompletions(k, parent); err != nil {
				return err
			}
			continue
		}
		m := w.path[k].Mask()
		for a := m.Next(0); a >= 0; a = m.Next(a + 1) {
			w.child.CopyFrom(w.path[k])
			if _, _, _, err := w.child.Advance(a); err != nil {
				return fmt.Errorf("solver labels: deal %d step %d: %w", w.path[k].Seed(), k, err)
			}
			l := w.solve(w.child)
			w.addRow(Row{Kind: KindChild, Step: int32(k), Action: int32(a), Chosen: a == w.moves[k], Parent: parent}, w.child, w.path[k], l)
		}
	}
	w.hint = w.hint[:0]
	// Positions along the winning line from the start.
	if len(w.startWin) > 0 && w.cfg.LinePositions > 0 {
		idx := make([]int, len(w.startWin))
		for j := range idx {
			idx[j] = j + 1
		}
		steps := w.draw(idx, w.cfg.LinePositions)
		slices.Sort(steps)
		w.scratch.CopyFrom(w.path[0])
		j := 0
		for _, s := range steps {
			for ; j < s; j++ {
				w.child.CopyFrom(w.scratch)
				if _, _, _, err := w.scratch.Advance(w.startWin[j]); err != nil {
					// The line wins the game; only the step limit can
					// stop it: the rest of the line is left out.
					return nil
				}
			}
			w.addRow(Row{Kind: KindLine, Step: int32(s), Action: -1, Parent: -1}, w.scratch, w.child,
				label{worlds: 1, wins: 1, distance: int32(len(w.startWin) - s)})
		}
	}
	return nil
}

// completion is one way to finish a move under way: its actions
// (seq[off:off+n] of the worker's buffer), the evaluation and hash of the
// position it leads to.
type completion struct {
	off, n int
	eval   float64
	hash   uint64
}

// labelCompletions labels the children of position k of the agent's game,
// which lies inside a move of several actions (Cromwell's swap, begun):
// the positions that finish the move, as a player that looks through the
// move compares them. There may be thousands (every pair of cards to
// swap), so the Config.Completions best by the game's evaluation are
// labelled, and a quarter as many drawn from the rest. A row's Action is
// the first action of its completion; Chosen marks the agent's own.
func (w *worker) labelCompletions(k int, parent int64) error {
	own := uint64(0)
	for end := k; end < len(w.path); end++ {
		if !midway(w.path[end]) {
			own = w.path[end].Hash()
			break
		}
	}
	w.seq, w.comps = w.seq[:0], w.comps[:0]
	seen := map[uint64]bool{}
	var walk func(e *env.Env, depth int)
	walk = func(e *env.Env, depth int) {
		for len(w.deep) <= depth {
			w.deep = append(w.deep, e.Clone())
		}
		c := w.deep[depth]
		m := e.Mask()
		for a := m.Next(0); a >= 0; a = m.Next(a + 1) {
			c.CopyFrom(e)
			if _, _, _, err := c.Advance(a); err != nil {
				continue
			}
			w.prefix = append(w.prefix[:depth], a)
			if midway(c) && !c.Done() && depth < 4 {
				walk(c, depth+1)
				continue
			}
			if h := c.Hash(); !seen[h] {
				seen[h] = true
				w.comps = append(w.comps, completion{off: len(w.seq), n: depth + 1, eval: c.Evaluate(), hash: h})
				w.seq = append(w.seq, w.prefix[:depth+1]...)
			}
		}
	}
	walk(w.path[k], 0)
	slices.SortStableFunc(w.comps, func(a, b completion) int {
		switch {
		case a.eval > b.eval:
			return -1
		case a.eval < b.eval:
			return 1
		}
		return 0
	})
	top := min(len(w.comps), w.cfg.Completions)
	rest := make([]int, 0, len(w.comps)-top)
	for i := top; i < len(w.comps); i++ {
		rest = append(rest, i)
	}
	pick := make([]int, 0, top+top/4)
	for i := range top {
		pick = append(pick, i)
	}
	pick = append(pick, w.draw(rest, (top+3)/4)...)
	for _, i := range pick {
		cp := w.comps[i]
		w.child.CopyFrom(w.path[k])
		for _, a := range w.seq[cp.off : cp.off+cp.n] {
			if _, _, _, err := w.child.Advance(a); err != nil {
				return fmt.Errorf("solver labels: deal %d step %d: %w", w.path[k].Seed(), k, err)
			}
		}
		l := w.solve(w.child)
		w.addRow(Row{Kind: KindChild, Step: int32(k), Action: int32(w.seq[cp.off]), Chosen: cp.hash == own, Parent: parent}, w.child, nil, l)
	}
	return nil
}

// labelHidden labels a deal of a game with hidden cards.
func (w *worker) labelHidden() error {
	n := len(w.path) - 1
	var pool []int
	for k := 0; k < n; k++ { // the positions with a move to make
		pool = append(pool, k)
	}
	pick := w.draw(pool, w.cfg.PathPositions)
	slices.Sort(pick)
	sibs := 0
	for _, k := range pick {
		withKids := sibs < w.cfg.SiblingPositions && w.path[k].Mask().Count() > 1
		if withKids {
			sibs++
		}
		if err := w.labelWorlds(k, withKids); err != nil {
			return err
		}
	}
	return nil
}

// labelWorlds labels position k of the agent's game by Config.Worlds
// determinizations, and with kids its every child in the same worlds.
func (w *worker) labelWorlds(k int, kids bool) error {
	pos := w.path[k]
	m := pos.Mask()
	var acts []int
	if kids {
		for a := m.Next(0); a >= 0; a = m.Next(a + 1) {
			acts = append(acts, a)
		}
	}
	own := label{distance: -1}
	ch := make([]label, len(acts))
	for j := range ch {
		ch[j].distance = -1
	}
	dist := make([]int64, len(acts)+1)
	seed := pos.Seed() ^ uint64(k)<<32
	for wd := range w.meta.Worlds {
		var rng cards.Rand
		rng.Seed(seed ^ uint64(wd+1)*0x9e3779b97f4a7c15)
		world := w.scratch
		world.CopyFrom(pos)
		world.Determinize(&rng)
		clear(w.known) // worlds share no positions worth remembering
		own.add(w.solve(world), &dist[0])
		for j, a := range acts {
			w.child.CopyFrom(world)
			if _, _, _, err := w.child.Advance(a); err != nil {
				return fmt.Errorf("solver labels: deal %d step %d: %w", pos.Seed(), k, err)
			}
			ch[j].add(w.solve(w.child), &dist[j+1])
		}
	}
	own.finish(dist[0])
	parent := w.addRow(Row{Kind: KindPath, Step: int32(k), Action: -1, Parent: -1}, pos, w.before(k), own)
	for j, a := range acts {
		ch[j].finish(dist[j+1])
		w.child.CopyFrom(pos)
		if _, _, _, err := w.child.Advance(a); err != nil {
			return fmt.Errorf("solver labels: deal %d step %d: %w", pos.Seed(), k, err)
		}
		w.addRow(Row{Kind: KindChild, Step: int32(k), Action: int32(a), Chosen: a == w.moves[k], Parent: parent}, w.child, pos, ch[j])
	}
	return nil
}

// add counts one world's label into l, summing won worlds' distances in
// *dist.
func (l *label) add(one label, dist *int64) {
	l.worlds++
	l.wins += one.wins
	l.unknown += one.unknown
	l.nodes += one.nodes
	l.best += one.best
	if one.wins > 0 {
		*dist += int64(one.distance)
	}
}

// finish sets the distance to the mean over the worlds won.
func (l *label) finish(dist int64) {
	l.distance = -1
	if l.wins > 0 {
		l.distance = int32((dist + int64(l.wins)/2) / int64(l.wins))
	}
}

// before returns the position of the agent's game before step k, nil for
// the start.
func (w *worker) before(k int) *env.Env {
	if k == 0 {
		return nil
	}
	return w.path[k-1]
}

// draw returns up to k items of pool drawn without replacement (pool is
// reordered).
func (w *worker) draw(pool []int, k int) []int {
	k = max(0, min(k, len(pool)))
	for j := range k {
		r := j + w.rng.IntN(len(pool)-j)
		pool[j], pool[r] = pool[r], pool[j]
	}
	return append([]int(nil), pool[:k]...)
}

// midwayer is implemented by games in which one move of the rules may
// take several actions; Midway reports that such a move is under way.
type midwayer interface{ Midway() bool }

// midway reports whether e's position is inside a move of several actions.
func midway(e *env.Env) bool {
	m, ok := e.Game().(midwayer)
	return ok && m.Midway()
}

// addRow appends the row of position e, reached from position from (nil
// for the start), with label l, filling in what the position and the deal
// say, and returns its Position.
func (w *worker) addRow(r Row, e, from *env.Env, l label) int64 {
	r.Inside = from != nil && midway(from) && midway(e)
	r.Deal = int64(w.meta.SeedStart) + w.deal
	r.Position = w.deal<<20 + int64(len(w.rows))
	r.Agent = w.agentLabel()
	r.Obs = append([]byte(nil), e.Observation()...)
	r.Terminal = e.Outcome() == env.Won || e.Outcome() == env.Lost
	r.Progress = e.ProgressFraction()
	r.Eval = e.Evaluate() / float64(w.spec.Cards)
	r.Worlds, r.Wins, r.Unknown, r.Distance, r.Nodes = l.worlds, l.wins, l.unknown, l.distance, l.nodes
	// A label that followed from others (best 0) is worth its own progress
	// at least, and a won one all the cards.
	r.Best = max(l.best/float64(l.worlds), float64(e.Progress()))
	if l.wins == l.worlds {
		r.Best = float64(w.spec.Cards)
	}
	r.Best /= float64(w.spec.Cards)
	w.rows = append(w.rows, r)
	return r.Position
}

// ReadMeta returns the metadata of the file at path.
func ReadMeta(path string) (Meta, error) {
	var m Meta
	if err := labels.ReadPartMeta(path, &m); err != nil {
		return m, fmt.Errorf("solver labels: %w", err)
	}
	return m, nil
}
