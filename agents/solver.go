package agents

import (
	"context"
	"fmt"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/solver"
)

// DefaultSolverNodes is the solver agent's node budget per search.
const DefaultSolverNodes = 1_000_000

// SolverSettings are the solver agent's settings.
type SolverSettings struct {
	// Nodes is the node budget of one search (DefaultSolverNodes when 0).
	// Node budgets make the agent deterministic.
	Nodes int64
	// PerMove searches again before every move while no winning line is
	// known (each search with the budget Nodes); otherwise the agent
	// searches once, at its first move, and plays the heuristic for the
	// rest of the game if that search finds no win.
	PerMove bool
	// TableBits sizes the solver's transposition table (see
	// solver.Options; 0 = 2^20 entries, 16 MiB).
	TableBits int
}

// Solver is the solver agent: it searches for a winning line with the
// solver and plays it; where the search finds none (unsolvable, or unknown
// when the budget runs out) it plays the heuristic agent's moves. It reads
// the true game state through View.Peek, hidden cards included: in games
// with hidden cards it is clairvoyant, a ceiling for the fair agents and not
// one of them (see Clairvoyant).
type Solver struct {
	set       SolverSettings
	s         *solver.Solver
	heur      Heuristic
	line      []int
	next      int    // index in line of the next move
	want      uint64 // hash of the position line[next] is to be played from
	searched  bool   // the once-per-game search was made
	lastFound bool
	scratch   env.Game
}

// solverPer is the solver agent's setting per (SolverSettings.PerMove).
var solverPer = toggle{key: "per", off: "game", on: "move",
	doc: "game: search once, at the first move; move: search again before every move while no win is known"}

func init() {
	Register("solver", "plays the solver's winning line (clairvoyant in games with hidden cards: a ceiling, not a fair agent), the heuristic where none is found", func(s *Settings) (func() Agent, error) {
		set := SolverSettings{
			Nodes:     int64(s.Int("nodes", DefaultSolverNodes, "node budget of one search")),
			TableBits: s.Int("table-bits", 20, "log2 of the transposition table's entries (16 bytes each)"),
		}
		set.PerMove = solverPer.read(s)
		if set.Nodes <= 0 {
			s.Errorf("nodes must be positive")
		}
		s.checkTableBits(set.TableBits)
		return checked(s, set, NewSolver)
	})
}

// NewSolver returns a solver agent with the given settings.
func NewSolver(set SolverSettings) (*Solver, error) {
	if set.Nodes < 0 {
		return nil, fmt.Errorf("solver node budget %d is negative", set.Nodes)
	}
	if set.Nodes == 0 {
		set.Nodes = DefaultSolverNodes
	}
	if set.TableBits == 0 {
		set.TableBits = 20
	}
	s, err := solver.New(solver.Options{Nodes: set.Nodes, TableBits: set.TableBits})
	if err != nil {
		return nil, err
	}
	return &Solver{set: set, s: s}, nil
}

// Name returns "solver".
func (a *Solver) Name() string { return "solver" }

// Settings describes the budget: "nodes=1000000 per=game table-bits=20".
func (a *Solver) Settings() string {
	return fmt.Sprintf("nodes=%d per=%s table-bits=%d", a.set.Nodes, solverPer.word(a.set.PerMove), a.set.TableBits)
}

// Clairvoyant reports that the agent reads the true game state, hidden
// cards included: in games with hidden cards its results are a ceiling,
// to be kept out of comparisons between fair agents.
func (a *Solver) Clairvoyant() bool { return true }

// Reset forgets the line and seeds the heuristic fallback.
func (a *Solver) Reset(seed uint64) {
	a.line, a.next, a.searched, a.lastFound = a.line[:0], 0, false, false
	a.heur.Reset(seed)
}

// Act plays the next move of the winning line, searching for one first
// when none is known (once a game, or before every move with PerMove), and
// the heuristic's move when no win is found.
func (a *Solver) Act(v View) int {
	g := v.Peek()
	if a.next < len(a.line) && g.Hash() == a.want && v.Mask().Has(a.line[a.next]) {
		return a.play(g)
	}
	a.line, a.next = a.line[:0], 0
	if !a.searched || a.set.PerMove {
		a.searched = true
		res := a.s.Solve(context.Background(), g)
		a.lastFound = res.Verdict == solver.Solved
		if a.lastFound && len(res.Line) > 0 {
			a.line = append(a.line, res.Line...)
			a.want = g.Hash()
			return a.play(g)
		}
	}
	return a.heur.Act(v)
}

// play returns the line's next move and records the position expected
// after it.
func (a *Solver) play(g env.Game) int {
	m := a.line[a.next]
	a.next++
	if a.next < len(a.line) {
		if a.scratch == nil || a.scratch.Spec() != g.Spec() {
			a.scratch = g.Clone()
		}
		a.scratch.CopyFrom(g)
		a.scratch.Apply(m)
		a.want = a.scratch.Hash()
	}
	return m
}

// IsClairvoyant reports whether agent a reads the true game state (hidden
// cards included), as the solver agent does; such agents are a ceiling,
// not fair players, in games with hidden cards.
func IsClairvoyant(a Agent) bool {
	c, ok := a.(interface{ Clairvoyant() bool })
	return ok && c.Clairvoyant()
}
