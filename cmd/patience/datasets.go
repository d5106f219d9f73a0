package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/datasets"
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/stats"
	"github.com/patience-gym/patience/viewer"
)

// shardFlag is --shard i/n.
type shardFlag struct{ i, n int }

func (s *shardFlag) String() string { return fmt.Sprintf("%d/%d", s.i, s.n) }

func (s *shardFlag) Set(v string) error {
	a, b, ok := strings.Cut(strings.TrimSpace(v), "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n <= 0 || i < 0 || i >= n {
		return fmt.Errorf("invalid shard %q: want i/n with 0 <= i < n, as 0/4", v)
	}
	s.i, s.n = i, n
	return nil
}

func cmdGenerate(args []string, stdout, stderr io.Writer) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return generate(ctx, args, stdout, stderr)
}

// generate is the generate command under ctx, whose cancellation stops it
// cleanly.
func generate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("generate", "[--game G] [--agent A] [--episodes N] [--out DIR] [options]",
		"Plays episodes with an agent and writes them as a Parquet dataset: DIR/steps/part-NNNNN.parquet (one row per\n"+
			"decision), DIR/episodes/part-NNNNN.parquet (one row per episode) and DIR/meta/info.json. The seed range is cut\n"+
			"into parts of --part-size episodes; --shard i/n writes a deterministic share of the parts, so machines can\n"+
			"split one dataset with no coordination. A rerun skips finished parts. With no flags: 200 episodes of cromwell\n"+
			"by the random agent into data/cromwell-random.", stderr)
	game := fs.String("game", "cromwell", "the game: "+joinNames(env.Names()))
	agentName := fs.String("agent", "random", "the agent: "+joinNames(agents.Names()))
	agentOpts := agentOptionFlags(fs)
	episodes := fs.Int64("episodes", 200, "episodes of the whole dataset (all shards together)")
	out := fs.String("out", "", "the dataset directory (default data/GAME-AGENT)")
	var seedStart seedFlag
	fs.Var(&seedStart, "seed-start", "first deal seed: episode i plays deal seed-start+i (seeds below 2^63)")
	agentSeedOffset := fs.Int64("agent-seed-offset", 0, "the agent's seed is the deal seed plus this offset")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "parallel workers (the files do not depend on it)")
	shard := shardFlag{0, 1}
	fs.Var(&shard, "shard", "write only share i of n of the parts (0-based: 0/4 .. 3/4)")
	maxSteps := fs.Int("max-steps", 0, "step limit (0 = the game's default)")
	partSize := fs.Int("part-size", 0, "episodes per part file (0 = automatic: 25 to 1000, from --episodes alone)")
	reward := fs.String("reward", "progress", "reward mode: progress or sparse")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	switch len(pos) {
	case 0:
	case 1:
		*game = pos[0]
	default:
		return usagef("unexpected arguments %q", pos[1:])
	}
	agent, err := agents.New(*agentName, *agentOpts)
	if err != nil {
		return usageError{err}
	}
	rm, err := env.ParseRewardMode(*reward)
	if err != nil {
		return usageError{err}
	}
	if *workers <= 0 {
		return usagef("--workers must be positive")
	}
	spec, err := env.Lookup(*game)
	if err != nil {
		return usageError{err}
	}
	dir := *out
	if dir == "" {
		dir = filepath.Join("data", spec.Name+"-"+agent.Name())
	}
	var (
		bar   *progress
		steps atomic.Int64
	)
	cfg := datasets.Config{
		Game:            spec.Name,
		Agent:           agent.Name(),
		AgentOptions:    *agentOpts,
		Episodes:        *episodes,
		SeedStart:       seedStart.v,
		AgentSeedOffset: *agentSeedOffset,
		MaxSteps:        *maxSteps,
		Reward:          rm,
		PartSize:        *partSize,
		Shard:           shard.i,
		Shards:          shard.n,
		Workers:         *workers,
		Out:             dir,
		OnPlan: func(p datasets.Plan) {
			bar = newProgress(stderr, "generate "+spec.Name, int(p.TodoEpisodes))
			start := time.Now()
			bar.extra = func() string {
				return fmt.Sprintf("%s steps/s", thousands(int64(float64(steps.Load())/time.Since(start).Seconds())))
			}
		},
		OnEpisode: func(n int) {
			steps.Add(int64(n))
			bar.add(1)
		},
	}
	if _, err := cfg.Check(); err != nil {
		return usageError{err}
	}
	sum, err := datasets.Generate(ctx, cfg)
	if bar != nil {
		bar.done()
	}
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return fmt.Errorf("interrupted: no partial file is left under a final name; the finished parts are kept, and the same command finishes the dataset")
		}
		return err
	}
	reportGeneration(stdout, sum, dir)
	return nil
}

// reportGeneration prints what a generation did and where the dataset
// stands.
func reportGeneration(w io.Writer, s *datasets.Summary, dir string) {
	m := &s.Meta
	rate := ""
	if secs := s.Elapsed.Seconds(); secs > 0 && s.Written.Steps > 0 {
		rate = fmt.Sprintf(", %s steps/s", thousands(int64(float64(s.Written.Steps)/secs)))
	}
	fmt.Fprintf(w, "%s, %s agent: wrote %d of this shard's %d parts (%s episodes, %s steps) in %s%s\n",
		m.GameTitle, m.Agent, len(s.Todo), len(s.Parts), thousands(s.Written.Episodes), thousands(s.Written.Steps), s.Elapsed.Round(time.Millisecond), rate)
	if len(s.Done) > 0 {
		fmt.Fprintf(w, "skipped %d parts already finished\n", len(s.Done))
	}
	info := s.Info
	state := "complete"
	if !info.Complete {
		state = fmt.Sprintf("%d of %d parts missing (other shards?)", info.Parts-info.PartsPresent, info.Parts)
	}
	fmt.Fprintf(w, "%s: %d/%d parts, %s episodes, %s steps, win rate %.2f %%, mean return %.4f; %s\n",
		dir, info.PartsPresent, info.Parts, thousands(info.Totals.Episodes), thousands(info.Totals.Steps), 100*info.WinRate, info.MeanReturn, state)
}

// thousands formats n with thin separators: 1,234,567.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// bytesText formats a size: 4.7 MB.
func bytesText(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

func cmdInspect(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("inspect", "PATH", "Describes a dataset directory or one of its Parquet files: schema, metadata, totals, win rate and\nreturn statistics. A file that is truncated, not Parquet, not from patience or of another schema version is an error.", stderr)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	path, err := oneArg(pos, "PATH (a dataset directory or a .parquet file)")
	if err != nil {
		return err
	}
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	if st.IsDir() {
		return inspectDir(stdout, path)
	}
	return inspectFile(stdout, path)
}

func inspectDir(w io.Writer, dir string) error {
	d, err := datasets.Open(dir)
	if err != nil {
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
	if len(d.Temporary) > 0 {
		fmt.Fprintf(tw, "  temporary\t%d leftover .tmp files (a running or killed generation; safe to delete when none runs)\n", len(d.Temporary))
	}
	tw.Flush()
	printMeta(w, m)
	printSchema(w, "steps", datasets.StepColumns)
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
		printSchema(w, "steps", datasets.StepColumns)
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

func indent(s, pre string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return pre + strings.Join(lines, "\n"+pre)
}

// printMeta prints the dataset's metadata.
func printMeta(w io.Writer, m *datasets.Meta) {
	fmt.Fprintln(w, "\nMetadata (key \"patience\" of every file, and meta/info.json)")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  game\t%s (%s), rules version %d, hidden cards: %v\n", m.Game, m.GameTitle, m.RulesVersion, m.HiddenCards)
	settings := ""
	if m.AgentSettings != "" {
		settings = " [" + m.AgentSettings + "]"
	}
	fmt.Fprintf(tw, "  agent\t%s%s, agent seed = deal seed + %d\n", m.Agent, settings, m.AgentSeedOffset)
	fmt.Fprintf(tw, "  seeds\t%d..%d (%s episodes), %d parts of %d\n", m.SeedStart, m.SeedEnd-1, thousands(m.Episodes), m.Parts, m.PartSize)
	fmt.Fprintf(tw, "  episodes\tstep limit %d, reward %s, progress out of %d cards\n", m.MaxSteps, m.RewardMode, m.ProgressTotal)
	fmt.Fprintf(tw, "  versions\tschema %d, generator %s %d\n", m.SchemaVersion, m.Generator, m.GeneratorVersion)
	fmt.Fprintf(tw, "  index\tepisode_index * %d + step\n", m.IndexStride)
	fmt.Fprintf(tw, "  legal_mask\t%d bytes, %s\n", m.MaskBytes, m.MaskEncoding)
	fmt.Fprintf(tw, "  actions\t%d\n", m.Actions)
	for _, r := range m.ActionTable {
		fmt.Fprintf(tw, "\t  %d..%d\t%s\n", r.First, r.Last, r.Meaning)
	}
	fmt.Fprintf(tw, "  obs\t%d cells\n", m.ObsLen)
	for _, g := range m.ObsSegments {
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

func cmdReplay(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("replay", "PATH --episode K [--quiet]", "Re-deals episode K of a dataset (a directory, or a steps or episodes file), plays its recorded actions\n"+
		"through the environment, renders every step, and reports every row whose recorded observation, mask, reward,\n"+
		"flags or episode summary differ from the environment's. Exit code 1 on any difference.", stderr)
	k := fs.Int64("episode", 0, "the episode_index to replay")
	quiet := fs.Bool("quiet", false, "do not render the steps; report only the differences and the result")
	html := fs.String("html", "", "also write the episode to this HTML file (a viewer with the table at every step)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	path, err := oneArg(pos, "PATH (a dataset directory or a .parquet file)")
	if err != nil {
		return err
	}
	meta, ep, steps, err := loadEpisode(path, *k)
	if err != nil {
		return err
	}
	var rec *viewer.Recorder
	if *html != "" {
		rec = viewer.NewRecorder(fmt.Sprintf("%s, episode %d (deal %d), %s agent", meta.GameTitle, *k, meta.SeedStart+*k, meta.Agent))
	}
	diffs, err := datasets.Replay(meta, *k, ep, steps, func(e *env.Env, s *datasets.Step) {
		if !*quiet {
			fmt.Fprintf(stdout, "%s\nstep %d: %s (action %d)\n\n", e.Render(), s.Step, s.ActionName, s.Action)
		}
		if rec != nil {
			rec.Add(e, int(s.Action))
		}
	})
	if err != nil {
		return err
	}
	if rec != nil {
		rec.FinishAfterLast()
		if err := rec.WriteFile(*html); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s\n", *html)
	}
	if !*quiet {
		fmt.Fprintf(stdout, "%s\n", replayEnd(meta, *k, steps))
	}
	seed := meta.SeedStart + *k
	summary := fmt.Sprintf("%s episode %d (deal %d): %d steps", meta.GameTitle, *k, seed, len(steps))
	if ep != nil {
		outcome := ep.Outcome
		if ep.Class != "" {
			outcome += " (" + ep.Class + ")"
		}
		summary += fmt.Sprintf(", %s, %d/%d cards placed, return %.4f", outcome, ep.Progress, meta.ProgressTotal, ep.Return)
	} else {
		summary += " (no episode row: its episodes file is missing)"
	}
	fmt.Fprintln(stdout, summary)
	if len(diffs) == 0 {
		fmt.Fprintln(stdout, "replay: every recorded row matches the environment")
		return nil
	}
	for _, d := range diffs {
		fmt.Fprintf(stdout, "DIFFERENCE %s\n", d)
	}
	fmt.Fprintf(stdout, "replay: %d differences\n", len(diffs))
	return errFailed
}

// replayEnd renders the final position of the replayed episode.
func replayEnd(m *datasets.Meta, k int64, steps []datasets.Step) string {
	rm, _ := env.ParseRewardMode(m.RewardMode)
	e, err := env.Make(m.Game, env.Options{MaxSteps: m.MaxSteps, Reward: rm})
	if err != nil {
		return ""
	}
	e.Reset(uint64(m.SeedStart + k))
	for _, s := range steps {
		if _, _, _, err := e.Advance(int(s.Action)); err != nil {
			break
		}
	}
	return e.Render()
}

// loadEpisode reads episode k from a dataset directory, a steps file or an
// episodes file (finding the other table's file beside it).
func loadEpisode(path string, k int64) (*datasets.Meta, *datasets.Episode, []datasets.Step, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, nil, err
	}
	if st.IsDir() {
		d, err := datasets.Open(path)
		if err != nil {
			return nil, nil, nil, err
		}
		ep, steps, err := d.Episode(k)
		if err != nil {
			return nil, nil, nil, err
		}
		return &d.Meta, ep, steps, nil
	}
	f, err := datasets.OpenFile(path)
	if err != nil {
		return nil, nil, nil, err
	}
	defer f.Close()
	m := f.Meta.Meta
	if k < f.Meta.PartFirstEpisode || k >= f.Meta.PartFirstEpisode+f.Meta.PartEpisodes {
		return nil, nil, nil, usagef("%s holds episodes %d..%d, not %d", path, f.Meta.PartFirstEpisode, f.Meta.PartFirstEpisode+f.Meta.PartEpisodes-1, k)
	}
	other := filepath.Join(filepath.Dir(filepath.Dir(path)), datasets.TableEpisodes, filepath.Base(path))
	if f.Meta.Table == datasets.TableEpisodes {
		other = filepath.Join(filepath.Dir(filepath.Dir(path)), datasets.TableSteps, filepath.Base(path))
	}
	var g *datasets.File
	if _, err := os.Stat(other); err == nil || f.Meta.Table == datasets.TableEpisodes {
		g, err = datasets.OpenFile(other)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("episode %d: %w", k, err)
		}
		defer g.Close()
		if d := g.Meta.Diff(&f.Meta.Meta); d != "" {
			return nil, nil, nil, fmt.Errorf("%s and %s belong to different datasets (%s)", path, other, d)
		}
	}
	// Without its episodes file, a steps file is replayed without the
	// episode row.
	stepsFile, epFile := f, g
	if f.Meta.Table == datasets.TableEpisodes {
		stepsFile, epFile = g, f
	}
	steps, err := stepsFile.EpisodeSteps(k)
	if err != nil {
		return nil, nil, nil, err
	}
	var ep *datasets.Episode
	if epFile != nil {
		err := epFile.ReadEpisodes(func(rows []datasets.Episode) error {
			for i := range rows {
				if rows[i].EpisodeIndex == k {
					c := rows[i]
					c.FinalObs = append([]byte(nil), c.FinalObs...)
					ep = &c
				}
			}
			return nil
		})
		if err != nil {
			return nil, nil, nil, err
		}
	}
	return &m, ep, steps, nil
}
