package agents

import (
	"context"
	"fmt"
	"time"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/solver"
)

// This file holds what the fair search agents (hop, ismcts) share: the
// worlds they sample, a clairvoyant oracle that decides positions of those
// worlds with the solver and remembers its verdicts, and the caps of a
// decision (Caps).
//
// A world is a copy of the episode whose cards the player has never seen
// were drawn afresh, uniformly, and whose every card seen stays where it
// is: one the player cannot tell from the real game (sampleWorld). Asking
// the solver about a world reads that world's hidden cards, which are a
// sample, never the real ones: the agents stay fair
// (TestFairAgentsIgnoreTheHiddenCards).

// unseenDeterminizer is implemented by games whose Determinize reshuffles
// cards a player who remembers has seen (Limited's and Ladder's waste
// below its top, which the observation no longer shows):
// DeterminizeUnseen reshuffles only the cards never seen, and, as
// Determinize, changes neither the observation nor the legal actions.
type unseenDeterminizer interface {
	DeterminizeUnseen(rng *cards.Rand)
}

// sampleWorld makes dst a world of v's episode drawn with rng: a copy
// whose cards never seen are reshuffled (DeterminizeUnseen where the game
// has it, else the game's Determinize, which reshuffles nothing else in
// the other games). dst must be an Env of v's game (View.Scratch).
func sampleWorld(v View, dst *env.Env, rng *cards.Rand) {
	dst.CopyFrom(v.e)
	if u, ok := dst.Game().(unseenDeterminizer); ok {
		// The observation and the mask dst holds stay right: the method
		// changes neither.
		u.DeterminizeUnseen(rng)
		return
	}
	dst.Determinize(rng)
}

// leadsBack reports whether move a leads from world w's position to one the
// player has seen this episode (seen holds visibleHash of each), trying it
// on scratch. A move that turns a card never does.
func leadsBack(w, scratch *env.Env, a int, seen *hashSet) bool {
	scratch.CopyFrom(w)
	if scratch.Try(a) != nil {
		return false
	}
	return seen.has(visibleHash(scratch))
}

// oracle decides positions of sampled worlds with the solver, at a fixed
// node budget per search, and remembers each verdict by the position's
// full-state hash. A full hash names one state of one world, hidden cards
// included, and a search with a node budget is deterministic, so a verdict
// remembered is exactly what a new search would give: the memory is sound
// across worlds, moves and decisions of an episode. A win's line is
// remembered too, position by position (the move to play from each), so a
// world that the game follows along a line found earlier is decided
// without a search, and so are all worlds that hide the same cards (late in
// a game, or in Limited's second deal, where nothing is hidden). The
// solver itself is kept from search to search: its buffers and its score
// cache, whose answers depend on the position alone, serve every world.
type oracle struct {
	s      *solver.Solver
	nodes  int64
	memo   verdictMemo
	replay env.Game // a buffer to walk a line found
	// searches and spent count the searches made and the nodes they
	// expanded since the last Reset (for tests and the agents' costs).
	searches, spent int64
}

// newOracle returns an oracle whose searches expand at most nodes
// positions each, with a transposition table of 2^tableBits entries.
func newOracle(nodes int64, tableBits int) (*oracle, error) {
	s, err := solver.New(solver.Options{Nodes: nodes, TableBits: tableBits})
	if err != nil {
		return nil, fmt.Errorf("the solver of the fair agents: %w", err)
	}
	return &oracle{s: s, nodes: nodes}, nil
}

// reset forgets the verdicts (a new episode).
func (o *oracle) reset() {
	o.memo.clear()
	o.searches, o.spent = 0, 0
}

// decide returns the verdict on position g of a world and, when it is
// Solved and g not already won, the first move of a winning line. It does
// not change g.
func (o *oracle) decide(g env.Game) (solver.Verdict, int) {
	if g.Won() {
		return solver.Solved, -1
	}
	h := g.Hash()
	if v, m, ok := o.memo.get(h); ok {
		return v, m
	}
	res := o.s.Solve(context.Background(), g)
	o.searches++
	o.spent += res.Nodes
	if res.Verdict != solver.Solved || len(res.Line) == 0 {
		o.memo.put(h, res.Verdict, -1)
		return res.Verdict, -1
	}
	// Remember every position of the line with its move: the game may go
	// that way.
	if o.replay == nil || o.replay.Spec() != g.Spec() {
		o.replay = g.Clone()
	}
	o.replay.CopyFrom(g)
	for _, a := range res.Line {
		o.memo.put(o.replay.Hash(), solver.Solved, a)
		o.replay.Apply(a)
	}
	return solver.Solved, res.Line[0]
}

// verdictMemo is a direct-mapped table of verdicts by full-state hash: a
// new position takes the slot of the one there. It allocates once.
type verdictMemo struct {
	slots []memoSlot
}

type memoSlot struct {
	hash    uint64
	move    int32 // the winning move (Solved), -1 for none
	verdict solver.Verdict
	used    bool
}

// memoBits sizes the memo: 2^16 slots of 16 bytes.
const memoBits = 16

func (m *verdictMemo) clear() { clear(m.slots) }

func (m *verdictMemo) get(h uint64) (solver.Verdict, int, bool) {
	if m.slots == nil {
		return 0, 0, false
	}
	s := &m.slots[h&(1<<memoBits-1)]
	if !s.used || s.hash != h {
		return 0, 0, false
	}
	return s.verdict, int(s.move), true
}

func (m *verdictMemo) put(h uint64, v solver.Verdict, move int) {
	if m.slots == nil {
		m.slots = make([]memoSlot, 1<<memoBits)
	}
	m.slots[h&(1<<memoBits-1)] = memoSlot{hash: h, move: int32(move), verdict: v, used: true}
}

// Caps are the settings the fair search agents share beside the node
// budget of one search: what one decision may spend, and the size of the
// solver's transposition table.
type Caps struct {
	// Budget caps the solver's nodes over all searches of one decision (0:
	// no cap); like the node budget of one search it keeps play the same
	// on every machine.
	Budget int64
	// Time caps the time of one decision (0: no cap). A decision cut short
	// plays the best move found so far; play then depends on the machine
	// and its load.
	Time time.Duration
	// TableBits sizes the solver's transposition table: 2^TableBits
	// entries (0: fairTableBits).
	TableBits int
}

// fairTableBits is the default of Caps.TableBits: 2^18 entries, 4 MiB.
const fairTableBits = 18

// readCaps reads the settings budget (budgetDoc says what it caps),
// table-bits and time.
func readCaps(s *Settings, budgetDoc string) Caps {
	return Caps{
		Budget:    int64(s.Int("budget", 0, budgetDoc)),
		TableBits: s.Int("table-bits", fairTableBits, "log2 of the solver's transposition table entries (16 bytes each)"),
		Time:      readMoveTime(s),
	}
}

// readMoveTime reads the setting time.
func readMoveTime(s *Settings) time.Duration {
	v := s.String("time", "0", "cap on the time of one decision (a duration such as 50ms; 0: none); play then depends on the machine")
	if v == "0" {
		return 0
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		s.Errorf("time=%s: want a duration such as 50ms, or 0", v)
		return 0
	}
	return d
}

// check records the errors of c's settings in s.
func (c Caps) check(s *Settings) {
	if c.Budget < 0 {
		s.Errorf("budget must not be negative")
	}
	s.checkTableBits(c.TableBits)
}

// settings returns c's part of an agent's Settings: " budget=N" and
// " time=D", each where it caps anything.
func (c Caps) settings() string {
	s := ""
	if c.Budget > 0 {
		s += fmt.Sprintf(" budget=%d", c.Budget)
	}
	if c.Time > 0 {
		s += " time=" + c.Time.String()
	}
	return s
}

// oracle returns an oracle whose searches expand at most nodes positions
// each, with c's transposition table.
func (c Caps) oracle(nodes int64) (*oracle, error) {
	bits := c.TableBits
	if bits == 0 {
		bits = fairTableBits
	}
	return newOracle(nodes, bits)
}

// exhausted reports whether a decision that began at start, and whose
// searches have expanded spent nodes, has used the nodes or the time c
// allows it.
func (c Caps) exhausted(start time.Time, spent int64) bool {
	if c.Budget > 0 && spent >= c.Budget {
		return true
	}
	return c.Time > 0 && time.Since(start) >= c.Time
}
