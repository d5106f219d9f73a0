package datasets

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/env"
)

// scored is a small dataset with move scores.
func scored(out string) Config {
	return Config{Game: gameSpec("cromwell"), Agent: agentOf("mc:rollouts=2,rollout-steps=10,width=3"), Episodes: 7, SeedStart: 40,
		MaxSteps: 50, PartSize: 3, Workers: 2, Out: out, Scores: true}
}

// readScored reads every steps row of a dataset with move scores, through
// ReadScoredSteps and, for the plain columns, through ReadSteps too.
func readScored(t *testing.T, dir string) ([]ScoredStep, []Step) {
	t.Helper()
	var rows []ScoredStep
	var plain []Step
	eachStepsFile(t, openDataset(t, dir), func(f *File) error {
		err := f.ReadScoredSteps(func(b []ScoredStep) error {
			for _, r := range b {
				r.Obs, r.LegalMask = slices.Clone(r.Obs), slices.Clone(r.LegalMask)
				r.ScoreActions, r.Scores = slices.Clone(r.ScoreActions), slices.Clone(r.Scores)
				rows = append(rows, r)
			}
			return nil
		})
		if err != nil {
			return err
		}
		return f.ReadSteps(func(b []Step) error {
			for _, r := range b {
				r.Obs, r.LegalMask = slices.Clone(r.Obs), slices.Clone(r.LegalMask)
				plain = append(plain, r)
			}
			return nil
		})
	})
	return rows, plain
}

// TestScoresRoundTrip: a dataset made with Scores holds, at every step, the
// moves the agent weighed and its scores, as the agent reports them when it
// plays the same deals outside the writer; the plain columns are those of a
// dataset without scores, and readers of plain steps read it too.
func TestScoresRoundTrip(t *testing.T) {
	root := t.TempDir()
	cfg := scored(filepath.Join(root, "a"))
	sum := generate(t, cfg)
	if sum.Meta.MoveScores != agents.ScoreKindRollout {
		t.Fatalf("move_scores %q", sum.Meta.MoveScores)
	}
	rows, plain := readScored(t, cfg.Out)

	// The reference: the same agent on the same deals, asked after each move.
	e, _ := env.Make(cfg.Game.ID(), env.Options{MaxSteps: cfg.MaxSteps})
	a := cfg.Agent.New()
	sc := a.(agents.MoveScorer)
	var want []ScoredStep
	var weighed []agents.ScoredMove
	for i := range cfg.Episodes {
		seed := cfg.SeedStart + uint64(i)
		_, err := agents.Play(e, a, seed, seed, func(e *env.Env, act int) bool {
			weighed = sc.MoveScores(weighed[:0])
			r := ScoredStep{Step: Step{EpisodeIndex: i, Step: int32(e.Steps()), Action: int32(act)},
				ScoreActions: []int32{}, Scores: []float32{}}
			for _, m := range weighed {
				r.ScoreActions = append(r.ScoreActions, int32(m.Action))
				r.Scores = append(r.Scores, float32(m.Score))
			}
			want = append(want, r)
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(rows) != len(want) || len(plain) != len(rows) {
		t.Fatalf("%d scored rows and %d plain rows, want %d", len(rows), len(plain), len(want))
	}
	some := 0
	for k := range rows {
		g, w := &rows[k], &want[k]
		if g.EpisodeIndex != w.EpisodeIndex || g.Step.Step != w.Step.Step || g.Action != w.Action ||
			!slices.Equal(g.ScoreActions, w.ScoreActions) || !slices.Equal(g.Scores, w.Scores) {
			t.Fatalf("row %d: episode %d step %d action %d scores %v %v, want episode %d step %d action %d scores %v %v", k,
				g.EpisodeIndex, g.Step.Step, g.Action, g.ScoreActions, g.Scores, w.EpisodeIndex, w.Step.Step, w.Action, w.ScoreActions, w.Scores)
		}
		if !slices.Equal(g.Obs, plain[k].Obs) || g.Step.Index != plain[k].Index || g.ActionName != plain[k].ActionName {
			t.Fatalf("row %d: ReadSteps reads %+v, ReadScoredSteps %+v", k, plain[k], g.Step)
		}
		if len(g.Scores) > 0 {
			some++
		}
	}
	if some == 0 {
		t.Fatal("no row holds scores")
	}

	// The plain columns equal those of the same dataset without scores.
	noScores := cfg
	noScores.Scores, noScores.Out = false, filepath.Join(root, "plain")
	generate(t, noScores)
	ref, _ := readAll(t, noScores.Out)
	compareRows(t, "plain columns", plain, ref)

	// Files do not depend on the number of workers.
	one := cfg
	one.Workers, one.Out = 1, filepath.Join(root, "one")
	generate(t, one)
	sameFiles(t, "one worker against two", files(t, cfg.Out, TableSteps), files(t, one.Out, TableSteps))

	// A plain dataset has no scores to read.
	d, _ := Open(noScores.Out)
	f, err := OpenFile(d.Parts[0].Steps)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.ReadScoredSteps(func([]ScoredStep) error { return nil }); err == nil || !strings.Contains(err.Error(), "without --scores") {
		t.Fatalf("ReadScoredSteps on a plain file: %v", err)
	}
}

// TestScoresErrors: an agent that weighs no moves cannot record scores, and
// a dataset with scores is not finished by a command without them (nor the
// other way round).
func TestScoresErrors(t *testing.T) {
	for _, agent := range []string{"random", "heuristic"} {
		cfg := scored(t.TempDir())
		cfg.Agent = agentOf(agent)
		if _, err := NewPlan(cfg); err == nil || !strings.Contains(err.Error(), "mc and uct have them") {
			t.Errorf("%s with scores: %v", agent, err)
		}
	}
	dir := t.TempDir()
	cfg := scored(dir)
	cfg.Episodes = 2
	generate(t, cfg)
	cfg.Scores = false
	if _, err := Generate(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "made with --scores true, not false") {
		t.Fatalf("rerun without scores: %v", err)
	}
}
