package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/patience-gym/patience/bench"
	"github.com/patience-gym/patience/deals"
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/internal/atomicfile"
	"github.com/patience-gym/patience/internal/version"
)

// protocolFlags are the bench flags a protocol run reads.
type protocolFlags struct {
	protocol, games, agents, model, json string
	workers                              int
	shard                                shardFlag
	// set holds the names of the flags given on the command line.
	set map[string]bool
}

// protocolFixed are the bench flags a protocol fixes, with what it fixes
// them to.
var protocolFixed = []struct{ flag, fixed string }{
	{"deals", "the deals"},
	{"seed-start", "the deals"},
	{"max-steps", "the step limits"},
	{"confidence", "the intervals' level"},
	{"baseline", "what is reported (no paired comparisons)"},
	{"csv", "what is written (--json writes its result file)"},
	{"plot", "what is written (--json writes its result file)"},
}

// runProtocol is `patience bench --protocol VERSION`.
func runProtocol(ctx context.Context, inv *invocation, args []string, f protocolFlags) error {
	p, err := bench.LookupProtocol(f.protocol)
	if err != nil {
		return usagef("--protocol: %v", err)
	}
	for _, x := range protocolFixed {
		if f.set[x.flag] {
			return usagef("--%s cannot be used with --protocol %s: the protocol fixes %s, so that every result made under it measures the same thing (docs/protocol.md)", x.flag, p.Version, x.fixed)
		}
	}
	if f.workers <= 0 {
		return usagef("--workers must be positive, not %d", f.workers)
	}
	cfg := bench.ProtocolConfig{Protocol: p, Workers: f.workers, Runner: "patience bench",
		Command: commandLine(append([]string{"patience", "bench"}, args...))}
	if strings.EqualFold(strings.TrimSpace(f.games), "all") {
		cfg.Games = bench.ProtocolGames()
		var pending []string
		for _, spec := range env.Specs() {
			if !slices.Contains(cfg.Games, spec) {
				pending = append(pending, spec.ID())
			}
		}
		if len(pending) > 0 {
			fmt.Fprintf(inv.stderr, "bench: protocol %s measures the games whose verdict table ships: %s; no table ships yet for %s\n",
				p.Version, specNames(cfg.Games), strings.Join(pending, ", "))
		}
		if len(cfg.Games) == 0 {
			return fmt.Errorf("protocol %s: no verdict table ships in this build", p.Version)
		}
	} else if cfg.Games, err = gameList(f.games); err != nil {
		return err
	}
	for _, spec := range cfg.Games {
		if _, err := p.Game(spec); err != nil {
			if errors.Is(err, deals.ErrNoTable) {
				return usageError{err}
			}
			return err
		}
	}
	if cfg.Agents, err = agentList(f.agents, cfg.Games, f.model); err != nil {
		return err
	}
	if f.json != "" {
		dir := filepath.Dir(f.json)
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return usagef("--json %s: the directory %s does not exist", f.json, dir)
		}
		cfg.Journal = f.json + ".journal.jsonl"
	}
	if f.shard.n > 1 {
		if f.json == "" {
			return usagef("--shard needs --json FILE: a shard's episodes go to its journal beside FILE, for the run without --shard to merge")
		}
		cfg.Shard, cfg.Shards = f.shard.i, f.shard.n
	}
	total := 0
	for _, spec := range cfg.Games {
		g, _ := p.Game(spec)
		total += g.Block.Count * len(cfg.Agents)
	}
	kept := "nothing written"
	if cfg.Journal != "" {
		kept = "the episodes played are in " + bench.ShardJournal(cfg.Journal, cfg.Shard, cfg.Shards) + ": the same command goes on from there"
	}
	games := countGames(inv.stderr, "bench "+p.Version, total)
	cfg.Progress = games.progress
	res, err := bench.RunProtocol(ctx, cfg)
	if err := games.end(err, kept); err != nil {
		return err
	}
	if res.Shard != "" {
		fmt.Fprintf(inv.stdout, "Shard %s: its episodes are in %s (%s). When every shard is done, put their journals beside %s and run the command without --shard: it merges them into %s.\n",
			res.Shard, bench.ShardJournal(cfg.Journal, cfg.Shard, cfg.Shards), time.Since(games.began).Round(100*time.Millisecond), f.json, f.json)
		return nil
	}
	fmt.Fprintf(inv.stdout, "Command: `%s`\n\n", cfg.Command)
	if err := res.WriteMarkdown(inv.stdout); err != nil {
		return err
	}
	games.writeElapsed(inv.stdout, time.Since(games.began), res.Workers)
	if f.json != "" {
		if err := res.SaveJSON(f.json); err != nil {
			return err
		}
		if err := bench.RemoveJournals(cfg.Journal); err != nil {
			return err
		}
		fmt.Fprintf(inv.stdout, "Wrote %s.\n", f.json)
	}
	return nil
}

func specNames(specs []*env.Spec) string {
	var out []string
	for _, s := range specs {
		out = append(out, s.ID())
	}
	return strings.Join(out, ", ")
}

// runReverdict is `patience bench --protocol VERSION --reverdict FILE...`:
// each result file's verdict-table columns taken again from this build's
// tables, the episodes left as they were played.
func runReverdict(inv *invocation, protocol string, files []string) error {
	p, err := bench.LookupProtocol(protocol)
	if err != nil {
		return usagef("--protocol: %v", err)
	}
	for _, path := range files {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		res, err := bench.ReadProtocolJSON(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if res.Protocol != p.Version {
			return fmt.Errorf("%s: a result of protocol %s, not %s", path, res.Protocol, p.Version)
		}
		changed := 0
		for i, row := range res.Results {
			spec, err := env.Lookup(row.Game)
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			g, err := p.Game(spec)
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			again, err := g.Reverdict(row)
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			if again.Table != row.Table || again.WinsWinnable != row.WinsWinnable {
				changed++
			}
			res.Results[i] = again
		}
		b := bench.ThisBuild()
		res.Reverdicted = strings.TrimSpace(fmt.Sprintf("%s by patience %s %s", time.Now().UTC().Format(time.RFC3339), version.Version, b.Commit)) + ", with its verdict tables"
		if err := res.SaveJSON(path); err != nil {
			return err
		}
		md := strings.TrimSuffix(path, filepath.Ext(path)) + ".md"
		var out strings.Builder
		fmt.Fprintf(&out, "Command: `%s`\n\n", res.Command)
		if err := res.WriteMarkdown(&out); err != nil {
			return err
		}
		fmt.Fprintf(&out, "\nReverdicted: %s.\n", res.Reverdicted)
		if err := atomicfile.WriteFile(md, []byte(out.String())); err != nil {
			return err
		}
		fmt.Fprintf(inv.stdout, "%s: %d of %d rows changed; wrote %s and %s.\n", path, changed, len(res.Results), path, md)
	}
	return nil
}
