package main

// patience deals fold: the verdicts of solver runs (patience solve --json)
// taken into a verdict table, where its own search left the deals unknown.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"

	"github.com/patience-gym/patience/deals"
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/internal/atomicfile"
	"github.com/patience-gym/patience/solver"
	"github.com/patience-gym/patience/solver/batch"
)

// runDealsFold folds the runs named after the game into its table (the
// shipped one, or --table) and writes the table to --out, with a summary
// of the counts before and after on stdout. Nothing is written when a run
// is refused or gives no verdict.
func runDealsFold(inv *invocation, args []string) error {
	fs := inv.flags()
	tablePath := fs.String("table", "", "the table to fold the runs into (default: the one that ships)")
	out := fs.String("out", "deals/tables", "the directory the table is written to, GAME.parquet")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) < 2 {
		return usagef("want a game and at least one run file (patience solve --json): patience deals fold GAME RUN.json ...")
	}
	spec, err := lookupGame(pos[0])
	if err != nil {
		return err
	}
	if spec.Variant != "" {
		return usagef("tables are of the games' default rules, not of the variant %s", spec.ID())
	}
	t, err := tableAt(spec, *tablePath)
	if err != nil {
		return err
	}
	var runs []deals.Run
	for _, path := range pos[1:] {
		r, err := readRun(spec, path)
		if err != nil {
			return err
		}
		runs = append(runs, r)
	}
	before, playedBefore := maps.Clone(t.Meta.Counts), len(t.Meta.WonInPlay)
	openNodes := map[uint64]int64{}
	for _, d := range t.Deals {
		if d.Verdict == deals.Unknown {
			openNodes[d.Seed] = d.Nodes
		}
	}
	n, err := deals.Fold(t, runs...)
	if err != nil {
		return err
	}
	searched := 0
	for _, d := range t.Deals {
		if was, ok := openNodes[d.Seed]; ok && d.Verdict == deals.Unknown && d.Nodes != was {
			searched++
		}
	}
	if n == 0 && searched == 0 {
		fmt.Fprintf(inv.stdout, "%s: the runs decide no deal the table leaves unknown, nor search one further; the table is unchanged, nothing written\n", spec.Name)
		return nil
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	var b bytes.Buffer
	if err := deals.Write(&b, t); err != nil {
		return err
	}
	path := filepath.Join(*out, spec.Name+".parquet")
	if err := atomicfile.WriteFile(path, b.Bytes()); err != nil {
		return err
	}
	played := ""
	if p := len(t.Meta.WonInPlay) - playedBefore; p > 0 {
		played = fmt.Sprintf(" (%d of them won by the table's agents, where its search had left them open)", p)
	}
	further := ""
	if searched > 0 {
		further = fmt.Sprintf("; %s left open searched further than the table had recorded (their nodes and best progress taken)", count(searched, "deal"))
	}
	fmt.Fprintf(inv.stdout, "%s: %s folded in from %d run(s)%s%s; wrote %s\n", spec.Name, count(n, "deal"), len(runs), played, further, path)
	for _, blk := range t.Meta.Blocks {
		was, now := before[blk.Name], t.Meta.Counts[blk.Name]
		fmt.Fprintf(inv.stdout, "  %s block: %d won, %d lost, %d unknown (%d, %d, %d before)\n",
			blk.Name, now.Won, now.Lost, now.Unknown, was.Won, was.Lost, was.Unknown)
	}
	return nil
}

// readRun reads a solver run's result file for spec's game, checks that
// it is of that game, its default rules and a node budget, and replays
// every winning line through an environment: a win that does not replay
// is an error, not a verdict.
func readRun(spec *env.Spec, path string) (deals.Run, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return deals.Run{}, err
	}
	var f batch.File
	if err := json.Unmarshal(data, &f); err != nil {
		return deals.Run{}, fmt.Errorf("%s: not a result file of patience solve --json: %w", path, err)
	}
	switch {
	case f.Game != spec.Name || f.Variant != "":
		return deals.Run{}, fmt.Errorf("%s: a run of %s, not of %s's default rules", path, runName(f), spec.Name)
	case f.Rules != spec.Rules():
		return deals.Run{}, fmt.Errorf("%s: a run of rules %s; the game's rules are %s now", path, f.Rules, spec.Rules())
	}
	nodes, err := parseNodes("budget", strings.TrimSuffix(f.Budget, " nodes"), "1M")
	if err != nil {
		return deals.Run{}, fmt.Errorf("%s: the run's budget is %q: only runs with a node budget are folded in (their verdicts are the same on any machine)", path, f.Budget)
	}
	r := deals.Run{Game: spec.Name, RulesVersion: spec.RulesVersion, RunSearch: deals.RunSearch{Command: f.Command, Nodes: nodes, BestFirst: f.BestFirst, Beam: f.Beam, Knowledge: f.Knowledge, TableBits: f.TableBits}}
	if err := solver.CheckKnowledge(spec.Name, f.Knowledge); err != nil {
		return deals.Run{}, fmt.Errorf("%s: the run's search cannot be made again: %w", path, err)
	}
	for _, d := range f.Results {
		rd := deals.RunDeal{Seed: d.Seed, Nodes: d.Nodes, BestProgress: d.Best}
		switch d.Verdict {
		case "solved":
			if err := replayLine(spec, d.Seed, d.Line); err != nil {
				return deals.Run{}, fmt.Errorf("%s: deal %d, solved: %w", path, d.Seed, err)
			}
			rd.Verdict, rd.LineLength = deals.Won, d.Moves
		case "unsolvable":
			rd.Verdict, rd.DeadAtStart = deals.Lost, d.Passes == 0
		case "unknown":
			rd.Verdict = deals.Unknown
		default:
			return deals.Run{}, fmt.Errorf("%s: deal %d: unknown verdict %q", path, d.Seed, d.Verdict)
		}
		r.Deals = append(r.Deals, rd)
	}
	return r, nil
}

// runName names the game and variant of a run file.
func runName(f batch.File) string {
	if f.Variant != "" {
		return f.Game + ":" + f.Variant
	}
	return f.Game
}

// replayLine plays the moves of a winning line, as patience play reads
// them, from deal seed through a fresh environment of spec's game, and
// returns an error unless they are legal and end won.
func replayLine(spec *env.Spec, seed uint64, line []string) error {
	e, err := env.Make(spec.Name, env.Options{MaxSteps: 1 << 20})
	if err != nil {
		return err
	}
	e.Reset(seed)
	for i, name := range line {
		ids, err := e.ParseMove(name)
		if err != nil {
			return fmt.Errorf("move %d %q: %w", i+1, name, err)
		}
		for _, a := range ids {
			if _, _, _, err := e.Advance(a); err != nil {
				return fmt.Errorf("move %d %q: %w", i+1, name, err)
			}
		}
	}
	if e.Outcome() != env.Won {
		return errors.New("its line does not end won when replayed")
	}
	return nil
}
