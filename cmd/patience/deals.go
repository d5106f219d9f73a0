package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/patience-gym/patience/deals"
	"github.com/patience-gym/patience/env"
)

var dealsCmd = &command{
	name:    "deals",
	args:    "GAME [--winnable|--lost|--unknown] [--difficulty easy|medium|hard] [--block train|eval] [--from N] [--count N] [--long|--json]\n       patience deals build [GAME ...] [--shard i/n] [--work DIR] [--out DIR] [--keep DIR]\n       patience deals challenge GAME [--nodes 10M] [--block eval] [--table FILE] [--work DIR] [--out DIR]\n       patience deals fold GAME RUN.json ... [--table FILE] [--out DIR]",
	summary: "deal numbers by the solver's verdict and difficulty, from the shipped verdict tables",
	long: `Lists deals of a game from its verdict table, which ships inside patience: the solver's verdict on
deals 0 to 9,999 (the training block) and 1,000,000 to 1,000,999 (the evaluation block), with a
difficulty class for each won deal (easy, medium, hard: thirds of the won deals by score). Without
--long or --json it prints deal numbers, one a line. In games with hidden cards the verdict is
clairvoyant: the solver saw the hidden cards, so a won deal is one a player who guessed them right
could win. docs/deals-tables.md says what the tables hold.

patience deals build regenerates the tables: each deal is solved, its determinized worlds solved
(hidden games), and the heuristic (and, on the evaluation block, mc) agents play it. Every finished
deal goes to a journal in --work at once, so the same command run again after a crash or Ctrl-C goes
on where it stopped; --shard i/n splits the deals among machines (copy the journals into one --work
directory and run it once more to write the tables). The table of a game is written to --out when
its journals hold every deal. With --keep DIR (deals/tables for the shipped ones), a deal the table
in DIR decided and the new search leaves unknown keeps that verdict, so that a rebuilt table never
undoes a proof; a deal decided the other way stops the build.

patience deals challenge solves the deals a table leaves unknown again with a larger budget, one at a
time (resumable the same way), and writes the list of open problems, DIR/deals-challenge-GAME.json:
each deal with the most cards the searches placed and the nodes they tried.

patience deals fold takes into a table the verdicts of solver runs (patience solve --json, with a node
budget) on the deals the table leaves unknown, so that the table holds every verdict known: each
winning line is replayed first, a run that contradicts the table or another run stops it, and the
table lists each run with the deals it gave (docs/deals-tables.md).`,
	run: runDeals,
}

func runDeals(ctx context.Context, inv *invocation, args []string) error {
	if len(args) > 0 && args[0] == "build" {
		return runDealsBuild(ctx, inv, args[1:])
	}
	if len(args) > 0 && args[0] == "challenge" {
		return runDealsChallenge(ctx, inv, args[1:])
	}
	if len(args) > 0 && args[0] == "fold" {
		return runDealsFold(inv, args[1:])
	}
	fs := inv.flags()
	winnable := fs.Bool("winnable", false, "the deals the solver won")
	lost := fs.Bool("lost", false, "the deals the solver proved lost")
	unknown := fs.Bool("unknown", false, "the deals the solver left undecided at its budget")
	difficulty := fs.String("difficulty", "", "only won deals of this class: easy, medium or hard")
	block := fs.String("block", "", "only the deals of this block: train (0 to 9,999) or eval (1,000,000 to 1,000,999)")
	var from seedFlag
	fs.Var(&from, "from", "only deals numbered this or more")
	count := fs.Int("count", 20, "at most this many deals (0 = all)")
	long := fs.Bool("long", false, "a line per deal with its verdict, difficulty and figures")
	asJSON := fs.Bool("json", false, "print the deals as a JSON array of objects")
	stats := fs.Bool("stats", false, "print the table's figures by block and difficulty instead of deals")
	spec, err := parseGame(fs, args)
	if err != nil {
		return err
	}
	f := deals.Filter{Block: *block, From: from.v}
	if *count < 0 {
		return usagef("--count must not be negative")
	}
	if *long && *asJSON {
		return usagef("--long and --json are two formats: give one")
	}
	for _, v := range []struct {
		on bool
		v  deals.Verdict
	}{{*winnable, deals.Won}, {*lost, deals.Lost}, {*unknown, deals.Unknown}} {
		if v.on {
			f.Verdicts = append(f.Verdicts, v.v)
		}
	}
	if *difficulty != "" {
		if f.Difficulty, err = deals.ParseDifficulty(*difficulty); err != nil {
			return usageError{err}
		}
		if len(f.Verdicts) > 0 && !*winnable {
			return usagef("--difficulty rates won deals only")
		}
	}
	t, err := deals.Shipped(spec.Name)
	if err != nil {
		return err
	}
	if *block != "" {
		if _, ok := blockNamed(t, *block); !ok {
			return usagef("the %s table has no block %q (it has %s)", spec.Name, *block, blockNames(t))
		}
	}
	if *stats {
		writeDealsStats(inv.stdout, t)
		return nil
	}
	all := t.Select(f)
	shown := all
	if *count > 0 && len(shown) > *count {
		shown = shown[:*count]
	}
	switch {
	case *asJSON:
		if err := writeDealsJSON(inv.stdout, t, shown); err != nil {
			return err
		}
	case *long:
		writeDealsLong(inv.stdout, t, shown)
	default:
		for _, d := range shown {
			fmt.Fprintln(inv.stdout, d.Seed)
		}
	}
	describeSelection(inv.stderr, t, len(shown), len(all))
	return nil
}

func blockNamed(t *deals.Table, name string) (deals.Block, bool) {
	for _, b := range t.Meta.Blocks {
		if b.Name == name {
			return b, true
		}
	}
	return deals.Block{}, false
}

func blockNames(t *deals.Table) string {
	var out []string
	for _, b := range t.Meta.Blocks {
		out = append(out, b.Name)
	}
	return strings.Join(out, ", ")
}

// blockRanges names the table's blocks with their deals ("train 0 to
// 9999, eval 1000000 to 1000999").
func blockRanges(t *deals.Table) string {
	var out []string
	for _, b := range t.Meta.Blocks {
		out = append(out, fmt.Sprintf("%s %d to %d", b.Name, b.First, b.First+uint64(b.Count)-1))
	}
	return strings.Join(out, ", ")
}

// describeSelection says on stderr what was listed, from which table.
func describeSelection(w io.Writer, t *deals.Table, shown, selected int) {
	m := &t.Meta
	c := m.Counts["all"]
	more := ""
	if shown < selected {
		more = fmt.Sprintf(" (of %s selected; --count 0 lists all)", thousands(int64(selected)))
	}
	fmt.Fprintf(w, "%s %s%s. The %s table (rules v%d, solver budget %s nodes a deal): %s deals, won %s, lost %s, unknown %s.\n",
		thousands(int64(shown)), plural(shown, "deal"), more, m.Game, m.RulesVersion, formatCount(m.Settings.Nodes),
		thousands(int64(m.Deals())), thousands(int64(c.Won)), thousands(int64(c.Lost)), thousands(int64(c.Unknown)))
	if m.Clairvoyant {
		fmt.Fprintln(w, "Clairvoyant verdicts: the solver saw the hidden cards; a won deal is one a player who guessed them right could win.")
	}
}

func plural(n int, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}

func writeDealsLong(w io.Writer, t *deals.Table, ds []deals.Deal) {
	hidden := t.Meta.Clairvoyant
	fmt.Fprintf(w, "%-9s %-6s %-7s %-8s %-6s %10s %5s %8s %9s %9s", "deal", "block", "verdict", "class", "score", "nodes", "line", "best", "heuristic", "mc")
	if hidden {
		fmt.Fprintf(w, " %11s", "worlds won")
	}
	fmt.Fprintln(w)
	play := func(p deals.Play) string {
		switch {
		case !p.Played:
			return "-"
		case p.Won:
			return "won"
		}
		return fmt.Sprintf("%d/%d", p.Progress, t.Meta.Cards)
	}
	for _, d := range ds {
		class, score, line := "-", "-", "-"
		best := fmt.Sprintf("%d/%d", d.BestProgress, t.Meta.Cards) // the most cards the solver placed
		if d.Verdict == deals.Won {
			best = "-"
			class, score, line = d.Difficulty.String(), fmt.Sprintf("%.3f", d.Score), fmt.Sprint(d.LineLength)
			if d.LineLength == 0 {
				line = "play" // won in play (Meta.WonInPlay): no line recorded
			}
		}
		fmt.Fprintf(w, "%-9d %-6s %-7s %-8s %-6s %10d %5s %8s %9s %9s", d.Seed, d.Block, d.Verdict, class, score, d.Nodes, line, best, play(d.Heuristic), play(d.MC))
		if hidden {
			fmt.Fprintf(w, " %11s", fmt.Sprintf("%d/%d", d.Worlds.Won, d.Worlds.Tried))
		}
		fmt.Fprintln(w)
	}
}

// dealJSON is a deal as --json prints it.
type dealJSON struct {
	Seed         uint64   `json:"seed"`
	Block        string   `json:"block"`
	Verdict      string   `json:"verdict"`
	Difficulty   string   `json:"difficulty,omitempty"`
	Score        *float64 `json:"score,omitempty"`
	Nodes        int64    `json:"nodes"`
	LineLength   int      `json:"line_length,omitempty"`
	BestProgress int      `json:"best_progress"`
	Heuristic    *jsPlay  `json:"heuristic,omitempty"`
	MC           *jsPlay  `json:"mc,omitempty"`
	Worlds       *struct {
		Tried int `json:"tried"`
		Won   int `json:"won"`
		Lost  int `json:"lost"`
	} `json:"worlds,omitempty"`
}

type jsPlay struct {
	Won      bool `json:"won"`
	Progress int  `json:"progress"`
}

func writeDealsJSON(w io.Writer, t *deals.Table, ds []deals.Deal) error {
	out := make([]dealJSON, len(ds))
	for i, d := range ds {
		j := dealJSON{Seed: d.Seed, Block: d.Block, Verdict: d.Verdict.String(), Difficulty: d.Difficulty.String(),
			Nodes: d.Nodes, LineLength: d.LineLength, BestProgress: d.BestProgress}
		if !math.IsNaN(d.Score) {
			s := math.Round(d.Score*1e4) / 1e4
			j.Score = &s
		}
		for _, p := range []struct {
			src deals.Play
			dst **jsPlay
		}{{d.Heuristic, &j.Heuristic}, {d.MC, &j.MC}} {
			if p.src.Played {
				*p.dst = &jsPlay{p.src.Won, p.src.Progress}
			}
		}
		if d.Worlds.Tried > 0 {
			j.Worlds = &struct {
				Tried int `json:"tried"`
				Won   int `json:"won"`
				Lost  int `json:"lost"`
			}{d.Worlds.Tried, d.Worlds.Won, d.Worlds.Lost}
		}
		out[i] = j
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// winnableDeal is the deal `play --winnable` picked, and what the table
// says of it.
type winnableDeal struct {
	seed uint64
	text string
}

func (w winnableDeal) String() string { return w.text }

// pickWinnable chooses, by seed, a deal of spec's training block that the
// solver won, and says so.
func pickWinnable(spec *env.Spec, seed uint64) (winnableDeal, error) {
	t, err := deals.Shipped(spec.Name)
	if err != nil {
		return winnableDeal{}, err
	}
	return pickWinnableFrom(t, spec, seed)
}

// pickWinnableFrom is pickWinnable with the verdict table t.
func pickWinnableFrom(t *deals.Table, spec *env.Spec, seed uint64) (winnableDeal, error) {
	d, ok := t.Pick("train", seed)
	if !ok {
		return winnableDeal{}, fmt.Errorf("the solver won no deal of the %s table's training block at its budget (%s nodes): there is no winnable deal to deal", spec.Name, formatCount(t.Meta.Settings.Nodes))
	}
	text := fmt.Sprintf("Deal %d is winnable: the solver won it with a line of %d moves (difficulty %s).", d.Seed, d.LineLength, d.Difficulty)
	if t.Meta.Clairvoyant {
		text = fmt.Sprintf("Deal %d can be won by a player who guesses the hidden cards right: the solver, seeing them, won it with a line of %d moves (difficulty %s; %d of %d determinized worlds won).",
			d.Seed, d.LineLength, d.Difficulty, d.Worlds.Won, d.Worlds.Tried)
	}
	return winnableDeal{seed: d.Seed, text: text}, nil
}

// writeDealsStats prints a table's figures: by block, the verdicts and
// the agents' wins; by difficulty class, what the won deals are like.
func writeDealsStats(w io.Writer, t *deals.Table) {
	m := &t.Meta
	pct := func(k, n int) string {
		if n == 0 {
			return "-"
		}
		return fmt.Sprintf("%.1f %%", 100*float64(k)/float64(n))
	}
	fmt.Fprintf(w, "%s (rules v%d), solver budget %s nodes a deal", m.Title, m.RulesVersion, formatCount(m.Settings.Nodes))
	if m.Settings.Worlds > 0 {
		fmt.Fprintf(w, ", %d worlds of %s nodes", m.Settings.Worlds, formatCount(m.Settings.WorldNodes))
	}
	fmt.Fprintf(w, "; difficulty cuts %.3f and %.3f\n", m.Cuts[0], m.Cuts[1])
	for _, b := range m.Blocks {
		ds := t.Select(deals.Filter{Block: b.Name})
		c := t.Count(b.Name)
		fmt.Fprintf(w, "\n%s, deals %d to %d: won %s (%s), lost %s (%s), unknown %s (%s)\n", b.Name, b.First, b.First+uint64(b.Count)-1,
			thousands(int64(c.Won)), pct(c.Won, len(ds)), thousands(int64(c.Lost)), pct(c.Lost, len(ds)), thousands(int64(c.Unknown)), pct(c.Unknown, len(ds)))
		groups := []struct {
			name string
			ds   []deals.Deal
		}{{"all", ds}}
		for _, v := range []deals.Verdict{deals.Won, deals.Lost, deals.Unknown} {
			groups = append(groups, struct {
				name string
				ds   []deals.Deal
			}{v.String(), t.Select(deals.Filter{Block: b.Name, Verdicts: []deals.Verdict{v}})})
		}
		for _, d := range []deals.Difficulty{deals.Easy, deals.Medium, deals.Hard} {
			groups = append(groups, struct {
				name string
				ds   []deals.Deal
			}{"won " + d.String(), t.Select(deals.Filter{Block: b.Name, Difficulty: d})})
		}
		fmt.Fprintf(w, "  %-12s %6s %11s %9s %10s %10s", "deals", "count", "mean nodes", "mean line", "heuristic", "mc")
		if m.Clairvoyant {
			fmt.Fprintf(w, " %11s", "worlds won")
		}
		fmt.Fprintln(w)
		for _, g := range groups {
			var nodes, line, lines, hw, mw, mp, wt, ww int64
			for _, d := range g.ds {
				nodes += d.Nodes
				if d.LineLength > 0 { // 0: won in play, the line not recorded
					line += int64(d.LineLength)
					lines++
				}
				if d.Heuristic.Won {
					hw++
				}
				if d.MC.Played {
					mp++
					if d.MC.Won {
						mw++
					}
				}
				wt += int64(d.Worlds.Tried)
				ww += int64(d.Worlds.Won)
			}
			n := len(g.ds)
			meanLine := "-"
			if strings.HasPrefix(g.name, "won") && lines > 0 {
				meanLine = fmt.Sprintf("%.1f", float64(line)/float64(lines))
			}
			meanNodes := "-"
			if n > 0 {
				meanNodes = thousands(nodes / int64(n))
			}
			fmt.Fprintf(w, "  %-12s %6d %11s %9s %10s %10s", g.name, n, meanNodes, meanLine, pct(int(hw), n), pct(int(mw), int(mp)))
			if m.Clairvoyant {
				fmt.Fprintf(w, " %11s", pct(int(ww), int(wt)))
			}
			fmt.Fprintln(w)
		}
	}
}
