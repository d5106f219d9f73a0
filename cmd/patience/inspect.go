package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/patience-gym/patience/datasets"
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/stats"
)

var inspectCmd = &command{
	name:    "inspect",
	args:    "PATH",
	summary: "a dataset's schema, metadata, totals, win rate and return statistics",
	long: `Describes a dataset directory or one of its Parquet files: schema, metadata, totals, win rate and
return statistics. A file that is truncated, not Parquet, not from patience or of another schema version
is an error; for a damaged or unfinished dataset it prints the generate command that repairs it.`,
	run: runInspect,
}

func runInspect(ctx context.Context, inv *invocation, args []string) error {
	fs := inv.flags()
	path, err := parseOne(fs, args, "PATH (a dataset directory or a .parquet file)")
	if err != nil {
		return err
	}
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	if st.IsDir() {
		return inspectDir(inv.stdout, path)
	}
	return inspectFile(inv.stdout, path)
}

// generateCommand returns the generate command that made the dataset m in
// dir, which also repairs it: a rerun keeps the finished parts and writes
// the missing and damaged ones.
func generateCommand(m *datasets.Meta, dir string) string {
	args := []string{"patience", "generate", "--game", m.Game}
	agent := m.Agent
	if m.AgentSettings != "" {
		agent += ":" + strings.Join(strings.Fields(m.AgentSettings), ",")
	}
	args = append(args, "--agent", agent, "--episodes", fmt.Sprint(m.Episodes))
	if m.SeedStart != 0 {
		args = append(args, "--seed-start", fmt.Sprint(m.SeedStart))
	}
	if m.AgentSeedOffset != 0 {
		args = append(args, "--agent-seed-offset", fmt.Sprint(m.AgentSeedOffset))
	}
	if spec, err := env.Lookup(m.Game); err != nil || spec.MaxSteps != m.MaxSteps {
		args = append(args, "--max-steps", fmt.Sprint(m.MaxSteps))
	}
	if m.RewardMode != env.RewardProgress.String() {
		args = append(args, "--reward", m.RewardMode)
	}
	if m.PartSize != datasets.AutoPartSize(m.Episodes) {
		args = append(args, "--part-size", fmt.Sprint(m.PartSize))
	}
	if m.MoveScores != "" {
		args = append(args, "--scores")
	}
	return commandLine(append(args, "--out", dir))
}

func inspectDir(w io.Writer, dir string) error {
	d, err := datasets.Open(dir)
	if err != nil {
		if m, merr := datasets.MetaOf(dir); merr == nil {
			return fmt.Errorf("%w\nTo repair the dataset, run the command that made it again; it keeps the finished parts and rewrites the rest:\n  %s", err, generateCommand(m, dir))
		}
		return err
	}
	m := &d.Meta
	var stepsSize, epSize int64
	var nSteps, nEps int
	for _, p := range d.Parts {
		if p.Steps != "" {
			nSteps++
			stepsSize += fileSize(p.Steps)
		}
		if p.Episodes != "" {
			nEps++
			epSize += fileSize(p.Episodes)
		}
	}
	fmt.Fprintf(w, "Dataset %s\n", dir)
	state := "complete"
	if d.Complete < m.Parts {
		state = fmt.Sprintf("%d parts missing (other shards, or an unfinished run)", m.Parts-d.Complete)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  parts\t%d of %d present: %s\n", d.Complete, m.Parts, state)
	fmt.Fprintf(tw, "  files\tsteps %d (%s), episodes %d (%s)\n", nSteps, bytesText(stepsSize), nEps, bytesText(epSize))
	stale := 0
	for _, t := range d.Temporary {
		if t.Stale {
			stale++
		}
	}
	if n := len(d.Temporary); n > 0 {
		fmt.Fprintf(tw, "  temporary\t%d leftover .tmp files: %d of a killed run on this host, %d of a run still going or of another host\n", n, stale, n-stale)
	}
	tw.Flush()
	if d.Complete < m.Parts || stale > 0 {
		fmt.Fprintf(w, "  To finish the dataset (or, with --shard, one machine's share of it) and remove what killed runs left:\n    %s\n", generateCommand(m, dir))
	}
	printMeta(w, m)
	printSchema(w, "steps", stepColumns(m))
	printSchema(w, "episodes", datasets.EpisodeColumns)
	fmt.Fprintln(w, "\nTotals")
	fmt.Fprintf(w, "  from the metadata: %s episodes, %s steps\n", thousands(d.Totals.Episodes), thousands(d.Totals.Steps))
	stats, err := datasets.EpisodeStats(d.ReadEpisodes)
	if err != nil {
		return err
	}
	printStats(w, stats)
	return nil
}

// stepColumns returns the columns of the steps table of a dataset with
// metadata m: the score columns follow the others when it has move scores.
func stepColumns(m *datasets.Meta) []datasets.Column {
	if m.MoveScores == "" {
		return datasets.StepColumns
	}
	return append(slices.Clip(datasets.StepColumns), datasets.ScoreColumns...)
}

func fileSize(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return st.Size()
}

func inspectFile(w io.Writer, path string) error {
	f, err := datasets.OpenFile(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fm := &f.Meta
	fmt.Fprintf(w, "File %s\n", path)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  table\t%s\n", fm.Table)
	fmt.Fprintf(tw, "  part\t%d of %d: episodes %d..%d (deal seeds %d..%d)\n", fm.Part, fm.Parts, fm.PartFirstEpisode, fm.PartFirstEpisode+fm.PartEpisodes-1,
		fm.SeedStart+fm.PartFirstEpisode, fm.SeedStart+fm.PartFirstEpisode+fm.PartEpisodes-1)
	fmt.Fprintf(tw, "  rows\t%s in %d row groups, %s\n", thousands(f.NumRows()), f.NumRowGroups(), bytesText(f.Size()))
	tw.Flush()
	printMeta(w, &fm.Meta)
	if fm.Table == datasets.TableSteps {
		printSchema(w, "steps", stepColumns(&fm.Meta))
	} else {
		printSchema(w, "episodes", datasets.EpisodeColumns)
	}
	fmt.Fprintf(w, "\nParquet schema\n%s\n", indent(f.Schema(), "  "))
	t := fm.Totals
	fmt.Fprintln(w, "\nTotals (of this part)")
	fmt.Fprintf(w, "  episodes %s, steps %s: won %d, lost %d, truncated %d\n", thousands(t.Episodes), thousands(t.Steps), t.Won, t.Lost, t.Truncated)
	if fm.Table == datasets.TableEpisodes {
		stats, err := datasets.EpisodeStats(f.ReadEpisodes)
		if err != nil {
			return err
		}
		printStats(w, stats)
		return nil
	}
	// A steps file: read it through, which checks every row.
	var rows int64
	var reward float64
	if err := f.ReadSteps(func(s []datasets.Step) error {
		for i := range s {
			reward += s[i].Reward
		}
		rows += int64(len(s))
		return nil
	}); err != nil {
		return err
	}
	fmt.Fprintf(w, "  read %s rows; rewards sum to %.4f (mean return %.4f)\n", thousands(rows), reward, reward/float64(max(t.Episodes, 1)))
	if t.Episodes > 0 {
		wr := stats.Wilson(int(t.Won), int(t.Episodes), 0.95)
		fmt.Fprintf(w, "  win rate %.2f %% (95 %% interval %.2f–%.2f %%)\n", 100*wr.P, 100*wr.CI.Lo, 100*wr.CI.Hi)
	}
	return nil
}

// printMeta prints the dataset's metadata.
func printMeta(w io.Writer, m *datasets.Meta) {
	fmt.Fprintln(w, "\nMetadata (key \"patience\" of every file, and meta/info.json)")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  game\t%s (%s), rules version %d, hidden cards: %v\n", m.Game, m.Spec.Title, m.RulesVersion, m.Spec.Hidden)
	settings := ""
	if m.AgentSettings != "" {
		settings = " [" + m.AgentSettings + "]"
	}
	fmt.Fprintf(tw, "  agent\t%s%s, agent seed = deal seed + %d\n", m.Agent, settings, m.AgentSeedOffset)
	fmt.Fprintf(tw, "  seeds\t%d..%d (%s episodes), %d parts of %d\n", m.SeedStart, m.SeedEnd-1, thousands(m.Episodes), m.Parts, m.PartSize)
	fmt.Fprintf(tw, "  episodes\tstep limit %d, reward %s, progress out of %d cards\n", m.MaxSteps, m.RewardMode, m.Spec.Cards)
	fmt.Fprintf(tw, "  versions\tschema %d, generator %s %d\n", m.SchemaVersion, m.Generator, m.GeneratorVersion)
	fmt.Fprintf(tw, "  index\tepisode_index * %d + step\n", m.IndexStride)
	fmt.Fprintf(tw, "  legal_mask\t%d bytes, %s\n", m.MaskBytes, m.MaskEncoding)
	fmt.Fprintf(tw, "  actions\t%d\n", m.Actions)
	for _, r := range m.Spec.ActionRanges {
		fmt.Fprintf(tw, "\t  %d..%d\t%s\n", r.First, r.Last, r.Meaning)
	}
	if m.MoveScores != "" {
		fmt.Fprintf(tw, "  move scores\t%s\n", m.MoveScores)
	}
	fmt.Fprintf(tw, "  obs\t%d cells\n", m.ObsLen)
	for _, g := range m.Spec.Segments {
		kind := "counters"
		if g.Card {
			kind = "cards"
		}
		fmt.Fprintf(tw, "\t  %d..%d\t%s (%s, max %d): %s\n", g.Offset, g.Offset+g.Len-1, g.Name, kind, g.Max, g.Doc)
	}
	tw.Flush()
}

// printSchema prints a table's columns.
func printSchema(w io.Writer, table string, cols []datasets.Column) {
	fmt.Fprintf(w, "\nSchema of %s/*.parquet\n", table)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, c := range cols {
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", c.Name, c.Type, c.Doc)
	}
	tw.Flush()
}

// printStats prints the episode statistics.
func printStats(w io.Writer, s *datasets.Stats) {
	fmt.Fprintf(w, "  read %s episodes, %s steps (%.1f per episode)\n", thousands(s.Episodes), thousands(s.Steps), s.Length.Mean)
	var outcomes []string
	for _, o := range []string{"won", "lost", "truncated"} {
		outcomes = append(outcomes, fmt.Sprintf("%s %s", o, thousands(s.Outcomes[o])))
	}
	fmt.Fprintf(w, "  outcomes: %s\n", strings.Join(outcomes, ", "))
	if len(s.Classes) > 0 {
		var names []string
		for c := range s.Classes {
			names = append(names, c)
		}
		sort.Strings(names)
		var parts []string
		for _, c := range names {
			parts = append(parts, fmt.Sprintf("%s %s", c, thousands(s.Classes[c])))
		}
		fmt.Fprintf(w, "  classes: %s\n", strings.Join(parts, ", "))
	}
	fmt.Fprintf(w, "  win rate %.2f %% (95 %% interval %.2f–%.2f %%)\n", 100*s.WinRate, 100*s.WinLow, 100*s.WinHigh)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "  %-8s\tmean\tstd\tmin\tq1\tmedian\tq3\tmax\t\n", "")
	for _, r := range []struct {
		name string
		d    datasets.Describe
		f    string
	}{{"return", s.Return, "%.4f"}, {"length", s.Length, "%.1f"}, {"progress", s.Progress, "%.1f"}} {
		d := r.d
		fmt.Fprintf(tw, "  %-8s\t", r.name)
		for _, v := range []float64{d.Mean, d.Std, d.Min, d.Q1, d.Median, d.Q3, d.Max} {
			fmt.Fprintf(tw, r.f+"\t", v)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}
