package deals

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/internal/journal"
	"github.com/patience-gym/patience/solver"
)

// ChallengeConfig describes a challenge run: the deals a table leaves
// unknown, solved again with a larger budget.
type ChallengeConfig struct {
	// Table is the table whose unknown deals are tried.
	Table *Table
	// Block, when not "", tries only the unknown deals of this block.
	Block string
	// Nodes is the node budget of each attempt.
	Nodes int64
	// Work is the directory of the run's journal,
	// GAME-challenge-NODES.jsonl: a rerun skips the deals it holds.
	Work string
	// Command is the command that makes the list, recorded in it.
	Command string
	// OnStart, if set, is called with the number of deals to try and the
	// number in the journal already; OnDeal after each attempt.
	OnStart func(todo, done int)
	OnDeal  func(Attempt)
}

// Attempt is one unknown deal of a table solved again with a larger
// budget.
type Attempt struct {
	// Seed and Block name the deal.
	Seed  uint64 `json:"seed"`
	Block string `json:"block"`
	// TableNodes and TableBest are the table's figures: the nodes it
	// spent and the most cards placed in any position it expanded.
	TableNodes int64 `json:"table_nodes"`
	TableBest  int   `json:"table_best_progress"`
	// Verdict, Nodes and Best are those of the attempt; LineLength the
	// length of the winning line when it won.
	Verdict    string `json:"verdict"`
	Nodes      int64  `json:"nodes"`
	Best       int    `json:"best_progress"`
	MaxDepth   int    `json:"max_depth"`
	LineLength int    `json:"line_length,omitempty"`
	// CPU is the processor time of the attempt, in seconds.
	CPU float64 `json:"cpu_seconds"`
}

// Challenge is a game's list of open problems: the deals its table leaves
// unknown, with what a larger budget found.
type Challenge struct {
	Game         string    `json:"game"`
	RulesVersion int       `json:"rules_version"`
	Clairvoyant  bool      `json:"clairvoyant"`
	Cards        int       `json:"cards"`
	Block        string    `json:"block,omitempty"`
	TableNodes   int64     `json:"table_nodes"`
	Nodes        int64     `json:"nodes"`
	Command      string    `json:"command"`
	Deals        []Attempt `json:"deals"`
}

// challengeHead is the first line of a challenge journal.
type challengeHead struct {
	Journal int    `json:"patience_deals_challenge"`
	Game    string `json:"game"`
	Rules   int    `json:"rules_version"`
	Nodes   int64  `json:"nodes"`
}

// RunChallenge solves again, one at a time, the deals cfg.Table leaves
// unknown, with the larger budget cfg.Nodes, recording each attempt in a
// journal as it ends, and returns the list once every deal was tried. A
// cancelled ctx stops it with ctx's error; the journal keeps the
// attempts finished.
func RunChallenge(ctx context.Context, cfg ChallengeConfig) (*Challenge, error) {
	t := cfg.Table
	m := &t.Meta
	if cfg.Nodes <= m.Settings.Nodes {
		return nil, fmt.Errorf("the challenge budget %d must be larger than the table's, %d", cfg.Nodes, m.Settings.Nodes)
	}
	if err := os.MkdirAll(cfg.Work, 0o755); err != nil {
		return nil, fmt.Errorf("create the work directory: %w", err)
	}
	h := challengeHead{Journal: 1, Game: m.Game, Rules: m.RulesVersion, Nodes: cfg.Nodes}
	j, lines, err := journal.Open(filepath.Join(cfg.Work, fmt.Sprintf("%s-challenge-%d.jsonl", m.Game, cfg.Nodes)), h)
	if err != nil {
		return nil, err
	}
	defer j.Close()
	done := map[uint64]Attempt{}
	for _, l := range lines {
		var a Attempt
		if err := json.Unmarshal(l, &a); err != nil {
			return nil, fmt.Errorf("%s: %w", j.Path(), err)
		}
		done[a.Seed] = a
	}
	unknown := t.Select(Filter{Verdicts: []Verdict{Unknown}, Block: cfg.Block})
	c := &Challenge{Game: m.Game, RulesVersion: m.RulesVersion, Clairvoyant: m.Clairvoyant, Cards: m.Cards,
		Block: cfg.Block, TableNodes: m.Settings.Nodes, Nodes: cfg.Nodes, Command: cfg.Command}
	todo := 0
	for _, d := range unknown {
		if _, ok := done[d.Seed]; !ok {
			todo++
		}
	}
	if cfg.OnStart != nil {
		cfg.OnStart(todo, len(unknown)-todo)
	}
	var g env.Game
	var sv *solver.Solver
	for _, d := range unknown {
		a, ok := done[d.Seed]
		if !ok {
			if g == nil {
				if g, err = env.NewGame(m.Game); err != nil {
					return nil, err
				}
				if sv, err = solver.New(solver.Options{Nodes: cfg.Nodes, TableBits: m.Settings.TableBits}); err != nil {
					return nil, err
				}
			}
			g.Deal(d.Seed)
			start := cpuTime()
			res := sv.Solve(ctx, g)
			if res.Stop == solver.Cancelled {
				return nil, ctx.Err()
			}
			a = Attempt{Seed: d.Seed, Block: d.Block, Verdict: verdictOf(res).String(), Nodes: res.Nodes, Best: res.Best,
				MaxDepth: res.MaxDepth, LineLength: len(res.Line), CPU: math.Round((cpuTime()-start)*1e3) / 1e3}
			a.TableNodes, a.TableBest = d.Nodes, d.BestProgress
			if err := j.Add(a); err != nil {
				return nil, err
			}
			if cfg.OnDeal != nil {
				cfg.OnDeal(a)
			}
		}
		a.Block, a.TableNodes, a.TableBest = d.Block, d.Nodes, d.BestProgress
		c.Deals = append(c.Deals, a)
	}
	return c, nil
}

// verdictOf maps a solver's result to a table's verdict.
func verdictOf(r solver.Result) Verdict {
	switch r.Verdict {
	case solver.Solved:
		return Won
	case solver.Unsolvable:
		return Lost
	}
	return Unknown
}
