package main

// patience deals build and patience deals challenge: the long runs that make
// the verdict tables and the challenge list (patience deals lists them; see
// deals.go).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/patience-gym/patience/deals"
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/internal/atomicfile"
	"github.com/patience-gym/patience/internal/textlist"
)

// buildOrder is the order `patience deals build` makes the tables in
// when no game is named: cheapest first, so that most tables are done
// early in a long run.
var buildOrder = []string{"limited", "fourquarters", "cromwell", "royalparade", "ladder", "fifteen"}

func runDealsBuild(ctx context.Context, inv *invocation, args []string) error {
	fs := inv.flags()
	work := fs.String("work", "deals-work", "the directory of the journals (one per game and shard)")
	out := fs.String("out", "deals/tables", "the directory the tables are written to, GAME.parquet")
	shard := shardFlag{0, 1}
	fs.Var(&shard, "shard", "work only on share i of n of the deals (0-based: 0/4 .. 3/4)")
	workers := fs.Int("workers", 1, "deals worked on at once")
	nodes := fs.String("nodes", "", "the solver's node budget per deal (default: the game's, see docs/deals-tables.md)")
	worlds := fs.Int("worlds", -1, "determinized worlds solved per deal, hidden games (default: the game's)")
	worldNodes := fs.String("world-nodes", "", "node budget of each world (default: the game's)")
	train := fs.Int("train", 10_000, "deals of the training block, from deal 0")
	eval := fs.Int("eval", 1_000, "deals of the evaluation block, from deal 1,000,000 (mc plays these)")
	keepDir := fs.String("keep", "", "a directory of tables (GAME.parquet, such as deals/tables): each decided deal the new search leaves unknown keeps its verdict there")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	games := pos
	if len(games) == 0 || (len(games) == 1 && games[0] == "all") {
		games = buildOrder
	}
	if *workers <= 0 {
		return usagef("--workers must be positive")
	}
	if *train < 0 || *eval < 0 || *train+*eval == 0 {
		return usagef("--train and --eval must not be negative, and not both 0")
	}
	var blocks []deals.Block
	if *train > 0 {
		blocks = append(blocks, deals.Block{Name: "train", First: 0, Count: *train})
	}
	if *eval > 0 {
		blocks = append(blocks, deals.Block{Name: "eval", First: 1_000_000, Count: *eval, MC: true})
	}
	for _, g := range games {
		spec, err := lookupGame(g)
		if err != nil {
			return err
		}
		if spec.Variant != "" {
			return usagef("tables are of the games' default rules, not of the variant %s", spec.ID())
		}
		s, err := deals.DefaultSettings(spec.Name)
		if err != nil {
			return usageError{err}
		}
		cmdLine := []string{"patience", "deals", "build", spec.Name}
		if *nodes != "" {
			if s.Nodes, err = parseNodes("nodes", *nodes, "1M, 300k"); err != nil {
				return err
			}
			cmdLine = append(cmdLine, "--nodes", *nodes)
		}
		if spec.Hidden {
			if *worlds >= 0 {
				s.Worlds = *worlds
				cmdLine = append(cmdLine, "--worlds", fmt.Sprint(*worlds))
			}
			if *worldNodes != "" {
				if s.WorldNodes, err = parseNodes("world-nodes", *worldNodes, "10k"); err != nil {
					return err
				}
				cmdLine = append(cmdLine, "--world-nodes", *worldNodes)
			}
		}
		if *train != 10_000 {
			cmdLine = append(cmdLine, "--train", fmt.Sprint(*train))
		}
		if *eval != 1_000 {
			cmdLine = append(cmdLine, "--eval", fmt.Sprint(*eval))
		}
		var kept *deals.Table
		if *keepDir != "" {
			if kept, err = deals.ReadFile(filepath.Join(*keepDir, spec.Name+".parquet")); err != nil {
				return fmt.Errorf("--keep: %w", err)
			}
			cmdLine = append(cmdLine, "--keep", *keepDir)
		}
		if err := buildTable(ctx, inv, deals.Config{
			Game: spec.Name, Blocks: blocks, Settings: s, Shard: shard.i, Shards: shard.n,
			Workers: *workers, Work: *work, Out: *out, Command: strings.Join(cmdLine, " "), Keep: kept,
		}); err != nil {
			return err
		}
	}
	return nil
}

// buildTable builds one game's table, with progress on stderr and a
// summary on stdout.
func buildTable(ctx context.Context, inv *invocation, cfg deals.Config) error {
	var bar *progress
	var won, lost, unknown int
	var cpu float64
	cfg.OnStart = func(s deals.Status) {
		for _, r := range s.Removed {
			fmt.Fprintf(inv.stderr, "removed %s, left by a killed run\n", r)
		}
		st := cfg.Settings
		budget := formatCount(st.Nodes) + " nodes a deal"
		if st.Worlds > 0 {
			budget += fmt.Sprintf(", %d worlds of %s nodes", st.Worlds, formatCount(st.WorldNodes))
		}
		if s.Todo == 0 {
			fmt.Fprintf(inv.stdout, "%s: all %s deals of this shard are in the journals (%s)\n", s.Game, thousands(int64(s.Deals)), budget)
		} else {
			fmt.Fprintf(inv.stdout, "%s: %s deals of this shard, %s in the journals already, %s to do (%s; %s)\n",
				s.Game, thousands(int64(s.Deals)), thousands(int64(s.Done)), thousands(int64(s.Todo)), budget, count(s.Workers, "worker"))
		}
		bar = newProgress(inv.stderr, "deals "+s.Game, int64(s.Todo))
		bar.extra = func() string {
			n := won + lost + unknown
			per := 0.0
			if n > 0 {
				per = cpu / float64(n)
			}
			return fmt.Sprintf("won %d lost %d unknown %d, %.2f cpu-s a deal", won, lost, unknown, per)
		}
	}
	cfg.OnDeal = func(r deals.Record) {
		switch r.Deal.Verdict {
		case deals.Won:
			won++
		case deals.Lost:
			lost++
		default:
			unknown++
		}
		cpu += r.CPU.Total()
		bar.add(1)
	}
	sum, err := deals.Build(ctx, cfg)
	if bar != nil {
		bar.done()
	}
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return fmt.Errorf("interrupted: every deal finished is in the journal, and the same command goes on from there: %w", err)
		}
		return err
	}
	if sum.Worked > 0 {
		c := sum.CPU
		fmt.Fprintf(inv.stdout, "%s: worked on %s: won %d, lost %d, unknown %d; processor time %.0f s (solve %.0f, worlds %.0f, heuristic %.0f, mc %.0f), %.3f s a deal\n",
			sum.Game, count(sum.Worked, "deal"), won, lost, unknown, c.Total(), c.Solve, c.Worlds, c.Heuristic, c.MC, c.Total()/float64(sum.Worked))
	}
	if sum.Path == "" {
		fmt.Fprintf(inv.stdout, "%s: %s of the table not in the journals yet (other shards?): no table written\n", sum.Game, count(sum.Missing, "deal"))
		return nil
	}
	size := int64(0)
	if st, err := os.Stat(sum.Path); err == nil {
		size = st.Size()
	}
	c := sum.Table.Meta.Counts["all"]
	fmt.Fprintf(inv.stdout, "%s: wrote %s (%s): %s deals, won %d, lost %d, unknown %d\n",
		sum.Game, sum.Path, bytesText(size), thousands(int64(sum.Table.Meta.Deals())), c.Won, c.Lost, c.Unknown)
	if k := sum.Table.Meta.Kept; len(k) > 0 {
		fmt.Fprintf(inv.stdout, "%s: %s kept from the table before, the new search left open: %s\n",
			sum.Game, count(len(k), "verdict"), textlist.Numbers(k, 10))
	}
	return nil
}

func runDealsChallenge(ctx context.Context, inv *invocation, args []string) error {
	fs := inv.flags()
	nodes := fs.String("nodes", "10M", "the node budget of each attempt (more than the table's)")
	block := fs.String("block", "", "only the unknown deals of this block (train or eval; default all)")
	tablePath := fs.String("table", "", "the table to read (default: the one that ships)")
	work := fs.String("work", "deals-work", "the directory of the journal")
	out := fs.String("out", "results", "the directory the list is written to, deals-challenge-GAME.json")
	spec, err := parseGame(fs, args)
	if err != nil {
		return err
	}
	nodeBudget, err := parseNodes("nodes", *nodes, "10M")
	if err != nil {
		return err
	}
	t, err := tableAt(spec, *tablePath)
	if err != nil {
		return err
	}
	cmdLine := []string{"patience", "deals", "challenge", spec.Name, "--nodes", *nodes}
	if *block != "" {
		cmdLine = append(cmdLine, "--block", *block)
	}
	var bar *progress
	c, err := deals.RunChallenge(ctx, deals.ChallengeConfig{
		Table: t, Block: *block, Nodes: nodeBudget, Work: *work, Command: strings.Join(cmdLine, " "),
		OnStart: func(todo, done int) {
			fmt.Fprintf(inv.stdout, "%s: %s left unknown at %s nodes, %d tried already, %d to try at %s nodes\n",
				spec.Name, count(todo+done, "deal"), formatCount(t.Meta.Settings.Nodes), done, todo, formatCount(nodeBudget))
			bar = newProgress(inv.stderr, "challenge "+spec.Name, int64(todo))
		},
		OnDeal: func(a deals.Attempt) {
			fmt.Fprintf(inv.stdout, "deal %d: %s (%s nodes, at best %d of %d cards; the table: %d at %s nodes)\n",
				a.Seed, a.Verdict, thousands(a.Nodes), a.Best, t.Meta.Cards, a.TableBest, thousands(a.TableNodes))
			bar.add(1)
		},
	})
	if bar != nil {
		bar.done()
	}
	if err != nil {
		return err
	}
	js, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	path := filepath.Join(*out, "deals-challenge-"+spec.Name+".json")
	if err := atomicfile.WriteFile(path, append(js, '\n')); err != nil {
		return err
	}
	var won, lost int
	for _, a := range c.Deals {
		switch a.Verdict {
		case "won":
			won++
		case "lost":
			lost++
		}
	}
	fmt.Fprintf(inv.stdout, "%s: %d deals tried at %s nodes: %d won, %d lost, %d still unknown; wrote %s\n",
		spec.Name, len(c.Deals), formatCount(nodeBudget), won, lost, len(c.Deals)-won-lost, path)
	return nil
}

// tableAt reads the table of spec's game at path, checked against the
// game's rules, or the one that ships when path is "".
func tableAt(spec *env.Spec, path string) (*deals.Table, error) {
	if path == "" {
		return deals.Shipped(spec.Name)
	}
	t, err := deals.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if err := deals.Check(t, spec); err != nil {
		return nil, err
	}
	return t, nil
}
