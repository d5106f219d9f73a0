// Package solver decides whether a deal of a patience game can be won, by
// depth-first search over any env.Game.
//
// The search tries the legal moves of a position best first, by the
// evaluation of the positions they lead to (SearchEvaluator where a game
// has one, env.Evaluator otherwise, else progress), and remembers every
// position it has visited in a transposition table keyed by the game's
// full-state hash (or, for a game whose positions fall into classes that
// play alike, by the key of the class: Keyer). The table has a fixed size (Options.TableBits); a full
// bucket evicts its least recently used entry, as Solvitaire's cache does,
// and the positions on the current path are pinned, so cycles are always
// detected. A position evicted after its search may be searched again: that
// costs time, never correctness.
//
// Game knowledge comes only through the optional interfaces this package
// declares (knowledge.go), implemented by a game's search package beside
// the solver (solver/cromwell, ...), which registers how to wrap the
// rules' game (Register; import solver/all for every game's). The solver
// never names a game, and searches the plain rules of a game without a
// search package. Where a game
// names a safe move (SafeMover), the search plays it without trying the
// alternatives; where a game proves a position lost (DeadTester), the
// search goes no deeper, and a costlier test of the same kind
// (StartDeadTester) runs once, on the position a search starts from; where
// a game knows moves that a win never needs (Pruner), the search leaves
// them out; where a move of the rules takes several actions (Staged), its
// parts are ranked by the positions they complete; where the test at the
// start makes the search's copy play a form of the game of its own
// (LineMapper: Cromwell's hooked swap), the line found is mapped to the
// rules before it is replayed. Each game states its rules, with their
// reasons, where it implements them, and the tests check on many small
// positions that they never change a verdict.
//
// A search runs in passes (DefaultPasses). The limited passes leave out the
// moves beyond a limit: a discrepancy pass allows few moves that are not the
// best-ranked one of their position (limited discrepancy search), a slack
// pass allows few moves in a row that place no card. Each may use a third of
// what is left of the budget. The last pass has no limit and alone can prove
// a deal unsolvable. Wins are mostly found by the limited passes: Cromwell's
// by discrepancy passes, The Fifteen's by slack passes. In a game with a
// move the rules allow once (OnceMover, Cromwell's swap), an opening
// pass also makes each form of that move at the start and searches the game
// without it that follows, with small budgets, best forms first, and in a
// new order each round (Options.Jitter; opening.go); and where the game lets
// a search hold that move back (LateOnceMover), a late pass searches as
// if it were spent and makes it only where the game without it is lost
// (Pass.Late). A best-first pass (Pass.BestFirst, bestfirst.go), which no
// game's default plan runs, expands the best position of all it has reached
// rather than the best child of the last one.
//
// A search ends with one of three verdicts: Solved, with the line of moves
// from the start to a win (shortened where the search wandered, and replayed
// through an env.Env before it is reported); Unsolvable, every position
// reachable from the start searched without a win; or Unknown, when a budget
// (nodes or time) ran out first. A search with a node budget is
// deterministic: the same position and options give the same verdict, line
// and node count on every machine. Time budgets are a convenience whose
// results depend on the machine.
//
// Games with hidden cards are solved clairvoyantly: the Game holds the true
// order of its hidden cards, and the search sees it. Such a verdict is an
// upper bound on what a player can achieve (Result.Clairvoyant).
//
// The transposition table stores whole 64-bit hashes with the position's
// progress as a second check. Two different positions are confused only if
// both agree; with 2^22 stored positions and 10^7 probes (a search of ten
// seconds) the chance of any such confusion in one search is about 10^-5. A
// confusion can only prune a position that was not in fact searched, so it
// can turn a Solved into an Unsolvable, never the reverse: every reported
// line is replayed.
package solver

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"time"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/internal/memlimit"
	"github.com/patience-gym/patience/solver/internal/hashmix"
)

// Verdict is the outcome of a search.
type Verdict uint8

// The verdicts.
const (
	// Unknown: a budget ran out before the search could decide.
	Unknown Verdict = iota
	// Solved: the game can be won; Result.Line wins it.
	Solved
	// Unsolvable: every reachable position was searched and none is won.
	Unsolvable
)

// String returns "unknown", "solved" or "unsolvable".
func (v Verdict) String() string {
	return [...]string{"unknown", "solved", "unsolvable"}[v]
}

// DefaultTableBits is the default size of the transposition table: 2^22
// entries of 16 bytes, 64 MiB.
const DefaultTableBits = 22

// Options tune a search. The zero value searches without budgets, with
// the default table, the game's safe moves and its dead test.
type Options struct {
	// Nodes is the node budget: the most positions the search expands
	// (0 = no limit). A search with a node budget is deterministic.
	Nodes int64
	// Time is the time budget (0 = no limit).
	Time time.Duration
	// TableBits sets the transposition table to 2^TableBits entries of 16
	// bytes (0 = DefaultTableBits; 10 to 30).
	TableBits int
	// NoSafeMoves ignores the game's safe moves (SafeMover).
	NoSafeMoves bool
	// NoDeadTest ignores the game's dead test (DeadTester).
	NoDeadTest bool
	// NoPrune ignores the game's pruning of moves (Pruner).
	NoPrune bool
	// NoKey ignores the game's keys of alike positions (Keyer): the
	// table remembers positions by Hash.
	NoKey bool
	// NoNarrow ignores the game's narrowing of the limited passes
	// (Narrower).
	NoNarrow bool
	// NoTable searches without a transposition table, remembering only the
	// positions on the current path (to avoid cycles): an exhaustive search
	// of every path, exponential, for tests on tiny positions.
	NoTable bool
	// Passes are the limited passes run before the last, unlimited one
	// (nil = DefaultPasses; empty = the unlimited pass alone).
	Passes []Pass
	// Jitter adds to the evaluation of each position the search ranks a
	// pseudo-random amount, up to half of Jitter either way (in the
	// evaluation's units: cards, for Cromwell), drawn from the position's
	// hash and Seed. Searches with different seeds then try moves of
	// nearly equal rank in different orders; the same seed gives the same
	// search. 0 ranks by the evaluation alone.
	Jitter float64
	// Seed picks the amounts Jitter adds.
	Seed uint64
	// BestFirst, when above 0, runs a best-first pass (Pass.BestFirst)
	// that may use 1/BestFirst of the budget before the passes (Passes,
	// or the game's plan): 1 to 1000, 0 for none.
	BestFirst int
	// Beam, when above 0, runs a beam pass of this width (Pass.Beam) that
	// may use a quarter of the budget before the other passes (the
	// best-first pass, then Passes or the game's plan): 1 to 1,000,000,
	// 0 for none.
	Beam int
	// Knowledge names a set of the game's search knowledge other than its
	// default (RegisterSet; "" for the default). A game without that set
	// is not searched: its Result is Unknown with Stop NoKnowledge
	// (CheckKnowledge tells beforehand).
	Knowledge string
}

// Pass is one limited pass of a search (see DefaultPasses).
type Pass struct {
	// Discrepancy counts, against the limit, the moves that are not the
	// best-ranked child of their position; otherwise the limit counts moves
	// in a row that place no card.
	Discrepancy bool
	// Limit is the most such moves allowed (0 to 126).
	Limit int
	// Opening makes the pass an opening pass (Limit and Discrepancy
	// unused): in a game with a move allowed once (OnceMover) that is
	// still available, each form of that move is made at the start and
	// the position after it searched with a small budget, in rounds of
	// more forms and larger budgets. Other games skip the pass.
	Opening bool
	// Plain makes the pass rank moves by the game's env.Evaluator (else
	// by progress) rather than by its SearchEvaluator: the evaluation
	// made for play, cheaper, whose other order finds other wins (see
	// Planner). In a game without a SearchEvaluator it ranks as any pass.
	Plain bool
	// BestFirst makes the pass a best-first pass (Limit and Discrepancy
	// unused; bestfirst.go): it expands the position of highest
	// evaluation among all those it has reached, each reached once. Like
	// the unlimited pass, it proves a deal unsolvable when it runs out of
	// positions before its share of the budget.
	BestFirst bool
	// Beam, when above 0, makes the pass a beam pass of this width
	// (Limit and Discrepancy unused; beam.go): layer by layer, it expands
	// every position it keeps and keeps the Beam best of their children.
	// It proves nothing.
	Beam int
	// Share, when above 0, lets the pass use 1/Share of what is left of
	// the budget, instead of a third (a half for an opening pass).
	Share int
	// Late makes the pass hold back a move allowed once
	// (LateOnceMover) while it is available: the pass searches as if
	// it were spent, with that game's safe moves and dead test, and makes
	// it only where that dead test fires or nothing else is legal. Such a
	// pass proves nothing. Games without such a move search as usual.
	Late bool
}

// Check reports an option out of range.
func (o Options) Check() error {
	switch {
	case o.Nodes < 0:
		return fmt.Errorf("node budget %d is negative", o.Nodes)
	case o.Time < 0:
		return fmt.Errorf("time budget %v is negative", o.Time)
	case o.TableBits != 0 && (o.TableBits < 10 || o.TableBits > 30):
		return fmt.Errorf("table size 2^%d is out of range (2^10 to 2^30 entries)", o.TableBits)
	case !(o.Jitter >= 0 && o.Jitter <= 1e6):
		return fmt.Errorf("jitter %v is out of range (0 to 1e6)", o.Jitter)
	case o.BestFirst < 0 || o.BestFirst > 1000:
		return fmt.Errorf("best-first share 1/%d is out of range (1 to 1000, or 0 for none)", o.BestFirst)
	case o.Beam < 0 || o.Beam > maxBeam:
		return fmt.Errorf("beam width %d is out of range (1 to %d, or 0 for none)", o.Beam, maxBeam)
	}
	for _, p := range o.Passes {
		if p.Limit < 0 || p.Limit >= int(unlimited) {
			return fmt.Errorf("pass limit %d is out of range (0 to %d)", p.Limit, unlimited-1)
		}
		if p.Share < 0 || p.Share > 1000 {
			return fmt.Errorf("pass share 1/%d is out of range (1 to 1000, or 0 for the default)", p.Share)
		}
	}
	return nil
}

// Stop says why a search ended without a decision.
type Stop uint8

// The reasons a search stops early.
const (
	// NotStopped: the search decided (Solved or Unsolvable).
	NotStopped Stop = iota
	// NodeBudget: the node budget ran out.
	NodeBudget
	// TimeBudget: the time budget ran out.
	TimeBudget
	// Cancelled: the context was cancelled.
	Cancelled
	// Unverified: the search found a win whose line did not replay to a
	// win through env.Env (a hash collision or a faulty game; Result.Err
	// says what went wrong).
	Unverified
	// NoKnowledge: the game has no set of search knowledge of the name
	// Options.Knowledge gives, so it was not searched (Result.Err says
	// which).
	NoKnowledge
)

// String returns "", "nodes", "time", "cancelled", "unverified" or
// "no knowledge".
func (s Stop) String() string {
	return [...]string{"", "nodes", "time", "cancelled", "unverified", "no knowledge"}[s]
}

// Result is the outcome of one search.
type Result struct {
	// Verdict is the outcome.
	Verdict Verdict
	// Line is the winning line from the start (Solved only): action ids,
	// safe moves included, shortened where the search wandered, and
	// verified by replay.
	Line []int
	// Stop says which budget ended an Unknown search.
	Stop Stop
	// Nodes is the number of positions expanded.
	Nodes int64
	// SafeMoves is the number of safe moves played without branching.
	SafeMoves int64
	// Dead is the number of positions the game's dead test cut off.
	Dead int64
	// MaxDepth is the deepest the search went, in moves from the start.
	MaxDepth int
	// Best is the most progress (cards placed) of any position the search
	// expanded.
	Best int
	// Passes is the number of passes begun (see DefaultPasses).
	Passes int
	// Elapsed is the wall time of the search.
	Elapsed time.Duration
	// Clairvoyant is set for games with hidden cards: the search saw them,
	// so a Solved verdict is an upper bound on what a player can do.
	Clairvoyant bool
	// Err says why a line found did not verify (Stop == Unverified), or
	// which knowledge the game lacks (Stop == NoKnowledge).
	Err string
}

// NodesPerSecond is the search speed.
func (r Result) NodesPerSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Nodes) / r.Elapsed.Seconds()
}

// move is a child of a node: its action and the evaluation of the position
// it leads to.
type move struct {
	action int32
	score  float32
}

// kid is a child of the position being expanded, between the making of
// its key and its probe of the table (Solver.children).
type kid struct {
	key      uint64
	action   int32
	progress uint16
	slack    uint8
}

// frame is a node on the search path.
type frame struct {
	lo, next, hi int    // its children: moves[lo:hi], next the next to try
	line         int    // len(line) at this node
	keys         [2]key // the positions pinned for it (reached, after safe moves)
	nkeys        int
	progress     int   // the position's progress
	slack        uint8 // moves without progress still allowed below it
}

type key struct {
	hash  uint64
	check uint16
}

// unlimited is the slack of a search without a limit on moves without
// progress; it is never used up.
const unlimited uint8 = 127

// DefaultPasses are the limited passes a search runs before its last pass,
// which has no limit. Each pass is a complete depth-first search that leaves
// out the moves beyond its limit: a discrepancy pass allows at most Limit
// moves, on any line, that are not the best-ranked move of their position
// (limited discrepancy search: the evaluation is trusted but not blindly),
// and a slack pass allows at most Limit moves in a row that place no card
// (winning lines seldom need long detours). Passes that alternate the two
// kinds find most wins long before an exhaustive search would; only the
// last pass can prove a deal unsolvable (or a limited pass that never met
// its limit). Cromwell's wins come mostly from discrepancy passes, The
// Fifteen's from slack passes. The late pass, second, and the opening
// pass, third, serve only games with a move allowed once (Cromwell's swap;
// others skip them, so their searches are as before). The late pass holds
// the move back until the game without it is lost, and so finds the wins
// that need it late in the game; on Cromwell's deals 500,000 to 500,299
// (1M nodes) it solved one deal the other passes left unknown, in 10,543
// nodes, and cost no other deal its win (11 unknown instead of 12). The
// opening pass finds the wins that a swap at the start, or after one move,
// gives, which the discrepancy passes miss among thousands of possible
// swaps; it may use half of what is left of the budget.
var DefaultPasses = []Pass{
	{Discrepancy: true, Limit: 0},
	{Discrepancy: true, Limit: 1, Late: true},
	{Opening: true},
	{Discrepancy: true, Limit: 1},
	{Limit: 2}, {Discrepancy: true, Limit: 2},
	{Limit: 4}, {Discrepancy: true, Limit: 3},
	{Limit: 8}, {Discrepancy: true, Limit: 4},
	{Limit: 16},
}

// Solver searches games. It keeps its table and buffers from one search
// to the next; it is not safe for concurrent use (give each goroutine its
// own).
type Solver struct {
	opts    Options
	tt      *table
	states  []env.Game // states[d] is the position at depth d of the path
	scratch env.Game

	// kidStates[i] holds the i-th child of the position being expanded,
	// kids what children knows of it before its probe of the table.
	kidStates []env.Game
	kids      []kid

	spec    *env.Spec
	mask    env.Mask
	moves   []move
	path    []frame
	line    []int
	res     Result
	useSafe bool // the game is an SafeMover and safe moves are on
	useDead bool // the game is an DeadTester and the test is on
	useEval bool // the game is an env.Evaluator
	useSrch bool // the game is an SearchEvaluator
	usePrun bool // the game is an Pruner and pruning is on
	useStag bool // the game is an Staged
	useBoth bool // the game is an DeadEvaluator, with both of its tests on
	useLate bool // the game is an LateOnceMover
	useKey  bool // the game is a Keyer: the table remembers positions by Key
	useNarr bool // the game is a Narrower and narrowing is on
	late    bool // this pass holds the once-allowed move back (Pass.Late)
	plain   bool // this pass ranks by env.Evaluator, not SearchEvaluate (Pass.Plain)
	// useCache keeps scores and dead tests in the score cache; noCache
	// (for tests) turns the cache off here and in the opening pass.
	useCache, noCache bool
	// look is a position buffer for scoring a midway child by its
	// completions.
	look     env.Game
	lookMask env.Mask
	ctx      context.Context
	start    time.Time
	limit    uint8 // this pass's limit (the slack of the start)
	disc     bool  // this pass counts discrepancies
	// passNodes and passTime end a limited pass (node count and time since
	// the start), 0 for none: a limited pass may use a third of what is
	// left of the budget, so the unlimited pass always gets some.
	passNodes int64
	passTime  time.Duration
	cut       bool // this pass left out a move for lack of slack
	// The opening pass (opening.go): its searches of one form each, the
	// forms, and buffers to list them.
	sub        *Solver
	openRoots  []openRoot // the positions the move is made from
	openBase   env.Game   // the position of the root under way
	listing    []opening  // the forms being listed
	openListed bool       // openRoots holds this search's roots
	openRound  int        // the round of the opening pass to resume
	openNext   int        // the root of that round to go on with
	openMasks  []env.Mask
	openStates []env.Game
	scores     scoreCache
	bf         bestFirst // the storage of a best-first pass (and of a beam pass)
	beamCur    []int32   // a beam pass's layer, and the next (beam.go)
	beamNext   []int32
}

// New returns a Solver with the given options.
func New(opts Options) (*Solver, error) {
	if err := opts.Check(); err != nil {
		return nil, fmt.Errorf("solver: %w", err)
	}
	bits := opts.TableBits
	if bits == 0 {
		bits = DefaultTableBits
	}
	if opts.NoTable {
		bits = 12 // only the path is kept
	}
	if err := memlimit.Check(fmt.Sprintf("solver: a transposition table of 2^%d entries", bits), tableBytes(bits)); err != nil {
		return nil, err
	}
	t := newTable(bits)
	t.pathOnly = opts.NoTable
	return &Solver{opts: opts, tt: t}, nil
}

// Options returns the solver's options.
func (s *Solver) Options() Options { return s.opts }

// errFound ends the search when a won position is reached.
var errFound = errors.New("found")

// passShare is the share of what is left of the budget that a limited
// pass may use: one third.
const passShare = 3

// openingShare is the share of what is left of the budget that the
// opening pass may use: one half.
const openingShare = 2

// beamShare: a beam pass (Options.Beam) may use a quarter of the budget.
const beamShare = 4

// maxBeam is the widest beam (Options.Beam): two layers of it stay within
// the best-first pass's room for positions (bfMaxStates).
const maxBeam = 1_000_000

// errPassCap ends a limited pass that used its share of the budget.
var errPassCap = errors.New("pass cap")

// Solve searches the position g (which it does not change) and returns the
// verdict. It searches g wrapped in its game's search knowledge where a
// package registered one (Register, or RegisterSet for the set that
// Options.Knowledge names), and the plain rules otherwise. A cancelled ctx
// stops the search with an Unknown verdict.
func (s *Solver) Solve(ctx context.Context, g env.Game) Result {
	w, ok := wrapSet(g, s.opts.Knowledge)
	if !ok {
		return Result{Verdict: Unknown, Stop: NoKnowledge, Clairvoyant: g.Spec().Hidden,
			Err: CheckKnowledge(g.Spec().Name, s.opts.Knowledge).Error()}
	}
	return s.search(ctx, g, w)
}

// search searches g, which is orig (the position as the rules see it) or
// a copy of it wrapped in its game's search knowledge; a winning line
// found is replayed from orig.
func (s *Solver) search(ctx context.Context, orig, g env.Game) Result {
	s.start = time.Now()
	s.ctx = ctx
	s.res = Result{Clairvoyant: g.Spec().Hidden}
	s.openListed = false
	s.bind(g)
	if g.Won() {
		s.res.Verdict = Solved
		s.res.Line = []int{}
		return s.finish()
	}
	if _, ok := g.(StartDeadTester); ok && !s.opts.NoDeadTest {
		// The test may note what it learns in the state it looks at: it
		// looks at the search's own copy, which the search then starts
		// from.
		g = g.Clone()
		if g.(StartDeadTester).DeadAtStart() {
			// Proved lost before any search: the start is the one node.
			s.res.Verdict = Unsolvable
			s.res.Nodes, s.res.Dead, s.res.Best = 1, 1, g.Progress()
			return s.finish()
		}
	}
	passes := s.opts.Passes
	if passes == nil {
		passes = DefaultPasses
		if p, ok := g.(Planner); ok {
			passes = p.Passes()
		}
	}
	if s.opts.BestFirst > 0 {
		passes = append([]Pass{{BestFirst: true, Share: s.opts.BestFirst}}, passes...)
	}
	if s.opts.Beam > 0 {
		passes = append([]Pass{{Beam: s.opts.Beam, Share: beamShare}}, passes...)
	}
	err := s.sequence(g, passes)
	switch {
	case errors.Is(err, errFound):
		line := s.shorten(g, s.line)
		if lm, ok := g.(LineMapper); ok {
			line = lm.RulesLine(line)
		}
		if err := VerifyEnv(orig, 0, line); err != nil {
			s.res.Verdict, s.res.Stop, s.res.Err = Unknown, Unverified, err.Error()
			break
		}
		s.res.Verdict = Solved
		s.res.Line = line
	case err == nil:
		s.res.Verdict = Unsolvable
	default:
		s.res.Verdict = Unknown
	}
	return s.finish()
}

// pass runs one depth-first search from g with the current slack limit.
func (s *Solver) pass(g env.Game) error {
	s.tt.reset()
	s.path = s.path[:0]
	s.moves = s.moves[:0]
	s.line = s.line[:0]
	s.cut = s.late // a pass that holds a move back proves nothing
	s.state(0).CopyFrom(g)
	err := s.enter(0, -1, s.limit)
	for err == nil && len(s.path) > 0 {
		f := &s.path[len(s.path)-1]
		if f.next == f.hi {
			s.leave()
			continue
		}
		a := int(s.moves[f.next].action)
		f.next++
		err = s.enter(len(s.path), a, f.slack)
	}
	return err
}

// sequence runs the passes one after the other, each limited pass with a
// third of what is left of the budget, then the unlimited pass with the
// rest. It returns errFound for a win, nil when a pass searched everything
// (the deal is unsolvable), and another error when a budget stopped it.
func (s *Solver) sequence(g env.Game, passes []Pass) error {
	var err error
	for i := 0; i <= len(passes); i++ {
		s.limit, s.disc, s.late, s.plain = unlimited, false, false, false
		s.passNodes, s.passTime = 0, 0
		if i < len(passes) {
			s.limit, s.disc = uint8(passes[i].Limit), passes[i].Discrepancy
			s.plain = passes[i].Plain && s.useSrch
			if passes[i].Late {
				if !s.useLate || !g.(OnceMover).OnceAvailable() {
					continue // nothing to hold back: the other passes cover it
				}
				s.late = true
			}
			share := int64(passShare)
			if passes[i].Opening {
				share = openingShare
			}
			if passes[i].Share > 0 {
				share = int64(passes[i].Share)
			}
			if s.opts.Nodes > 0 {
				s.passNodes = s.res.Nodes + (s.opts.Nodes-s.res.Nodes)/share
			}
			if s.opts.Time > 0 {
				el := time.Since(s.start)
				s.passTime = el + (s.opts.Time-el)/time.Duration(share)
			}
		}
		if i < len(passes) && passes[i].Opening {
			if !usesOpening(g) {
				continue
			}
			s.res.Passes++
			err = s.openingPass(g)
			if err == errPassCap || err == errOpeningDone {
				err = nil
				continue
			}
			break // a win or a budget
		}
		if i < len(passes) && passes[i].Beam > 0 {
			s.res.Passes++
			err = s.beamPass(g, passes[i].Beam)
			if err == errPassCap {
				err = nil
				continue
			}
			break // a win or a budget
		}
		if i < len(passes) && passes[i].BestFirst {
			s.res.Passes++
			err = s.bestFirstPass(g)
			if err == errPassCap {
				err = nil
				continue
			}
			break // a win, a budget, or every position searched
		}
		s.res.Passes++
		err = s.pass(g)
		if err == errPassCap {
			err = nil
			continue
		}
		if err != nil || !s.cut {
			break // a win, a budget, or a pass that searched everything
		}
	}
	return err
}

func (s *Solver) finish() Result {
	s.res.Elapsed = time.Since(s.start)
	s.ctx = nil
	return s.res
}

// bind detects the game's optional interfaces and sizes the buffers.
func (s *Solver) bind(g env.Game) {
	spec := g.Spec()
	if s.spec != spec || len(s.states) == 0 || reflect.TypeOf(s.scratch) != reflect.TypeOf(g) {
		s.spec = spec
		s.states = s.states[:0]
		s.scratch = g.Clone()
		s.kidStates = s.kidStates[:0]
		s.look = g.Clone()
		s.openBase = g.Clone()
		s.mask = env.NewMask(spec.Actions)
		s.lookMask = env.NewMask(spec.Actions)
		s.openStates = s.openStates[:0]
		s.openMasks = s.openMasks[:0]
	}
	_, s.useSafe = g.(SafeMover)
	_, s.useDead = g.(DeadTester)
	_, s.useEval = g.(env.Evaluator)
	_, s.useSrch = g.(SearchEvaluator)
	_, s.usePrun = g.(Pruner)
	_, s.useStag = g.(Staged)
	_, s.useLate = g.(LateOnceMover)
	_, s.useKey = g.(Keyer)
	s.useKey = s.useKey && !s.opts.NoKey
	_, s.useNarr = g.(Narrower)
	s.useNarr = s.useNarr && !s.opts.NoNarrow
	s.usePrun = s.usePrun && !s.opts.NoPrune
	s.useSafe = s.useSafe && !s.opts.NoSafeMoves
	s.useDead = s.useDead && !s.opts.NoDeadTest
	_, both := g.(DeadEvaluator)
	s.useBoth = both && s.useSrch && s.useDead
	// Only a search evaluation costs enough to be worth the cache.
	s.useCache = s.useSrch && !s.noCache
	if s.useCache {
		var kind uint8 // which answers the cache holds
		if s.useDead {
			kind |= 1
		}
		if s.useBoth {
			kind |= 2
		}
		s.scores.prepare(spec, kind)
	}
}

// kidState returns the buffer of the i-th child of the position being
// expanded.
func (s *Solver) kidState(i int) env.Game {
	for len(s.kidStates) <= i {
		s.kidStates = append(s.kidStates, s.scratch.Clone())
	}
	return s.kidStates[i]
}

// state returns the position buffer of depth d.
func (s *Solver) state(d int) env.Game {
	for len(s.states) <= d {
		s.states = append(s.states, s.scratch.Clone())
	}
	return s.states[d]
}

// budget returns the reason to stop before expanding one more node, or nil.
func (s *Solver) budget() error {
	if s.opts.Nodes > 0 && s.res.Nodes >= s.opts.Nodes {
		s.res.Stop = NodeBudget
		return errors.New("node budget")
	}
	if s.passNodes > 0 && s.res.Nodes >= s.passNodes {
		return errPassCap
	}
	if s.res.Nodes&255 == 0 {
		if s.passTime > 0 && time.Since(s.start) >= s.passTime {
			return errPassCap
		}
		if s.ctx != nil && s.ctx.Err() != nil {
			s.res.Stop = Cancelled
			return s.ctx.Err()
		}
		if s.opts.Time > 0 && time.Since(s.start) >= s.opts.Time {
			s.res.Stop = TimeBudget
			return errors.New("time budget")
		}
	}
	return nil
}

// childSlack returns the slack below a position of progress p reached
// from a node of progress from and slack slack, and false when no slack is
// left for it.
func (s *Solver) childSlack(from, p int, slack uint8, midway bool) (uint8, bool) {
	switch {
	case midway:
		return slack, true
	case p > from:
		return s.limit, true
	case slack == unlimited:
		return unlimited, true
	case slack == 0:
		return 0, false
	}
	return slack - 1, true
}

// rankSlack returns the slack below the child of rank r (0 = the best)
// of a node of slack slack, in a discrepancy pass.
func (s *Solver) rankSlack(r int, slack uint8) (uint8, bool) {
	switch {
	case r == 0 || slack == unlimited:
		return slack, true
	case slack == 0:
		return 0, false
	}
	return slack - 1, true
}

// enter makes the position reached from the path's last node by action a
// (the root when a < 0) a node at depth d with the given slack: it plays
// the safe moves, records the position, and lists its children. It returns
// errFound when a win is reached, another error when a budget stops the
// search, and nil otherwise (including when the position was searched
// before).
func (s *Solver) enter(d int, a int, slack uint8) error {
	st := s.state(d)
	if a >= 0 {
		f := &s.path[d-1]
		s.line = append(s.line[:f.line], a)
		st.CopyFrom(s.states[d-1])
		st.Apply(a)
		var ok bool
		if s.disc {
			slack, ok = s.rankSlack(f.next-1-f.lo, f.slack)
		} else {
			slack, ok = s.childSlack(f.progress, st.Progress(), f.slack, s.midway(st))
		}
		if !ok {
			return nil // cannot happen: children are listed with slack
		}
	}
	k0 := key{s.key(st), uint16(st.Progress())}
	if a >= 0 && s.tt.has(k0.hash, k0.check, slack) {
		return nil // searched since its parent listed it
	}
	if err := s.budget(); err != nil {
		return err
	}
	s.res.Nodes++
	s.tt.insert(k0.hash, k0.check, slack, true)
	fr := frame{keys: [2]key{k0}, nkeys: 1}
	if s.useSafe {
		sm := st.(SafeMover)
		p0 := st.Progress()
		limit := 4 * s.spec.Cards // safe moves make progress; this only guards a faulty game
		for n := 0; n < limit; n++ {
			var m int
			if s.holding(st) {
				m = st.(LateOnceMover).LateSafeMove()
			} else {
				m = sm.SafeMove()
			}
			if m < 0 {
				break
			}
			st.Apply(m)
			s.line = append(s.line, m)
			s.res.SafeMoves++
		}
		if st.Won() {
			return errFound
		}
		if st.Progress() > p0 && !s.disc {
			slack = s.limit
		}
		if k1 := (key{s.key(st), uint16(st.Progress())}); k1 != k0 {
			if !s.tt.insert(k1.hash, k1.check, slack, true) {
				s.tt.unpin(k0.hash, k0.check)
				return nil // reached before by another way
			}
			fr.keys[1], fr.nkeys = k1, 2
		}
	}
	if len(s.line) > s.res.MaxDepth {
		s.res.MaxDepth = len(s.line)
	}
	fr.line = len(s.line)
	fr.lo = len(s.moves)
	fr.progress = st.Progress()
	fr.slack = slack
	if fr.progress > s.res.Best {
		s.res.Best = fr.progress
	}
	mode := lateOff
	if s.holding(st) {
		mode = lateHold
		if s.useDead && s.lateDead(st) {
			mode = lateNow
		}
	}
	if s.useDead && s.dead(st) {
		s.res.Dead++
	} else if err := s.children(st, fr.progress, slack, mode); err != nil {
		return err
	}
	fr.next, fr.hi = fr.lo, len(s.moves)
	s.path = append(s.path, fr)
	return nil
}

// leave pops the path's last node.
func (s *Solver) leave() {
	f := &s.path[len(s.path)-1]
	for _, k := range f.keys[:f.nkeys] {
		s.tt.unpin(k.hash, k.check)
	}
	s.moves = s.moves[:f.lo]
	s.path = s.path[:len(s.path)-1]
}

// The ways a late pass (Pass.Late) lists the children of a position.
const (
	lateOff  = iota // every legal move: not a late pass, or the move is spent
	lateHold        // all but the once-allowed move
	lateNow         // the once-allowed move only: without it the game is lost
)

// holding reports whether this pass holds back the once-allowed move of g,
// which is still available.
func (s *Solver) holding(g env.Game) bool {
	return s.late && g.(OnceMover).OnceAvailable()
}

// key returns the key the transposition table remembers g by: its class's
// Key where the game is a Keyer, and its Hash otherwise.
func (s *Solver) key(g env.Game) uint64 {
	if s.useKey {
		return g.(Keyer).Key()
	}
	return g.Hash()
}

// midway reports whether g is inside a move of several actions.
func (s *Solver) midway(g env.Game) bool {
	return s.useStag && g.(Staged).Midway()
}

// score is the evaluation the search ranks a position by.
func (s *Solver) score(g env.Game) float64 {
	if s.plain {
		if s.useEval {
			return g.(env.Evaluator).Evaluate()
		}
		return float64(g.Progress())
	}
	if !s.useCache {
		if s.useSrch {
			return g.(SearchEvaluator).SearchEvaluate()
		}
		if s.useEval {
			return g.(env.Evaluator).Evaluate()
		}
		return float64(g.Progress())
	}
	h := g.Hash()
	e := s.scores.at(h)
	if e.flags&cachedScore != 0 {
		return e.score
	}
	switch {
	case s.useBoth:
		var dead bool
		e.score, dead = g.(DeadEvaluator).SearchEvaluateDead()
		e.flags |= cachedScore | cachedDeadKnown
		if dead {
			e.flags |= cachedDead
		}
	default:
		e.score = g.(SearchEvaluator).SearchEvaluate()
		e.flags |= cachedScore
	}
	return e.score
}

// dead runs the game's dead test on g, or takes its answer from the score
// cache (kept for games with a SearchEvaluator, whose tests cost most).
func (s *Solver) dead(g env.Game) bool {
	return s.cachedTest(g, cachedDeadKnown, cachedDead, deadTest)
}

// lateDead runs the game's dead test as if its once-allowed move were spent
// (LateOnceMover), or takes its answer from the score cache.
func (s *Solver) lateDead(g env.Game) bool {
	return s.cachedTest(g, cachedLateKnown, cachedLateDead, lateDeadTest)
}

// The tests that cachedTest keeps.
var (
	deadTest     = func(g env.Game) bool { return g.(DeadTester).Dead() }
	lateDeadTest = func(g env.Game) bool { return g.(LateOnceMover).LateDead() }
)

// cachedTest returns test(g), from the score cache where it is kept: the
// entry's flag known says the answer is there, and flag yes what it is.
func (s *Solver) cachedTest(g env.Game, known, yes uint8, test func(env.Game) bool) bool {
	if !s.useCache {
		return test(g)
	}
	e := s.scores.at(g.Hash())
	if e.flags&known == 0 {
		e.flags |= known
		if test(g) {
			e.flags |= yes
		}
	}
	return e.flags&yes != 0
}

// scoreCacheBits sizes a Solver's score cache: 2^16 entries of 24 bytes.
const scoreCacheBits = 16

// scoreCache remembers the search evaluations (SearchEvaluator) and
// dead tests of positions by their hash, direct-mapped (a new position
// takes the slot of the one there). A search asks about the same
// positions again and again: each
// pass walks the top of the tree again, and an opening searched again in a
// later round walks its first positions again; on Cromwell's hard deals
// half of the scores asked for were asked for before, and an answer there
// (its relaxed game) costs far more than a look-up. The answers depend on
// the position alone, so the cache changes no search, only its speed.
type scoreCache struct {
	entries []cacheEntry
	// spec and kind are the game and the evaluation the entries are of; a
	// Solver bound to another game, or with other tests, starts again.
	spec *env.Spec
	kind uint8
}

// cacheEntry is a slot of the score cache.
type cacheEntry struct {
	hash  uint64
	score float64
	flags uint8 // cachedScore, cachedDeadKnown, cachedDead, cachedLateKnown, cachedLateDead
}

// The flags of a cache entry.
const (
	cachedScore     = 1 << iota // score holds the position's score
	cachedDeadKnown             // the dead test's answer is known
	cachedDead                  // ... and it is dead
	cachedLateKnown             // the late dead test's answer is known (LateOnceMover)
	cachedLateDead              // ... and it is dead without the once-allowed move
)

// prepare empties the cache unless it holds answers about this game from
// the same tests (kind).
func (c *scoreCache) prepare(spec *env.Spec, kind uint8) {
	if c.entries == nil {
		c.entries = make([]cacheEntry, 1<<scoreCacheBits)
	} else if c.spec != spec || c.kind != kind {
		clear(c.entries)
	}
	c.spec, c.kind = spec, kind
}

// at returns the entry of hash h, emptied first if it held another
// position's answers.
func (c *scoreCache) at(h uint64) *cacheEntry {
	e := &c.entries[h&(1<<scoreCacheBits-1)]
	if e.hash != h || e.flags == 0 {
		*e = cacheEntry{hash: h}
	}
	return e
}

// completion scores a midway position c, reached inside a move of several
// actions, by the best position one more action reaches (the positions an
// unfinished move passes through all look alike to an evaluation).
func (s *Solver) completion(c env.Game) float64 {
	c.Legal(&s.lookMask)
	best := math.Inf(-1)
	for a := s.lookMask.Next(0); a >= 0; a = s.lookMask.Next(a + 1) {
		s.look.CopyFrom(c)
		s.look.Apply(a)
		if v := s.score(s.look); v > best {
			best = v
		}
	}
	return best
}

// children lists the legal moves of st (of progress p and slack slack)
// that lead to a position not searched before and within the slack, best
// first: by the evaluation of the position each leads to, ties by action
// id. A move that wins ends the search. In a late pass, mode says which
// moves to list (lateHold, lateNow).
func (s *Solver) children(st env.Game, p int, slack uint8, mode int) error {
	st.Legal(&s.mask)
	// A late pass makes the held move where the game needs it, not where
	// the pruner would move it to (it proves nothing, so it may).
	if s.usePrun && !(s.late && (mode != lateOff || s.midway(st))) {
		st.(Pruner).Prune(s.line, &s.mask)
	}
	if s.useNarr && (s.disc || s.limit != unlimited) {
		n := s.mask.Count()
		st.(Narrower).Narrow(s.line, &s.mask)
		if s.mask.Count() < n {
			s.cut = true // a move left out: this pass proves nothing
		}
	}
	switch mode {
	case lateHold:
		lm := st.(LateOnceMover)
		lm.LateMask(&s.mask, false)
		if s.mask.Count() == 0 { // nothing else is legal
			st.Legal(&s.mask)
			lm.LateMask(&s.mask, true)
		}
	case lateNow:
		st.(LateOnceMover).LateMask(&s.mask, true)
	default:
		if s.late && s.midway(st) {
			st.(LateOnceMover).LatePick(&s.mask)
		}
	}
	lo := len(s.moves)
	// First every child and its key, each key's bucket of the table asked
	// for at once: in a table larger than the caches every probe waits on
	// memory, and probes asked for together wait together. Then the
	// probes, in the same order, and the children not in the table scored.
	kids := s.kids[:0]
	for a := s.mask.Next(0); a >= 0; a = s.mask.Next(a + 1) {
		c := s.kidState(len(kids))
		c.CopyFrom(st)
		c.Apply(a)
		if c.Won() {
			s.line = append(s.line, a)
			return errFound
		}
		cp := c.Progress()
		cs, ok := slack, true
		if !s.disc {
			cs, ok = s.childSlack(p, cp, slack, s.midway(c))
		}
		if !ok {
			s.cut = true
			continue
		}
		k := s.key(c)
		s.tt.prefetch(k)
		kids = append(kids, kid{key: k, action: int32(a), progress: uint16(cp), slack: cs})
	}
	s.kids = kids
	for i, kd := range kids {
		if s.tt.has(kd.key, kd.progress, kd.slack) {
			continue
		}
		c, a := s.kidStates[i], int(kd.action)
		var score float64
		if s.useStag && s.midway(st) && s.midway(c) {
			score = s.completion(c)
		} else {
			score = s.score(c)
		}
		if s.opts.Jitter != 0 {
			score += s.opts.Jitter * jitter(c.Hash()^s.opts.Seed)
		}
		s.moves = append(s.moves, move{action: int32(a), score: float32(score)})
	}
	// Insertion sort, stable: lists are short, and ties keep id order.
	ms := s.moves[lo:]
	for i := 1; i < len(ms); i++ {
		m := ms[i]
		j := i
		for j > 0 && ms[j-1].score < m.score {
			ms[j] = ms[j-1]
			j--
		}
		ms[j] = m
	}
	if s.disc && slack == 0 && len(ms) > 1 {
		s.moves = s.moves[:lo+1] // no slack for any but the best
		s.cut = true
	}
	return nil
}

// jitter maps h to a pseudo-random number in [-0.5, 0.5): a 64-bit
// finalizer (MurmurHash3's), so that nearby hashes and seeds give
// unrelated numbers.
func jitter(h uint64) float64 {
	return float64(hashmix.Mix(h)>>11)/(1<<53) - 0.5
}
