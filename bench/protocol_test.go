package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/patience-gym/patience/deals"
	"github.com/patience-gym/patience/env"
)

func limitedSpec(t *testing.T) *env.Spec {
	t.Helper()
	return lookup(t, "limited")[0]
}

// The protocol plays the evaluation block as the verdict table's build
// played it: the heuristic agent, seeded with the deal number at the game's
// step limit, wins and places exactly what the table recorded, deal by deal.
func TestProtocolV1PlaysTheTablesDeals(t *testing.T) {
	spec := limitedSpec(t)
	const n = 120
	res, err := RunProtocol(context.Background(), ProtocolConfig{
		Protocol: V1, Games: []*env.Spec{spec}, Agents: parseAgents(t, "random", "heuristic"), Workers: 2, deals: n,
	})
	if err != nil {
		t.Fatal(err)
	}
	tab, err := deals.Shipped("limited")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) != 2 || res.Results[0].Agent != "random" || res.Results[1].Agent != "heuristic" {
		t.Fatalf("rows %+v", res.Results)
	}
	h := res.Results[1]
	won, winnable, wonOnWinnable, unknownWins := 0, 0, 0, 0
	for i := range n {
		d, ok := tab.Deal(1_000_000 + uint64(i))
		if !ok {
			t.Fatalf("the table lacks deal %d", 1_000_000+i)
		}
		if got := h.Outcomes[i] == 'W'; got != d.Heuristic.Won || h.Progress[i] != d.Heuristic.Progress {
			t.Errorf("deal %d: the protocol's heuristic won=%v placed %d, the table's won=%v placed %d",
				d.Seed, got, h.Progress[i], d.Heuristic.Won, d.Heuristic.Progress)
		}
		if d.Heuristic.Won {
			won++
		}
		switch d.Verdict {
		case deals.Won:
			winnable++
			if d.Heuristic.Won {
				wonOnWinnable++
			}
		case deals.Unknown:
			if d.Heuristic.Won {
				unknownWins++
			}
		}
	}
	if h.Wins != won || h.Winnable != winnable || h.WinsWinnable != wonOnWinnable || h.WinsUnknown != unknownWins || h.WinsLost != 0 {
		t.Errorf("row: wins %d winnable %d wins among them %d on unknown %d on lost %d; want %d %d %d %d 0",
			h.Wins, h.Winnable, h.WinsWinnable, h.WinsUnknown, h.WinsLost, won, winnable, wonOnWinnable, unknownWins)
	}
	if h.Games != n || h.Deals.First != 1_000_000 || h.Deals.Count != n || h.MaxSteps != spec.MaxSteps || h.AgentSeed != "deal" {
		t.Errorf("row's protocol: %+v", h)
	}
	if lo, hi := float64(h.WinLo), float64(h.WinHi); !(lo <= float64(h.WinRate) && float64(h.WinRate) <= hi) {
		t.Errorf("win rate %v outside its interval [%v, %v]", h.WinRate, lo, hi)
	}
	if float64(h.ProgressMean) <= float64(res.Results[0].ProgressMean) {
		t.Errorf("the heuristic's progress %v is not above random's %v", h.ProgressMean, res.Results[0].ProgressMean)
	}
	if res.Protocol != "v1" || res.Machine.Cores <= 0 || res.Machine.Go == "" || res.Date == "" || res.Confidence != 0.95 {
		t.Errorf("result head: %+v", res)
	}

	// The file reads back as written.
	var buf bytes.Buffer
	if err := res.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := ReadProtocolJSON(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if len(back.Results) != 2 || back.Results[1].Outcomes != h.Outcomes || back.Results[1].Wins != h.Wins || back.Machine != res.Machine {
		t.Errorf("read back %+v", back)
	}
	if lines := strings.Count(buf.String(), "\n"); lines > 40 {
		t.Errorf("the file has %d lines; each row should be one", lines)
	}
	var md bytes.Buffer
	if err := res.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"### Limited (`limited`), protocol v1", "| heuristic | " + fmt.Sprint(h.Wins) + " |", "step limit"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md.String())
		}
	}
}

// The solver agent at the table's budget agrees with the table: it wins
// every deal the table's own search says won and none it says lost (the
// verdicts kept from an earlier table or folded in from solver runs came
// from larger budgets), and the row's wins among the winnable deals are
// its wins among all the deals the table says won.
func TestProtocolSolverAgreesWithTheTable(t *testing.T) {
	spec := limitedSpec(t)
	tab, err := deals.Shipped("limited")
	if err != nil {
		t.Fatal(err)
	}
	other := tab.Meta.DecidedElsewhere()
	const n = 12
	solverAgent := fmt.Sprintf("solver:nodes=%d,table-bits=22", tab.Meta.Settings.Nodes)
	res, err := RunProtocol(context.Background(), ProtocolConfig{
		Protocol: V1, Games: []*env.Spec{spec}, Agents: parseAgents(t, solverAgent), Workers: 2, deals: n,
	})
	if err != nil {
		t.Fatal(err)
	}
	row := res.Results[0]
	if !row.Ceiling || !row.Clairvoyant {
		t.Errorf("the solver in Limited is not marked a ceiling: %+v", row)
	}
	own, winsWinnable := 0, 0
	for i := range n {
		d, _ := tab.Deal(1_000_000 + uint64(i))
		won := row.Outcomes[i] == 'W'
		if d.Verdict == deals.Won && won {
			winsWinnable++
		}
		if slices.Contains(other, d.Seed) {
			continue
		}
		if d.Verdict == deals.Won {
			own++
		}
		if (d.Verdict == deals.Won && !won) || (d.Verdict == deals.Lost && won) {
			t.Errorf("deal %d: the table's search says %s, the solver agent won=%v", d.Seed, d.Verdict, won)
		}
	}
	if own == 0 || row.WinsWinnable != winsWinnable {
		t.Errorf("the solver won %d of the winnable deals, %d by the outcomes (%d won by the table's own search)", row.WinsWinnable, winsWinnable, own)
	}
}

// An interrupted run with a journal goes on where it stopped and ends with
// the result of an uninterrupted one.
func TestProtocolJournalResumes(t *testing.T) {
	spec := limitedSpec(t)
	path := filepath.Join(t.TempDir(), "sub", "run.jsonl")
	cfg := ProtocolConfig{Protocol: V1, Games: []*env.Spec{spec}, Agents: parseAgents(t, "random", "heuristic"), Workers: 1, deals: 30, Journal: path}
	ctx, cancel := context.WithCancel(context.Background())
	stopAt := 0
	cfg.Progress = func(done, _ int) {
		if done >= 25 {
			stopAt = done
			cancel()
		}
	}
	if _, err := RunProtocol(ctx, cfg); !errors.Is(err, context.Canceled) {
		t.Fatalf("the interrupted run returned %v", err)
	}
	first := -1
	cfg.Progress = func(done, _ int) {
		if first < 0 {
			first = done
		}
	}
	resumed, err := RunProtocol(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if first < stopAt {
		t.Errorf("the rerun started from %d episodes; %d were journalled", first, stopAt)
	}
	cfg.Journal, cfg.Progress = "", nil
	whole, err := RunProtocol(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := protocolRowsWithoutTimes(t, resumed), protocolRowsWithoutTimes(t, whole); got != want {
		t.Errorf("the resumed run's rows differ from an uninterrupted run's:\n%s\nwant\n%s", got, want)
	}
	// Another agent's settings do not take the journal's episodes.
	cfg.Journal, cfg.Agents = path, parseAgents(t, "mc:rollouts=1")
	cfg.deals = 2
	first = -1
	cfg.Progress = func(done, _ int) {
		if first < 0 {
			first = done
		}
	}
	if _, err := RunProtocol(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	if first != 1 {
		t.Errorf("mc's first progress call counted %d episodes: it took the journal's episodes of other agents", first)
	}
}

func TestProtocolRefusals(t *testing.T) {
	if _, err := LookupProtocol("v9"); !errors.Is(err, ErrNoProtocol) || !strings.Contains(err.Error(), "v1") {
		t.Errorf("LookupProtocol(v9): %v", err)
	}
	if p, err := LookupProtocol(" V1 "); err != nil || p.Version != "v1" {
		t.Errorf("LookupProtocol(V1) = %v, %v", p, err)
	}
	// Every game's table ships; a variant's never does (tables hold the
	// default rules).
	for _, spec := range env.Specs() {
		if _, err := V1.Game(spec); err != nil {
			t.Errorf("protocol v1 on %s: %v", spec.ID(), err)
		}
	}
	variant, err := env.Lookup("cromwell:noswap")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := V1.Game(variant); err == nil || !errors.Is(err, deals.ErrNoTable) || !strings.Contains(err.Error(), "needs the verdict table") {
		t.Errorf("protocol v1 on %s, which has no table: %v", variant.ID(), err)
	}
	if _, err := RunProtocol(context.Background(), ProtocolConfig{Protocol: V1, Games: []*env.Spec{variant}}); err == nil || !strings.Contains(err.Error(), "variant") {
		t.Errorf("protocol v1 on a variant: %v", err)
	}
}

// protocolRowsWithoutTimes returns the result's rows as JSON with the wall times
// left out: what must not depend on how the run was split.
func protocolRowsWithoutTimes(t *testing.T, res *ProtocolResult) string {
	t.Helper()
	var b strings.Builder
	for _, r := range res.Results {
		r.MsPerGame = 0
		line, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.String()
}

// TestProtocolShardsMerge: three machines' shards, each into its own
// journal, then the run of the whole beside them, which plays nothing and
// writes the rows an unsplit run writes; the journals are removed after.
func TestProtocolShardsMerge(t *testing.T) {
	spec := limitedSpec(t)
	dir := t.TempDir()
	journal := filepath.Join(dir, "v1.json.journal.jsonl")
	cfg := ProtocolConfig{Protocol: V1, Games: []*env.Spec{spec}, Agents: parseAgents(t, "random", "heuristic"), Workers: 2, deals: 130}
	whole, err := RunProtocol(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Journal = journal
	for i := range 3 {
		c := cfg
		c.Shard, c.Shards = i, 3
		res, err := RunProtocol(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		if res.Shard != fmt.Sprintf("%d/3", i) || len(res.Results) != 0 {
			t.Fatalf("shard %d: result %q with %d rows", i, res.Shard, len(res.Results))
		}
		if _, err := os.Stat(ShardJournal(journal, i, 3)); err != nil {
			t.Fatalf("shard %d wrote no journal: %v", i, err)
		}
	}
	played := -1
	cfg.Progress = func(done, total int) {
		if played < 0 {
			played = total - done // what the merge had left to play after its first stretch of held episodes
		}
	}
	merged, err := RunProtocol(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if played != 0 {
		t.Errorf("the merge played %d episodes itself; the shards had played them all", played)
	}
	if got, want := protocolRowsWithoutTimes(t, merged), protocolRowsWithoutTimes(t, whole); got != want {
		t.Errorf("the merged rows differ from an unsplit run's:\n%s\nwant\n%s", got, want)
	}
	if err := RemoveJournals(journal); err != nil {
		t.Fatal(err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*")); len(left) != 0 {
		t.Errorf("journals left after RemoveJournals: %v", left)
	}
	// A shard needs a journal, and a shard must be in range.
	cfg.Journal, cfg.Shard, cfg.Shards = "", 0, 2
	if _, err := RunProtocol(context.Background(), cfg); err == nil {
		t.Error("a shard without a journal was accepted")
	}
	cfg.Journal, cfg.Shard, cfg.Shards = journal, 2, 2
	if _, err := RunProtocol(context.Background(), cfg); err == nil {
		t.Error("shard 2/2 was accepted")
	}
}

// TestReverdictCountsTheWinnableAgain: a row taken again against the same
// table is the same row; against a table that decided one of its unknown
// deals as won, that deal counts among the winnable ones, and a win there
// is a win among them.
func TestReverdictCountsTheWinnableAgain(t *testing.T) {
	spec := limitedSpec(t)
	cfg := ProtocolConfig{Protocol: V1, Games: []*env.Spec{spec}, Agents: parseAgents(t, "heuristic"), Workers: 2, deals: 200}
	res, err := RunProtocol(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	row := res.Results[0]
	g, err := V1.Game(spec)
	if err != nil {
		t.Fatal(err)
	}
	g.Block.Count = 200
	g.Verdicts = g.Verdicts[:200]
	same, err := g.Reverdict(row)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(row)
	b, _ := json.Marshal(same)
	if string(a) != string(b) {
		t.Fatalf("against the same table the row changed:\n%s\n%s", a, b)
	}
	// An unknown deal the heuristic won, decided as won by a newer table.
	k := -1
	for i, v := range g.Verdicts {
		if v == deals.Unknown && row.Outcomes[i] == 'W' {
			k = i
			break
		}
	}
	if k < 0 {
		t.Skip("the heuristic won no unknown deal among the first 200")
	}
	g.Verdicts = slices.Clone(g.Verdicts)
	g.Verdicts[k] = deals.Won
	newer, err := g.Reverdict(row)
	if err != nil {
		t.Fatal(err)
	}
	if newer.Winnable != row.Winnable+1 || newer.WinsWinnable != row.WinsWinnable+1 || newer.WinsUnknown != row.WinsUnknown-1 ||
		newer.Table.Won != row.Table.Won+1 || newer.Table.Unknown != row.Table.Unknown-1 || newer.Wins != row.Wins || newer.Outcomes != row.Outcomes {
		t.Errorf("after deciding deal %d: %+v\nbefore: %+v", k, newer, row)
	}
	other := row
	other.Game = "ladder"
	if _, err := g.Reverdict(other); err == nil {
		t.Error("a row of another game was taken")
	}
}
