package solverlabels

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/env"
	_ "github.com/patience-gym/patience/env/all"
	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/env/fifteen"
	"github.com/patience-gym/patience/internal/memlimit"
	"github.com/patience-gym/patience/labels/internal/labelstest"
	"github.com/patience-gym/patience/solver"
	_ "github.com/patience-gym/patience/solver/all" // the search knowledge the solver uses
)

// readRows reads the rows of every part file in dir, in part order.
func readRows(t *testing.T, dir string) []Row { return labelstest.Rows[Row](t, dir) }

func config(t *testing.T, game, dir string) Config {
	t.Helper()
	spec, f := labelstest.Heuristic(t, game)
	return Config{Game: spec, Agents: []*agents.Factory{f}, SeedStart: 70, Deals: 2, Nodes: 20_000, TableBits: 18,
		PathPositions: 6, SiblingPositions: 1, LinePositions: 3, PartDeals: 1, Out: dir, Workers: 1}
}

// replay returns the position of a row: the agent's game (the heuristic,
// seeded by the deal, no exploration) replayed to the row's step, then
// the row's action for a child (and, inside a move of several actions,
// the completion whose observation the row has). Line rows are not
// replayed.
func replay(t *testing.T, spec *env.Spec, r Row) *env.Env {
	t.Helper()
	e, _ := env.Make(spec.ID(), env.Options{})
	a, err := agents.New("heuristic")
	if err != nil {
		t.Fatal(err)
	}
	e.Reset(uint64(r.Deal))
	a.Reset(uint64(r.Deal))
	for range r.Step {
		if _, _, _, err := e.Advance(a.Act(agents.NewView(e))); err != nil {
			t.Fatal(err)
		}
	}
	if r.Kind == KindChild {
		if _, _, _, err := e.Advance(int(r.Action)); err != nil {
			t.Fatalf("deal %d step %d: the child's move %d: %v", r.Deal, r.Step, r.Action, err)
		}
		// A move of several actions begun (Cromwell's swap): the row is
		// one of the positions that finish it, its Action the first.
		if m, ok := e.Game().(interface{ Midway() bool }); ok && m.Midway() {
			if c := finishing(e, r.Obs, 5); c != nil {
				return c
			}
		}
	}
	return e
}

// completions returns the observations of the positions that finish the
// move under way in e (at most depth more actions), each once (seen).
func completions(e *env.Env, depth int, seen map[string]bool) []string {
	var out []string
	m := e.Mask()
	for a := m.Next(0); a >= 0; a = m.Next(a + 1) {
		c := e.Clone()
		if _, _, _, err := c.Advance(a); err != nil {
			continue
		}
		if mw, ok := c.Game().(interface{ Midway() bool }); ok && mw.Midway() && !c.Done() {
			if depth > 1 {
				out = append(out, completions(c, depth-1, seen)...)
			}
			continue
		}
		if o := string(c.Observation()); !seen[o] {
			seen[o] = true
			out = append(out, o)
		}
	}
	return out
}

// finishing returns the position with observation obs among those that
// finish the move under way in e (at most depth more actions), or nil.
func finishing(e *env.Env, obs []byte, depth int) *env.Env {
	m := e.Mask()
	for a := m.Next(0); a >= 0; a = m.Next(a + 1) {
		c := e.Clone()
		if _, _, _, err := c.Advance(a); err != nil {
			continue
		}
		if mw, ok := c.Game().(interface{ Midway() bool }); ok && mw.Midway() {
			if depth > 1 {
				if f := finishing(c, obs, depth-1); f != nil {
					return f
				}
			}
			continue
		}
		if string(c.Observation()) == string(obs) {
			return c
		}
	}
	return nil
}

// TestOpenLabelsAgreeWithSolver: in the games of perfect information every
// decided label, the ones inferred from others without a search too,
// agrees with a search of the position made here with a larger budget,
// and on positions with few cards left with an exhaustive search (no
// table, no safe moves, no dead test, no pruning); a won label's position
// is the row's observation; a position's children are its legal moves,
// one of them the agent's; along the agent's game the won positions come
// before the lost ones.
func TestOpenLabelsAgreeWithSolver(t *testing.T) {
	for _, game := range []string{"fifteen", "cromwell"} {
		t.Run(game, func(t *testing.T) {
			dir := t.TempDir()
			cfg := config(t, game, dir)
			tot, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			rows := readRows(t, dir)
			if tot.Parts != 2 || tot.Rows != int64(len(rows)) || tot.Searches == 0 {
				t.Fatalf("totals %+v, %d rows read", tot, len(rows))
			}
			big, _ := solver.New(solver.Options{Nodes: 400_000, TableBits: 20})
			plain, _ := solver.New(solver.Options{NoTable: true, NoSafeMoves: true, NoDeadTest: true, NoPrune: true, Nodes: 2_000_000})
			children := map[int64][]Row{}
			checked, exhaustive := 0, 0
			for _, r := range rows {
				if r.Worlds != 1 || r.Wins+r.Unknown > 1 {
					t.Fatalf("row %+v: an open game's label is one world", r)
				}
				if r.Wins == 1 && r.Nodes > 0 && r.Distance < 0 || r.Wins == 0 && r.Distance >= 0 {
					t.Fatalf("row %+v: distance %d with %d wins", r, r.Distance, r.Wins)
				}
				if r.Kind == KindChild {
					children[r.Parent] = append(children[r.Parent], r)
				}
				if r.Kind == KindLine || r.Unknown == 1 {
					continue
				}
				e := replay(t, cfg.Game, r)
				if string(e.Observation()) != string(r.Obs) {
					t.Fatalf("%s row deal %d step %d: the observation is not the replayed position's", r.Kind, r.Deal, r.Step)
				}
				res := big.Solve(context.Background(), e.Game())
				if res.Verdict != solver.Unknown {
					checked++
					if (res.Verdict == solver.Solved) != (r.Wins == 1) {
						t.Fatalf("%s row deal %d step %d action %d: labelled %d wins (%d nodes), the solver says %v",
							r.Kind, r.Deal, r.Step, r.Action, r.Wins, r.Nodes, res.Verdict)
					}
				}
				if cfg.Game.Cards-e.Progress() <= 6 {
					if res := plain.Solve(context.Background(), e.Game()); res.Verdict != solver.Unknown {
						exhaustive++
						if (res.Verdict == solver.Solved) != (r.Wins == 1) {
							t.Fatalf("%s row deal %d step %d: labelled %d wins, exhaustive search says %v", r.Kind, r.Deal, r.Step, r.Wins, res.Verdict)
						}
					}
				}
			}
			if checked < len(rows)/2 {
				t.Fatalf("only %d of %d rows checked", checked, len(rows))
			}
			t.Logf("%d rows, %d checked against the solver, %d exhaustively", len(rows), checked, exhaustive)
			if len(children) == 0 {
				t.Fatal("no children labelled")
			}
			byPos := map[int64]Row{}
			for _, r := range rows {
				byPos[r.Position] = r
			}
			for p, kids := range children {
				parent, ok := byPos[p]
				if !ok || parent.Kind != KindPath {
					t.Fatalf("children of position %d, which is not a path row", p)
				}
				e := replay(t, cfg.Game, parent)
				chosen := 0
				for _, k := range kids {
					if k.Chosen {
						chosen++
					}
				}
				if m, ok := e.Game().(interface{ Midway() bool }); ok && m.Midway() {
					// Inside a move of several actions: the children are
					// the Config.Completions best ways to finish it by the
					// evaluation and a quarter as many others, each once.
					n := len(completions(e, 5, map[string]bool{}))
					top := min(n, 32) // Run's default Completions
					if want := top + min(n-top, (top+3)/4); len(kids) != want || chosen > 1 {
						t.Fatalf("deal %d step %d: %d children (%d chosen) of a move under way with %d completions, want %d",
							parent.Deal, parent.Step, len(kids), chosen, n, want)
					}
					continue
				}
				if got, want := len(kids), e.Mask().Count(); got != want {
					t.Fatalf("deal %d step %d: %d children, %d legal moves", parent.Deal, parent.Step, got, want)
				}
				if chosen != 1 {
					t.Fatalf("deal %d step %d: %d children are the agent's move", parent.Deal, parent.Step, chosen)
				}
			}
			for deal := range cfg.Deals {
				lastWon, firstLost := -1, 1<<30
				for _, r := range rows {
					if r.Kind != KindPath || r.Deal != int64(cfg.SeedStart)+deal || r.Unknown == 1 {
						continue
					}
					if r.Wins == 1 {
						lastWon = max(lastWon, int(r.Step))
					} else {
						firstLost = min(firstLost, int(r.Step))
					}
				}
				if lastWon >= firstLost {
					t.Fatalf("deal %d: won at step %d after lost at step %d", deal, lastWon, firstLost)
				}
			}
		})
	}
}

// TestLabelsAgreeWithExhaustiveSearch: the labels of The Fifteen (the
// heuristic's games, with random moves mixed in so that positions are lost
// early) are what a plain exhaustive search decides: one depth-first pass
// over every move, with no safe moves, no dead test, no pruning and no
// limited passes, on the position decoded from the row's observation.
func TestLabelsAgreeWithExhaustiveSearch(t *testing.T) {
	dir := t.TempDir()
	cfg := config(t, "fifteen", dir)
	f, err := agents.Parse("heuristic:explore=0.2")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Agents, cfg.Deals, cfg.PathPositions, cfg.SiblingPositions = []*agents.Factory{f}, 3, 20, 0
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	plain, _ := solver.New(solver.Options{NoSafeMoves: true, NoDeadTest: true, NoPrune: true, Passes: []solver.Pass{}, Nodes: 200_000, TableBits: 20})
	var won, lost int
	for _, r := range readRows(t, dir) {
		if r.Unknown == 1 || won+lost >= 60 {
			continue
		}
		res := plain.Solve(context.Background(), decode(t, cfg.Game, r.Obs))
		if res.Verdict == solver.Unknown {
			continue
		}
		if (res.Verdict == solver.Solved) != (r.Wins == 1) {
			t.Fatalf("%s row deal %d step %d: labelled %d wins, exhaustive search says %v", r.Kind, r.Deal, r.Step, r.Wins, res.Verdict)
		}
		if r.Wins == 1 {
			won++
		} else {
			lost++
		}
	}
	if won == 0 || lost == 0 {
		t.Fatalf("%d won and %d lost positions checked: the test needs both", won, lost)
	}
	t.Logf("%d won and %d lost positions agree with exhaustive search", won, lost)
}

// decode builds a game of The Fifteen from its observation (every card is
// face up, so the observation is the whole state), independently of the
// labeller's own positions.
func decode(t *testing.T, spec *env.Spec, obs []byte) env.Game {
	t.Helper()
	g := fifteen.New()
	cols := make([][]cards.Card, fifteen.NumCols)
	for c := range fifteen.NumCols {
		for k := range fifteen.MaxHeight {
			if x := obs[c*fifteen.MaxHeight+k]; x != 0 {
				cols[c] = append(cols[c], cards.Card(x))
			}
		}
	}
	g.SetColumns(cols...)
	for s := range cards.NumSuits {
		up, down := obs[fifteen.ObsFoundations+2*s], obs[fifteen.ObsFoundations+2*s+1]
		var ur, dr cards.Rank
		if up != 0 {
			ur = cards.Card(up).Rank()
		}
		if down != 0 {
			dr = cards.Card(down).Rank()
		}
		g.SetFoundation(cards.Suit(s), ur, dr)
	}
	g.SetEmergencyUsed(obs[fifteen.ObsEmergency] == 1)
	e := env.FromPosition(g, 0, env.Options{})
	if string(e.Observation()) != string(obs) {
		t.Fatalf("decoded position observes as %v, not %v", e.Observation(), obs)
	}
	return g
}

// TestHiddenLabelsCountWorlds: in a game with hidden cards a label sums
// Worlds determinizations, children are labelled in the same worlds as
// their parent, and the output does not depend on the number of workers.
func TestHiddenLabelsCountWorlds(t *testing.T) {
	var outs [2][]Row
	for i, workers := range []int{1, 2} {
		dir := t.TempDir()
		cfg := config(t, "limited", dir)
		cfg.Worlds, cfg.Nodes, cfg.Workers, cfg.PathPositions = 3, 3000, workers, 3
		if _, err := Run(context.Background(), cfg); err != nil {
			t.Fatal(err)
		}
		outs[i] = readRows(t, dir)
	}
	if !reflect.DeepEqual(outs[0], outs[1]) {
		t.Fatal("1 and 2 workers wrote different rows")
	}
	rows := outs[0]
	parents := map[int64]bool{}
	kids := 0
	for _, r := range rows {
		if r.Worlds != 3 || r.Wins+r.Unknown > r.Worlds || r.Kind == KindLine {
			t.Fatalf("row %+v", r)
		}
		if r.Kind == KindPath {
			parents[r.Position] = true
		}
	}
	for _, r := range rows {
		if r.Kind == KindChild {
			kids++
			if !parents[r.Parent] {
				t.Fatalf("child of %d, which is no path row", r.Parent)
			}
		}
	}
	if len(parents) != 6 || kids == 0 {
		t.Fatalf("%d path rows, %d children", len(parents), kids)
	}
}

// TestRerunSkipsFinishedParts: a rerun into the same directory skips the
// parts that exist and writes the missing ones as they were; a run with
// other settings refuses the directory.
func TestRerunSkipsFinishedParts(t *testing.T) {
	dir := t.TempDir()
	cfg := config(t, "cromwell", dir)
	cfg.Deals, cfg.Nodes = 3, 2000
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(PartPath(dir, 1))
	if err := os.Remove(PartPath(dir, 1)); err != nil {
		t.Fatal(err)
	}
	tot, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if tot.Parts != 1 || tot.Skipped != 2 {
		t.Fatalf("rerun: %+v, want 1 part written and 2 skipped", tot)
	}
	if after, _ := os.ReadFile(PartPath(dir, 1)); string(after) != string(before) {
		t.Fatal("the part written again differs from the first")
	}
	cfg.Command = "another command line, same settings"
	if tot, err := Run(context.Background(), cfg); err != nil || tot.Skipped != 3 {
		t.Fatalf("rerun with another command line: %+v, %v", tot, err)
	}
	cfg.Nodes = 3000
	if _, err := Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "written by another run") {
		t.Fatalf("another budget in the same directory: %v", err)
	}
	// A cancelled run keeps only whole parts.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cfg.Out = t.TempDir()
	if _, err := Run(ctx, cfg); err == nil {
		t.Fatal("a cancelled run reported no error")
	}
	if files, _ := filepath.Glob(filepath.Join(cfg.Out, "part-*")); len(files) != 0 {
		t.Fatalf("a cancelled run left %v", files)
	}
}

// The workers' transposition tables together must fit: a run whose
// workers' tables do not is refused before any is made, naming the bytes.
func TestWorkersTablesTooLargeAreRefused(t *testing.T) {
	defer memlimit.SetLimit(512 << 20)()
	cfg := config(t, "cromwell", t.TempDir())
	cfg.Deals, cfg.Nodes, cfg.TableBits, cfg.Workers = 3, 2000, 21, 64 // 64 × 32 MiB
	_, err := Run(context.Background(), cfg)
	if !errors.Is(err, memlimit.ErrTooBig) || !strings.Contains(err.Error(), "64 workers' transposition tables") {
		t.Fatalf("64 workers' tables of 32 MiB under a 512 MiB limit: %v", err)
	}
	if entries, _ := os.ReadDir(cfg.Out); len(entries) > 0 {
		t.Errorf("the refused run wrote %d files", len(entries))
	}
}
