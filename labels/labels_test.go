package labels

import (
	"context"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/env"
	_ "github.com/patience-gym/patience/env/all"
	"github.com/patience-gym/patience/labels/internal/labelstest"
)

// readRows reads the rows of every part file in dir, in part order.
func readRows(t *testing.T, dir string) []Row { return labelstest.Rows[Row](t, dir) }

func config(t *testing.T, game, dir string, workers int) Config {
	t.Helper()
	spec, f := labelstest.Heuristic(t, game)
	return Config{Game: spec, Agent: f, SeedStart: 40, Deals: 5, PerDeal: 3, PartDeals: 2, Out: dir, Workers: workers, MaxSteps: 300}
}

// TestRowsLabelEveryLegalMove: each drawn position holds one row per legal
// move of the agent's own game at that step (replayed here), exactly one of
// them the agent's move; a row's observation is the position after its
// move, a move that ends the game is worth the progress it ends with, and
// every value is a progress fraction.
func TestRowsLabelEveryLegalMove(t *testing.T) {
	for _, game := range []string{"fifteen", "royalparade"} {
		dir := t.TempDir()
		cfg := config(t, game, dir, 2)
		tot, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		rows := readRows(t, dir)
		if tot.Parts != 3 || tot.Rows != int64(len(rows)) || len(rows) == 0 {
			t.Fatalf("%s: totals %+v, %d rows read", game, tot, len(rows))
		}
		byPos := map[int64][]Row{}
		for _, r := range rows {
			byPos[r.Position] = append(byPos[r.Position], r)
		}
		if len(byPos) != int(cfg.Deals)*cfg.PerDeal {
			t.Fatalf("%s: %d positions, want %d", game, len(byPos), cfg.Deals*int64(cfg.PerDeal))
		}
		e, _ := env.Make(game, env.Options{MaxSteps: cfg.MaxSteps})
		for pos, rs := range byPos {
			deal, step := uint64(rs[0].Deal), int(rs[0].Step)
			if want := int64(deal-cfg.SeedStart) * int64(cfg.PerDeal); pos < want || pos >= want+int64(cfg.PerDeal) {
				t.Fatalf("position %d is not one of deal %d's", pos, deal)
			}
			// Replay the agent's game to the position.
			a := cfg.Agent.New()
			e.Reset(deal)
			a.Reset(deal)
			var chosen int
			for s := 0; ; s++ {
				chosen = a.Act(agents.NewView(e))
				if s == step {
					break
				}
				e.Advance(chosen)
			}
			var legal, got []int
			m := e.Mask()
			for b := m.Next(0); b >= 0; b = m.Next(b + 1) {
				legal = append(legal, b)
			}
			nChosen := 0
			for _, r := range rs {
				got = append(got, int(r.Action))
				c := e.Clone()
				c.Advance(int(r.Action))
				if !slices.Equal(e.Observation(), r.Before) {
					t.Fatalf("%s deal %d step %d: before is not the position", game, deal, step)
				}
				if !slices.Equal(c.Observation(), r.Obs) {
					t.Fatalf("%s deal %d step %d %s: obs is not the position after the move", game, deal, step, r.ActionName)
				}
				if r.Terminal != c.Done() || (r.Terminal && r.Value != c.ProgressFraction()) {
					t.Fatalf("%s deal %d step %d %s: terminal %v value %v; the move ends the game: %v at %v",
						game, deal, step, r.ActionName, r.Terminal, r.Value, c.Done(), c.ProgressFraction())
				}
				if want := c.Evaluate() / float64(c.Spec().Cards); r.Eval != want {
					t.Fatalf("%s deal %d step %d %s: eval %v, the position after the move evaluates to %v", game, deal, step, r.ActionName, r.Eval, want)
				}
				if r.Value < c.ProgressFraction() || r.Value > 1 {
					t.Fatalf("%s: value %v below the progress after the move (%v) or above 1", game, r.Value, c.ProgressFraction())
				}
				if r.Chosen {
					nChosen++
					if int(r.Action) != chosen {
						t.Fatalf("%s deal %d step %d: chosen %s, the agent plays %s", game, deal, step, r.ActionName, e.ActionString(chosen))
					}
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, legal) || nChosen != 1 || len(legal) < 2 {
				t.Fatalf("%s deal %d step %d: moves %v, legal %v, %d chosen", game, deal, step, got, legal, nChosen)
			}
		}
	}
}

// TestRunIsDeterministicAndResumable: the rows do not depend on the number
// of workers; a rerun skips the finished parts and writes a removed one
// again, the same; a run of another configuration in the same directory
// is refused.
func TestRunIsDeterministicAndResumable(t *testing.T) {
	d1, d2 := t.TempDir(), t.TempDir()
	if _, err := Run(context.Background(), config(t, "cromwell", d1, 1)); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), config(t, "cromwell", d2, 3)); err != nil {
		t.Fatal(err)
	}
	r1 := readRows(t, d1)
	if !reflect.DeepEqual(r1, readRows(t, d2)) {
		t.Fatal("1 and 3 workers wrote different rows")
	}
	os.Remove(PartPath(d1, 1))
	tot, err := Run(context.Background(), config(t, "cromwell", d1, 2))
	if err != nil || tot.Parts != 1 || tot.Skipped != 2 {
		t.Fatalf("rerun: %+v, %v", tot, err)
	}
	if !reflect.DeepEqual(r1, readRows(t, d1)) {
		t.Fatal("the rewritten part differs")
	}
	other := config(t, "cromwell", d1, 2)
	other.PerDeal = 4
	if _, err := Run(context.Background(), other); err == nil || !strings.Contains(err.Error(), "was written by another run") {
		t.Fatalf("another configuration in the same directory: %v", err)
	}
	m, err := ReadMeta(PartPath(d1, 2))
	if err != nil || m.Game != "cromwell" || m.Agent != "heuristic" || m.PartFirstDeal != 44 || m.PartDealsHeld != 1 {
		t.Fatalf("metadata %+v, %v", m, err)
	}
}

// TestBadConfig: what cannot be labelled is an error that says why.
func TestBadConfig(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		edit func(*Config)
		want string
	}{
		{func(c *Config) { c.Game = nil }, "no game"},
		{func(c *Config) { c.Deals = 0 }, "deals must be positive"},
		{func(c *Config) { c.PerDeal = 0 }, "positions per deal must be positive"},
		{func(c *Config) { c.Agent = nil }, "no agent"},
		{func(c *Config) { c.Rollouts = -1 }, "rollouts must not be negative"},
		{func(c *Config) { c.RolloutSteps = -2 }, "rollout steps must not be negative"},
	} {
		cfg := config(t, "fifteen", dir, 1)
		tc.edit(&cfg)
		if _, err := Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want one saying %q", err, tc.want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, config(t, "fifteen", t.TempDir(), 1)); err == nil {
		t.Error("a cancelled run returned no error")
	}
}

// TestRolloutSteps: with continuations capped at one move and one
// rollout, a label is what the game says of one position a legal move
// after the labelled one: its final progress if the game ended there,
// else its evaluation over the cards.
func TestRolloutSteps(t *testing.T) {
	dir := t.TempDir()
	cfg := config(t, "fifteen", dir, 1)
	cfg.RolloutSteps, cfg.Rollouts = 1, 1
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	m, err := ReadMeta(PartPath(dir, 0))
	if err != nil || m.RolloutSteps != 1 || m.Rollouts != 1 {
		t.Fatalf("metadata %+v, %v", m, err)
	}
	e, _ := env.Make("fifteen", env.Options{MaxSteps: cfg.MaxSteps})
	for _, r := range readRows(t, dir) {
		if r.Terminal {
			continue
		}
		// Reach the row's position after its move: replay the agent.
		a := cfg.Agent.New()
		e.Reset(uint64(r.Deal))
		a.Reset(uint64(r.Deal))
		for s := 0; s < int(r.Step); s++ {
			e.Advance(a.Act(agents.NewView(e)))
		}
		e.Advance(int(r.Action))
		var options []float64
		m := e.Mask()
		for b := m.Next(0); b >= 0; b = m.Next(b + 1) {
			c := e.Clone()
			c.Advance(b)
			if c.Done() {
				options = append(options, c.ProgressFraction())
			} else {
				options = append(options, c.Evaluate()/float64(c.Spec().Cards))
			}
		}
		if !slices.Contains(options, r.Value) {
			t.Fatalf("deal %d step %d %s: value %v is none of the one-move outcomes %v", r.Deal, r.Step, r.ActionName, r.Value, options)
		}
	}
}

// TestRolloutSeed: another rollout seed labels the same moves of the same
// positions (the agent's own games do not change) with other
// continuations.
func TestRolloutSeed(t *testing.T) {
	d1, d2 := t.TempDir(), t.TempDir()
	cfg := config(t, "fifteen", d1, 2)
	cfg.RolloutSteps = 10
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	cfg.Out, cfg.RolloutSeed = d2, 12345
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	r1, r2 := readRows(t, d1), readRows(t, d2)
	if len(r1) != len(r2) {
		t.Fatalf("%d and %d rows", len(r1), len(r2))
	}
	differ := 0
	for i := range r1 {
		a, b := r1[i], r2[i]
		if a.Position != b.Position || a.Action != b.Action || a.Chosen != b.Chosen || !slices.Equal(a.Obs, b.Obs) {
			t.Fatalf("row %d: another rollout seed changed the positions or moves", i)
		}
		if a.Value != b.Value {
			differ++
		}
	}
	if differ == 0 {
		t.Error("another rollout seed gave the same labels everywhere")
	}
	if m, _ := ReadMeta(PartPath(d2, 0)); m.RolloutSeed != 12345 {
		t.Errorf("metadata rollout_seed %d", m.RolloutSeed)
	}
}

// TestVariant: a variant is played and labelled under its own rules, and
// the files say which.
func TestVariant(t *testing.T) {
	dir := t.TempDir()
	cfg := config(t, "cromwell:noswap", dir, 1)
	cfg.Deals, cfg.RolloutSteps = 1, 5
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	if m, err := ReadMeta(PartPath(dir, 0)); err != nil || m.Game != "cromwell:noswap" {
		t.Fatalf("metadata %+v, %v", m, err)
	}
	for _, r := range readRows(t, dir) {
		if r.ActionName == "swap" || strings.HasPrefix(r.ActionName, "pick ") {
			t.Fatalf("a swap labelled without the swap: %s", r.ActionName)
		}
	}
}

// TestNoRollouts: without continuations the rows are the same moves of the
// same positions as with them, one chosen per position, and a label is the
// evaluation after the move (its final progress where it ends the game),
// so the rows serve to learn the agent's choices.
func TestNoRollouts(t *testing.T) {
	with, without := t.TempDir(), t.TempDir()
	cfg := config(t, "limited", with, 1)
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	cfg.Out, cfg.NoRollouts = without, true
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	if m, err := ReadMeta(PartPath(without, 0)); err != nil || m.Rollouts != 0 {
		t.Fatalf("metadata %+v, %v", m, err)
	}
	a, b := readRows(t, with), readRows(t, without)
	if len(a) != len(b) || len(b) == 0 {
		t.Fatalf("%d rows with continuations, %d without", len(a), len(b))
	}
	chosen := map[int64]int{}
	for i, r := range b {
		if r.Position != a[i].Position || r.Action != a[i].Action || r.Chosen != a[i].Chosen || r.Eval != a[i].Eval {
			t.Fatalf("row %d differs: %+v against %+v", i, r, a[i])
		}
		want := r.Eval
		if r.Terminal {
			want = a[i].Value // a move that ends the game is worth its final progress either way
		}
		if r.Value != want {
			t.Fatalf("row %d: value %v, want %v (terminal %v)", i, r.Value, want, r.Terminal)
		}
		if r.Chosen {
			chosen[r.Position]++
		}
	}
	for p, n := range chosen {
		if n != 1 {
			t.Fatalf("position %d: %d moves chosen", p, n)
		}
	}
}
