package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/deals"
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/internal/atomicfile"
	"github.com/patience-gym/patience/internal/runner"
	"github.com/patience-gym/patience/stats"
)

// Protocol is a fixed way of measuring an agent, so that two results made
// under it, on any machine, with `patience bench --protocol` or
// patience_gym.evaluate, measure the same thing: the deals, the step
// limits, how the agent is seeded and the level of the intervals are the
// protocol's, not the caller's.
type Protocol struct {
	// Version names the protocol ("v1").
	Version string
	// Block names the block of each game's verdict table whose deals are
	// played (every deal of it, in order).
	Block string
	// Confidence is the level of every interval.
	Confidence float64
}

// V1 is evaluation protocol v1. For each game (default rules), the agent
// plays the 1,000 deals of the evaluation block of the game's shipped
// verdict table, deals 1,000,000 to 1,000,999, one episode each, at the
// game's own step limit (env.Spec.MaxSteps), seeded with the deal number
// (Agent.Reset(deal)). It reports, with 95 % intervals: the wins with a
// Wilson interval; the wins among the deals the table says won (the
// solver's verdict at the table's budget; deals it left unknown are left
// out of this share and their wins counted apart, and a win on a deal the
// table proves lost is reported as an error of the table); the mean final
// progress (cards placed over the game's cards) with a Student t
// interval; and the mean wall time of a game.
var V1 = Protocol{Version: "v1", Block: "eval", Confidence: 0.95}

// Protocols lists the protocols by version.
var Protocols = []Protocol{V1}

// ErrNoProtocol is returned (wrapped) for an unknown protocol version.
var ErrNoProtocol = errors.New("no such evaluation protocol")

// LookupProtocol returns the protocol of a version ("v1").
func LookupProtocol(version string) (Protocol, error) {
	for _, p := range Protocols {
		if strings.EqualFold(strings.TrimSpace(version), p.Version) {
			return p, nil
		}
	}
	var have []string
	for _, p := range Protocols {
		have = append(have, p.Version)
	}
	return Protocol{}, fmt.Errorf("%w %q (the protocols are: %s)", ErrNoProtocol, version, strings.Join(have, ", "))
}

// ProtocolGame is what a protocol fixes for one game.
type ProtocolGame struct {
	Protocol Protocol
	Spec     *env.Spec
	// Table is the game's shipped verdict table.
	Table *deals.Table
	// Block is the table's block of deals played: deals Block.First to
	// Block.First+Block.Count-1.
	Block deals.Block
	// MaxSteps is the step limit of every episode.
	MaxSteps int
	// Verdicts holds the table's verdict of each deal of the block, in
	// order.
	Verdicts []deals.Verdict
}

// Game returns what the protocol fixes for a game. It is an error when
// the game is a rule variant, or when no verdict table ships for it (the
// table's verdicts are part of the protocol's figures).
func (p Protocol) Game(spec *env.Spec) (*ProtocolGame, error) {
	t, err := deals.Shipped(spec.ID())
	if err != nil {
		return nil, fmt.Errorf("protocol %s needs the verdict table of %s: %w", p.Version, spec.ID(), err)
	}
	var block deals.Block
	for _, b := range t.Meta.Blocks {
		if b.Name == p.Block {
			block = b
		}
	}
	if block.Count == 0 {
		return nil, fmt.Errorf("protocol %s: the %s table has no %q block", p.Version, spec.ID(), p.Block)
	}
	g := &ProtocolGame{Protocol: p, Spec: spec, Table: t, Block: block, MaxSteps: spec.MaxSteps}
	for k := range block.Count {
		d, ok := t.Deal(block.First + uint64(k))
		if !ok {
			return nil, fmt.Errorf("protocol %s: the %s table lacks deal %d", p.Version, spec.ID(), block.First+uint64(k))
		}
		g.Verdicts = append(g.Verdicts, d.Verdict)
	}
	return g, nil
}

// ProtocolGames returns the games a protocol can measure: those whose
// verdict table ships, in env.Specs order.
func ProtocolGames() []*env.Spec {
	var out []*env.Spec
	for _, spec := range env.Specs() {
		if _, err := deals.Shipped(spec.ID()); err == nil {
			out = append(out, spec)
		}
	}
	return out
}

// DeadDeal is a deal with no legal move at the start: every agent loses
// it at step 0 with the progress it was dealt with.
type DeadDeal struct {
	Deal     uint64 `json:"deal"`
	Progress int    `json:"progress"`
}

// Dead returns the deals of the block with no legal move at the start. A
// caller that deals through an environment that skips such deals
// (patience_gym's) records these as lost at step 0.
func (g *ProtocolGame) Dead() ([]DeadDeal, error) {
	e, err := env.Make(g.Spec.ID(), env.Options{})
	if err != nil {
		return nil, err
	}
	var out []DeadDeal
	for k := range g.Block.Count {
		s := g.Block.First + uint64(k)
		e.Reset(s)
		if e.Done() && e.Outcome() != env.Won {
			out = append(out, DeadDeal{Deal: s, Progress: e.Progress()})
		}
	}
	return out, nil
}

// DealRange is a block of deals as a result records it.
type DealRange struct {
	Block string `json:"block"`
	First uint64 `json:"first"`
	Count int    `json:"count"`
}

// TableSummary is what a result records of the verdict table.
type TableSummary struct {
	// Won, Lost and Unknown count the block's deals by verdict.
	Won     int `json:"won"`
	Lost    int `json:"lost"`
	Unknown int `json:"unknown"`
	// Nodes is the solver's budget per deal; Worlds and WorldNodes the
	// determinized worlds (hidden games).
	Nodes      int64 `json:"nodes"`
	Worlds     int   `json:"worlds"`
	WorldNodes int64 `json:"world_nodes"`
	// Clairvoyant: the verdicts are the clairvoyant solver's (hidden
	// games).
	Clairvoyant bool `json:"clairvoyant"`
}

// ProtocolRow is one agent's result on one game under a protocol: the
// objects of a result file's "results". Fractions are in [0, 1];
// undefined numbers are null.
type ProtocolRow struct {
	Game         string       `json:"game"`
	Title        string       `json:"title"`
	RulesVersion int          `json:"rules_version"`
	Hidden       bool         `json:"hidden"`
	Deals        DealRange    `json:"deals"`
	MaxSteps     int          `json:"max_steps"`
	AgentSeed    string       `json:"agent_seed"`
	Table        TableSummary `json:"table"`
	// Agent is the agent's label and Settings its settings as it reports
	// them.
	Agent    string `json:"agent"`
	Settings string `json:"settings"`
	// Clairvoyant: the agent reads hidden cards; Ceiling: it does in a
	// game that has them, so its figures bound the fair agents'.
	Clairvoyant bool `json:"clairvoyant"`
	Ceiling     bool `json:"ceiling"`

	Games   int    `json:"games"`
	Wins    int    `json:"wins"`
	WinRate jfloat `json:"win_rate"`
	WinLo   jfloat `json:"win_lo"`
	WinHi   jfloat `json:"win_hi"`
	// Winnable is the number of deals the table says won, WinsWinnable the
	// agent's wins among them, with their share and its Wilson interval.
	Winnable     int    `json:"winnable"`
	WinsWinnable int    `json:"wins_winnable"`
	WinnableRate jfloat `json:"winnable_rate"`
	WinnableLo   jfloat `json:"winnable_lo"`
	WinnableHi   jfloat `json:"winnable_hi"`
	// WinsUnknown counts wins on deals the table left unknown (they are
	// winnable, but not in the winnable share); WinsLost wins on deals the
	// table says lost, which must be 0 (one would disprove the table).
	WinsUnknown int `json:"wins_unknown"`
	WinsLost    int `json:"wins_lost"`

	ProgressMean jfloat `json:"progress_mean"`
	ProgressLo   jfloat `json:"progress_lo"`
	ProgressHi   jfloat `json:"progress_hi"`
	ProgressSD   jfloat `json:"progress_sd"`
	MeanSteps    jfloat `json:"mean_steps"`
	Truncated    int    `json:"truncated"`
	MsPerGame    jfloat `json:"ms_per_game"`

	// Outcomes has one letter per deal, in deal order: W won, L lost, T
	// truncated; Progress the cards placed at the end of each.
	Outcomes string `json:"outcomes"`
	Progress []int  `json:"progress"`
}

// Row computes the result of an agent's episodes on the protocol's deals,
// one episode per deal in deal order (as Run returns them). clairvoyant
// says whether the agent reads hidden cards.
func (g *ProtocolGame) Row(agent, settings string, clairvoyant bool, eps []Episode) (ProtocolRow, error) {
	if len(eps) != g.Block.Count {
		return ProtocolRow{}, fmt.Errorf("protocol %s, %s: %d episodes for %d deals", g.Protocol.Version, g.Spec.ID(), len(eps), g.Block.Count)
	}
	t := g.Table.Meta
	var c deals.Counts
	for _, v := range g.Verdicts {
		switch v {
		case deals.Won:
			c.Won++
		case deals.Lost:
			c.Lost++
		default:
			c.Unknown++
		}
	}
	r := ProtocolRow{
		Game: g.Spec.ID(), Title: g.Spec.Title, RulesVersion: g.Spec.RulesVersion, Hidden: g.Spec.Hidden,
		Deals:    DealRange{Block: g.Block.Name, First: g.Block.First, Count: g.Block.Count},
		MaxSteps: g.MaxSteps, AgentSeed: "deal",
		Table: TableSummary{Won: c.Won, Lost: c.Lost, Unknown: c.Unknown, Nodes: t.Settings.Nodes,
			Worlds: t.Settings.Worlds, WorldNodes: t.Settings.WorldNodes, Clairvoyant: t.Clairvoyant},
		Agent: agent, Settings: settings, Clairvoyant: clairvoyant, Ceiling: clairvoyant && g.Spec.Hidden,
		Games: len(eps), Winnable: c.Won, Progress: make([]int, len(eps)),
	}
	var out strings.Builder
	frac := make([]float64, len(eps))
	var steps, wall float64
	for i, e := range eps {
		if want := g.Block.First + uint64(i); e.Seed != want {
			return ProtocolRow{}, fmt.Errorf("protocol %s, %s: episode %d is of deal %d, not %d", g.Protocol.Version, g.Spec.ID(), i, e.Seed, want)
		}
		if e.Cards != g.Spec.Cards {
			return ProtocolRow{}, fmt.Errorf("protocol %s, %s: deal %d counts %d cards, not %d", g.Protocol.Version, g.Spec.ID(), e.Seed, e.Cards, g.Spec.Cards)
		}
		switch {
		case e.Won:
			out.WriteByte('W')
			r.Wins++
			switch g.Verdicts[i] {
			case deals.Won:
				r.WinsWinnable++
			case deals.Lost:
				r.WinsLost++
			default:
				r.WinsUnknown++
			}
		case e.Truncated:
			out.WriteByte('T')
			r.Truncated++
		default:
			out.WriteByte('L')
		}
		r.Progress[i] = e.Progress
		frac[i] = e.Fraction()
		steps += float64(e.Steps)
		wall += float64(e.Wall) / float64(time.Millisecond)
	}
	r.Outcomes = out.String()
	conf := g.Protocol.Confidence
	w := stats.Wilson(r.Wins, r.Games, conf)
	r.WinRate, r.WinLo, r.WinHi = jfloat(w.P), jfloat(w.CI.Lo), jfloat(w.CI.Hi)
	ww := stats.Wilson(r.WinsWinnable, r.Winnable, conf)
	r.WinnableRate, r.WinnableLo, r.WinnableHi = jfloat(ww.P), jfloat(ww.CI.Lo), jfloat(ww.CI.Hi)
	if r.Winnable == 0 {
		r.WinnableLo, r.WinnableHi = jfloat(math.NaN()), jfloat(math.NaN())
	}
	m := stats.MeanCI(frac, conf)
	m.CI = m.CI.Clamp(0, 1)
	r.ProgressMean, r.ProgressLo, r.ProgressHi, r.ProgressSD = jfloat(m.Mean), jfloat(m.CI.Lo), jfloat(m.CI.Hi), jfloat(m.SD)
	r.MeanSteps = jfloat(steps / float64(len(eps)))
	r.MsPerGame = jfloat(wall / float64(len(eps)))
	return r, nil
}

// Reverdict returns r, a row of an earlier result of this game, with what
// it says of the verdict table (its counts, the winnable deals, the wins
// among them, on unknown deals and on lost ones) taken again from this
// build's table; the episodes' outcomes stay as they were played. A
// table's decided verdicts never change (docs/stability.md), but a
// stronger solver decides deals an earlier one left open, so the wins
// among the winnable deals of a row made before are counted again against
// the newer table. The row must be of the same game, rules and deals.
func (g *ProtocolGame) Reverdict(r ProtocolRow) (ProtocolRow, error) {
	switch {
	case r.Game != g.Spec.ID() || r.RulesVersion != g.Spec.RulesVersion:
		return r, fmt.Errorf("protocol %s: a row of %s rules v%d, not %s v%d", g.Protocol.Version, r.Game, r.RulesVersion, g.Spec.ID(), g.Spec.RulesVersion)
	case r.Deals.First != g.Block.First || r.Deals.Count != g.Block.Count || len(r.Outcomes) != g.Block.Count:
		return r, fmt.Errorf("protocol %s, %s: the row holds %d outcomes of deals %d.., not the block's %d from %d",
			g.Protocol.Version, r.Game, len(r.Outcomes), r.Deals.First, g.Block.Count, g.Block.First)
	}
	t := g.Table.Meta
	var c deals.Counts
	r.WinsWinnable, r.WinsLost, r.WinsUnknown = 0, 0, 0
	for i, v := range g.Verdicts {
		won := r.Outcomes[i] == 'W'
		switch v {
		case deals.Won:
			c.Won++
			if won {
				r.WinsWinnable++
			}
		case deals.Lost:
			c.Lost++
			if won {
				r.WinsLost++
			}
		default:
			c.Unknown++
			if won {
				r.WinsUnknown++
			}
		}
	}
	r.Table = TableSummary{Won: c.Won, Lost: c.Lost, Unknown: c.Unknown, Nodes: t.Settings.Nodes,
		Worlds: t.Settings.Worlds, WorldNodes: t.Settings.WorldNodes, Clairvoyant: t.Clairvoyant}
	r.Winnable = c.Won
	ww := stats.Wilson(r.WinsWinnable, r.Winnable, g.Protocol.Confidence)
	r.WinnableRate, r.WinnableLo, r.WinnableHi = jfloat(ww.P), jfloat(ww.CI.Lo), jfloat(ww.CI.Hi)
	if r.Winnable == 0 {
		r.WinnableLo, r.WinnableHi = jfloat(math.NaN()), jfloat(math.NaN())
	}
	return r, nil
}

// Build is the build of patience that made a result.
type Build struct {
	// Version is the module's version ("(devel)" for a build from a
	// clone), Commit the VCS revision the binary was built from ("" when
	// unknown) and Modified whether the work tree had changes.
	Version  string `json:"version"`
	Commit   string `json:"commit"`
	Modified bool   `json:"modified"`
}

// ThisBuild returns the build of the running binary, from its build
// information.
func ThisBuild() Build {
	var b Build
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return b
	}
	b.Version = info.Main.Version
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Commit = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		}
	}
	return b
}

// Machine describes the machine a result was measured on.
type Machine struct {
	OS    string `json:"os"`
	Arch  string `json:"arch"`
	CPU   string `json:"cpu"`
	Cores int    `json:"cores"`
	// Go is the Go version of the core; Python the Python version of a
	// result made from Python (absent otherwise).
	Go     string `json:"go"`
	Python string `json:"python,omitempty"`
}

// ThisMachine describes the running machine.
func ThisMachine() Machine {
	return Machine{OS: runtime.GOOS, Arch: runtime.GOARCH, CPU: cpuModel(), Cores: runtime.NumCPU(), Go: runtime.Version()}
}

// cpuModel returns the processor's model name as /proc/cpuinfo gives it,
// or "" where there is none.
func cpuModel() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(data), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// ProtocolResult is a protocol's result file: what was measured, how, by
// which build on which machine, and one row per game and agent.
type ProtocolResult struct {
	Protocol string `json:"protocol"`
	// Runner is "patience bench" or "patience_gym.evaluate"; Command the
	// command line or call that made the result.
	Runner  string `json:"runner"`
	Command string `json:"command"`
	// Date is when the result was written (UTC, RFC 3339).
	Date       string  `json:"date"`
	Patience   Build   `json:"patience"`
	Machine    Machine `json:"machine"`
	Workers    int     `json:"workers"`
	Confidence float64 `json:"confidence"`
	// ElapsedS is the wall time of the run (of the last one, for a run
	// resumed from a journal).
	ElapsedS float64 `json:"elapsed_s"`
	// Reverdicted, when set, says when and by which build the rows'
	// verdict-table columns were taken again from a newer table
	// (ProtocolGame.Reverdict); the episodes are those played by the run
	// Command names.
	Reverdicted string `json:"reverdicted,omitempty"`
	// Shard is "i/n" for a run of one shard (ProtocolConfig.Shard), which
	// has no rows: its episodes are in its journal, for the run of the
	// whole to merge. It is never written to a result file.
	Shard   string        `json:"-"`
	Results []ProtocolRow `json:"results"`
}

// WriteJSON writes the result: the fields one a line, then each row of
// "results" on a line of its own (its per-deal lists stay on one line).
func (r *ProtocolResult) WriteJSON(w io.Writer) error {
	head := *r
	head.Results = nil
	b, err := json.MarshalIndent(head, "", "  ")
	if err != nil {
		return fmt.Errorf("writing the protocol result: %w", err)
	}
	s := strings.TrimSuffix(strings.TrimSpace(string(b)), "}")
	s = strings.TrimSuffix(strings.TrimRight(s, " \n"), `"results": null`)
	var sb strings.Builder
	sb.WriteString(s)
	sb.WriteString("\"results\": [\n")
	for i, row := range r.Results {
		line, err := json.Marshal(row)
		if err != nil {
			return fmt.Errorf("writing the protocol result: %w", err)
		}
		sb.WriteString("    ")
		sb.Write(line)
		if i < len(r.Results)-1 {
			sb.WriteByte(',')
		}
		sb.WriteByte('\n')
	}
	sb.WriteString("  ]\n}\n")
	_, err = io.WriteString(w, sb.String())
	return err
}

// SaveJSON writes the result to path, whole or not at all.
func (r *ProtocolResult) SaveJSON(path string) error {
	return atomicfile.Write(path, r.WriteJSON)
}

// ReadProtocolJSON reads a result file.
func ReadProtocolJSON(rd io.Reader) (*ProtocolResult, error) {
	var r ProtocolResult
	dec := json.NewDecoder(rd)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("reading a protocol result: %w", err)
	}
	if _, err := LookupProtocol(r.Protocol); err != nil {
		return nil, fmt.Errorf("reading a protocol result: %w", err)
	}
	return &r, nil
}

// WriteMarkdown writes one table per game: each agent's wins, wins among
// the winnable deals, wins on unknown deals, progress, steps and time.
func (r *ProtocolResult) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	lv := level(r.Confidence)
	last := ""
	for _, row := range r.Results {
		if row.Game != last {
			last = row.Game
			t := row.Table
			fmt.Fprintf(&b, "\n### %s (`%s`), protocol %s\n\n", row.Title, row.Game, r.Protocol)
			fmt.Fprintf(&b, "Deals %d to %d (the %s block), step limit %d, each agent seeded with the deal number. The table (solver at %s nodes%s): %d won, %d lost, %d unknown.\n\n",
				row.Deals.First, row.Deals.First+uint64(row.Deals.Count-1), row.Deals.Block, row.MaxSteps,
				humanCount(t.Nodes), clairvoyantNote(t.Clairvoyant), t.Won, t.Lost, t.Unknown)
			fmt.Fprintf(&b, "| agent | wins | win %% [%s CI] | wins among winnable %% [%s CI] | wins on unknown | progress %% [%s CI] | steps | truncated | ms/game |\n", lv, lv, lv)
			b.WriteString("|---|--:|--:|--:|--:|--:|--:|--:|--:|\n")
		}
		name := row.Agent
		if row.Ceiling {
			name += " (ceiling: sees the hidden cards)"
		}
		winnable := "—"
		if row.Winnable > 0 {
			winnable = fmt.Sprintf("%d/%d = %s", row.WinsWinnable, row.Winnable, pctCI(float64(row.WinnableRate), stats.Interval{Lo: float64(row.WinnableLo), Hi: float64(row.WinnableHi)}))
		}
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %d | %s | %.1f | %d | %s |\n", name, row.Wins,
			pctCI(float64(row.WinRate), stats.Interval{Lo: float64(row.WinLo), Hi: float64(row.WinHi)}), winnable, row.WinsUnknown,
			pctCI(float64(row.ProgressMean), stats.Interval{Lo: float64(row.ProgressLo), Hi: float64(row.ProgressHi)}),
			float64(row.MeanSteps), row.Truncated, formatMs(float64(row.MsPerGame)))
		if row.WinsLost > 0 {
			fmt.Fprintf(&b, "\n**%s won %d deals the table says lost: the table is wrong, please report it.**\n\n", row.Agent, row.WinsLost)
		}
	}
	_, err := io.WriteString(w, strings.TrimPrefix(b.String(), "\n"))
	return err
}

func clairvoyantNote(c bool) string {
	if c {
		return ", clairvoyant"
	}
	return ""
}

// humanCount writes 300000 as "300k" and 1000000 as "1M".
func humanCount(n int64) string {
	switch {
	case n >= 1_000_000 && n%1_000_000 == 0:
		return fmt.Sprintf("%dM", n/1_000_000)
	case n >= 1000 && n%1000 == 0:
		return fmt.Sprintf("%dk", n/1000)
	}
	return fmt.Sprint(n)
}

// ProtocolConfig says what to measure under a protocol.
type ProtocolConfig struct {
	Protocol Protocol
	// Games are the games (default rules, each with a shipped table); empty
	// means ProtocolGames().
	Games []*env.Spec
	// Agents are the agents, as in Config; empty means DefaultAgents.
	Agents []*agents.Factory
	// Workers is the number of episodes played at once (0: GOMAXPROCS);
	// it changes only the times.
	Workers int
	// Journal, when not "", is a file each episode is added to as it
	// finishes; a run with the same journal skips the episodes it holds
	// (of the same game, rules version, agent and settings), so an
	// interrupted run goes on where it stopped. Its name should end in
	// ".journal.jsonl" (the shards' journals are named after it; see
	// Shard).
	Journal string
	// Shard and Shards select one machine's share of the episodes when
	// several machines split a run (Shards 0 or 1: the whole run): shard
	// i of n plays the deals of every n-th chunk of ShardChunk deals, into
	// its own journal, STEM.shard-I-of-N.journal.jsonl for a Journal
	// STEM.journal.jsonl, and returns a result with no rows (Shard set).
	// A run of the whole with the same Journal then takes every shard's
	// episodes from their journals, plays what none of them did, and
	// returns the result (the merge).
	Shard, Shards int
	// Progress, if not nil, is called after each episode with the number
	// done (of all games) and the total.
	Progress func(done, total int)
	// Runner and Command are recorded in the result.
	Runner, Command string

	// deals, when positive, plays only the first deals of the block
	// (tests).
	deals int
}

// ShardChunk is the number of consecutive deals a protocol shard takes at
// a time: shard i of n takes chunks i, i+n, i+2n, ... of each game's
// block, so every shard gets a share of the slow deals and the quick.
const ShardChunk = 50

// protocolJournalExt is the ending of a protocol journal's name.
const protocolJournalExt = ".journal.jsonl"

// RemoveJournals removes a finished run's journal and its shards'
// journals: the result file holds what they held. A file already gone is
// no error.
func RemoveJournals(journal string) error {
	others := runner.ShardGlob(strings.TrimSuffix(journal, protocolJournalExt), protocolJournalExt)
	if err := runner.RemoveJournals(journal, others); err != nil {
		return fmt.Errorf("removing the finished run's journal: %w", err)
	}
	return nil
}

// ShardJournal returns the journal of shard (i of n) of a run whose
// whole journal is journal: STEM.shard-I-of-N.journal.jsonl for
// STEM.journal.jsonl (see ProtocolConfig.Shard); journal itself for the
// whole run.
func ShardJournal(journal string, i, n int) string {
	return runner.ShardPath(strings.TrimSuffix(journal, protocolJournalExt), protocolJournalExt, runner.Shard{Index: i, Count: n})
}

// journalHead is the first line of a protocol journal.
type journalHead struct {
	Journal  int    `json:"patience_protocol_journal"`
	Protocol string `json:"protocol"`
}

// journalLine is one episode of a protocol journal.
type journalLine struct {
	Episode
	Rules    int    `json:"rules_version"`
	Settings string `json:"settings"`
}

// maxBlock bounds a protocol block's deals, for the journal's unit numbers.
const maxBlock = 1 << 24

// RunProtocol measures the agents on the games under the protocol, game by
// game, and returns the result; for a shard (cfg.Shard), it plays the
// shard's episodes into the shard's journal and returns a result with no
// rows.
func RunProtocol(ctx context.Context, cfg ProtocolConfig) (*ProtocolResult, error) {
	p := cfg.Protocol
	if p.Version == "" {
		return nil, errors.New("bench: no protocol given")
	}
	if len(cfg.Games) == 0 {
		if cfg.Games = ProtocolGames(); len(cfg.Games) == 0 {
			return nil, fmt.Errorf("bench: protocol %s: no verdict table ships in this build", p.Version)
		}
	}
	if len(cfg.Agents) == 0 {
		for _, s := range DefaultAgents {
			f, err := agents.Parse(s)
			if err != nil {
				return nil, err
			}
			cfg.Agents = append(cfg.Agents, f)
		}
	}
	var games []*ProtocolGame
	total := 0
	for _, spec := range cfg.Games {
		if spec.Variant != "" {
			return nil, fmt.Errorf("bench: protocol %s measures the games' default rules, not the %s variant", p.Version, spec.ID())
		}
		g, err := p.Game(spec)
		if err != nil {
			return nil, fmt.Errorf("bench: %w", err)
		}
		if cfg.deals > 0 {
			g.Block.Count = min(g.Block.Count, cfg.deals)
			g.Verdicts = g.Verdicts[:g.Block.Count]
		}
		games = append(games, g)
		total += g.Block.Count * len(cfg.Agents)
	}
	settings := map[string]string{}
	clair := map[string]bool{}
	for _, f := range cfg.Agents {
		a := f.New()
		settings[f.Label()] = a.Settings()
		clair[f.Label()] = agents.IsClairvoyant(a)
	}

	shard := runner.Shard{Index: cfg.Shard, Count: cfg.Shards}
	if err := shard.Check(); err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	if !shard.Whole() && cfg.Journal == "" {
		return nil, errors.New("bench: a shard of a protocol run needs a journal, which the run of the whole merges")
	}

	// The journal: the episodes it holds (and, in a run of the whole,
	// those of the shards' journals), by game, agent and deal, each a
	// unit numbered game by game, agent by agent, deal by deal.
	gameIndex, agentIndex := map[string]int{}, map[string]int{}
	for i, g := range games {
		gameIndex[g.Spec.ID()] = i
	}
	for i, f := range cfg.Agents {
		agentIndex[f.Label()] = i
	}
	unit := func(game, agent string, seed uint64) (int, bool) {
		gi, ok1 := gameIndex[game]
		ai, ok2 := agentIndex[agent]
		if !ok1 || !ok2 {
			return 0, false
		}
		b := games[gi].Block
		if seed < b.First || seed-b.First >= uint64(b.Count) {
			return 0, false
		}
		return (gi*len(cfg.Agents)+ai)*maxBlock + int(seed-b.First), true
	}
	var jr *runner.Journal[journalLine]
	if cfg.Journal != "" {
		path, others := cfg.Journal, ""
		if shard.Whole() {
			others = runner.ShardGlob(strings.TrimSuffix(cfg.Journal, protocolJournalExt), protocolJournalExt)
		} else {
			path = ShardJournal(cfg.Journal, shard.Index, shard.Count)
		}
		if dir := filepath.Dir(path); dir != "" {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return nil, fmt.Errorf("bench: the journal's directory: %w", err)
			}
		}
		var err error
		jr, err = runner.OpenJournal(path, journalHead{Journal: 1, Protocol: p.Version}, others, func(jl journalLine) (int, bool) {
			gi, ok := gameIndex[jl.Game]
			if !ok || games[gi].Spec.RulesVersion != jl.Rules || settings[jl.Agent] != jl.Settings {
				return 0, false
			}
			if _, ok := settings[jl.Agent]; !ok {
				return 0, false
			}
			return unit(jl.Game, jl.Agent, jl.Seed)
		})
		if err != nil {
			return nil, fmt.Errorf("bench: %w", err)
		}
		defer jr.Close()
	}

	res := &ProtocolResult{
		Protocol: p.Version, Runner: cfg.Runner, Command: cfg.Command,
		Patience: ThisBuild(), Machine: ThisMachine(), Confidence: p.Confidence,
	}
	start := time.Now()
	before := 0
	for _, g := range games {
		rc := Config{
			Games: []*env.Spec{g.Spec}, Agents: cfg.Agents, Deals: g.Block.Count, SeedStart: g.Block.First,
			Workers: cfg.Workers, MaxSteps: g.MaxSteps, Confidence: p.Confidence,
			shard: shard, shardChunk: ShardChunk,
		}
		if jr != nil {
			rc.Played = func(game, agent string, seed uint64) (Episode, bool) {
				u, ok := unit(game, agent, seed)
				if !ok {
					return Episode{}, false
				}
				jl, ok := jr.Held(u)
				return jl.Episode, ok
			}
		}
		if cfg.Progress != nil {
			base := before
			rc.Progress = func(done, _ int) { cfg.Progress(base+done, total) }
		}
		if jr != nil {
			rules := g.Spec.RulesVersion
			rc.OnEpisode = func(ep Episode) error {
				return jr.Add(journalLine{Episode: ep, Rules: rules, Settings: settings[ep.Agent]})
			}
		}
		run, err := Run(ctx, rc)
		if err != nil {
			return nil, err
		}
		res.Workers = max(res.Workers, run.Workers)
		before += g.Block.Count * len(cfg.Agents)
		if !shard.Whole() {
			continue // a shard's episodes are in its journal
		}
		for _, a := range run.Agents {
			row, err := g.Row(a, settings[a], clair[a], run.EpisodesOf(g.Spec.ID(), a))
			if err != nil {
				return nil, fmt.Errorf("bench: %w", err)
			}
			res.Results = append(res.Results, row)
		}
	}
	res.Shard = shard.String()
	res.ElapsedS = math.Round(time.Since(start).Seconds()*10) / 10
	res.Date = time.Now().UTC().Format(time.RFC3339)
	return res, nil
}
