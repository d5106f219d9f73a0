package all_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/patience-gym/patience/env"
	_ "github.com/patience-gym/patience/env/all"
	"github.com/patience-gym/patience/solver"
	_ "github.com/patience-gym/patience/solver/all"
)

// pinned is what one search of a deal gave at a node budget: its verdict,
// the nodes it expanded, the safe moves it played, the positions the dead
// tests cut off, the length of its winning line, and its best progress.
type pinned struct {
	seed              uint64
	verdict           string
	nodes, safe, dead int64
	moves, best       int
}

func (p pinned) String() string {
	return fmt.Sprintf("{%d, %q, %d, %d, %d, %d, %d}", p.seed, p.verdict, p.nodes, p.safe, p.dead, p.moves, p.best)
}

// pinnedSearches are searches of deals of every game at small node
// budgets, recorded before the games' search knowledge moved out of their
// rules packages. A search with a node budget is deterministic, so any
// change to a safe move, a dead test, a pruning rule, the evaluation or the
// passes shows here as a different node count or verdict. The deals mix
// wins, losses proved at the start and by search, budgets run out, and for
// Cromwell hooked swaps (1,000,003, 1,000,008, 1,000,020, 1,000,059) and
// deals whose allowed swaps were listed at the start. Cromwell's 1,000,008
// and 1,000,020 were pinned again when its king-lock test learned a king's
// own run: the same verdicts, bests and lines, with a few more safe moves
// and dead-test cuts.
var pinnedSearches = []struct {
	game   string
	budget int64
	want   []pinned
}{
	{"cromwell", 100_000, []pinned{
		{1000000, "solved", 1496, 58, 0, 166, 85},
		{1000001, "solved", 14895, 2213, 1, 161, 65},
		{1000002, "solved", 368, 133, 16, 146, 77},
		{1000003, "solved", 9913, 2281, 45, 142, 79},
		{1000004, "solved", 120, 49, 0, 158, 91},
		{1000005, "solved", 137, 0, 0, 134, 103},
		{1000006, "solved", 33560, 3052, 135, 136, 83},
		{1000007, "solved", 105, 48, 0, 151, 76},
		{1000008, "solved", 48843, 13819, 971, 151, 90},
		{1000009, "solved", 33838, 230, 214, 146, 65},
		{1000020, "unknown", 100_000, 15985, 24151, 0, 68},
		{1000059, "solved", 87, 57, 0, 142, 75},
		{1000228, "unsolvable", 1, 0, 1, 0, 0},
	}},
	{"cromwell:noswap", 30_000, []pinned{
		{1000000, "unknown", 30000, 1949, 3750, 0, 35},
		{1000001, "solved", 3484, 687, 59, 147, 81},
		{1000002, "unsolvable", 1, 0, 1, 0, 0},
		{1000003, "unsolvable", 1, 0, 1, 0, 0},
		{1000004, "unsolvable", 1, 0, 1, 0, 0},
		{1000005, "solved", 410, 128, 30, 126, 99},
		{1000006, "unsolvable", 1, 0, 1, 0, 0},
		{1000007, "unsolvable", 1, 0, 1, 0, 0},
		{1000008, "unsolvable", 1, 0, 1, 0, 0},
		{1000009, "solved", 7880, 654, 1, 167, 85},
		{1000010, "solved", 80, 60, 0, 139, 90},
		{1000011, "unsolvable", 1, 0, 1, 0, 0},
		{1000012, "unsolvable", 1, 0, 1, 0, 0},
		{1000013, "solved", 77, 57, 0, 133, 71},
	}},
	{"fifteen", 20_000, []pinned{
		{1000000, "solved", 12665, 123, 0, 418, 97},
		{1000001, "unknown", 20000, 39, 0, 0, 73},
		{1000002, "solved", 1816, 84, 0, 345, 102},
		{1000003, "unknown", 20000, 101, 0, 0, 76},
		{1000004, "solved", 2946, 48, 0, 677, 92},
		{1000005, "unknown", 20000, 1304, 0, 0, 99},
		{1000009, "unsolvable", 8186, 0, 0, 0, 1},
		{1000038, "unsolvable", 161, 0, 0, 0, 1},
	}},
	{"fourquarters", 20_000, []pinned{
		{1000000, "unsolvable", 1, 0, 1, 0, 0},
		{1000001, "unsolvable", 1, 0, 1, 0, 0},
		{1000002, "unsolvable", 1, 0, 1, 0, 0},
		{1000003, "unknown", 20000, 0, 0, 0, 44},
		{1000004, "unsolvable", 1, 0, 1, 0, 0},
		{1000005, "unsolvable", 1, 0, 1, 0, 0},
		{1000022, "unsolvable", 712, 0, 0, 0, 28}, // 799 before the proof first (passes.go)
	}},
	{"fourquarters:hub", 20_000, []pinned{
		{1000000, "solved", 1529, 0, 0, 75, 102},
		{1000001, "solved", 5663, 0, 0, 74, 102},
		{1000002, "unknown", 20000, 0, 0, 0, 64},
		{1000003, "unknown", 20000, 0, 0, 0, 98},
		{1000004, "unknown", 20000, 0, 0, 0, 96},
		{1000005, "solved", 783, 0, 0, 82, 102},
		{1000065, "unsolvable", 498, 0, 0, 0, 24},
	}},
	{"royalparade", 20_000, []pinned{
		{1000000, "solved", 69, 43, 0, 110, 84},
		{1000001, "solved", 115, 45, 1, 107, 92},
		{1000002, "unsolvable", 1, 0, 1, 0, 0},
		{1000003, "unknown", 20000, 4912, 2926, 0, 56},
		{1000004, "unknown", 20000, 786, 1937, 0, 68},
		{1000005, "solved", 5903, 786, 188, 105, 80},
	}},
	{"limited", 20_000, []pinned{
		{1000000, "unknown", 20000, 0, 0, 0, 64},
		{1000001, "unknown", 20000, 0, 0, 0, 67},
		{1000002, "unknown", 20000, 0, 0, 0, 52},
		{1000003, "solved", 209, 0, 0, 209, 103},
		{1000004, "unknown", 20000, 0, 0, 0, 56},
		{1000005, "solved", 362, 0, 0, 209, 103},
	}},
	{"ladder", 20_000, []pinned{
		{1000000, "unknown", 20000, 211, 0, 0, 17},
		{1000001, "unknown", 20000, 86, 0, 0, 17},
		{1000002, "unknown", 20000, 175, 0, 0, 31},
		{1000003, "unknown", 20000, 499, 0, 0, 9},
		{1000051, "solved", 962, 68, 0, 238, 103},
	}},
}

// TestSearchesPinned checks that the solver, with every game's search
// knowledge, searches each deal exactly as pinned: the same verdict after
// the same number of nodes.
func TestSearchesPinned(t *testing.T) {
	for _, c := range pinnedSearches {
		t.Run(c.game, func(t *testing.T) {
			s, err := solver.New(solver.Options{Nodes: c.budget, TableBits: 20})
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range c.want {
				g, err := env.NewGame(c.game)
				if err != nil {
					t.Fatal(err)
				}
				g.Deal(w.seed)
				r := s.Solve(context.Background(), g)
				got := pinned{w.seed, r.Verdict.String(), r.Nodes, r.SafeMoves, r.Dead, len(r.Line), r.Best}
				if got != w {
					t.Errorf("deal %d at %d nodes:\n got %v\nwant %v", w.seed, c.budget, got, w)
				}
			}
		})
	}
}
