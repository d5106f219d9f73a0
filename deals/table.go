// Package deals holds the deals' verdict tables: for each game, what the
// solver decided about a fixed block of deals (won, lost or unknown at a
// node budget), with the effort it took, the length of the winning line,
// how the heuristic and Monte Carlo agents did on the deal, and a
// difficulty score. The tables ship inside the binary (Shipped) as one
// Parquet file per game, which pandas and pyarrow read directly; Build
// regenerates them, sharded and resumable.
//
// A table answers the questions players and researchers ask: which deals
// can be won (Table.Select), how hard each is, and, on the evaluation block,
// what share of the deals any agent could win at most.
//
// # Verdicts
//
// Won: the solver found a winning line, replayed through an env.Env before
// it was recorded. Lost: the solver searched every position reachable from
// the start (or the game's dead test proved the start lost) and found no
// win: a proof, for the rules version of the table. Unknown: the node
// budget ran out first.
//
// In the games with hidden cards (Limited, Ladder, Royal Parade, Four
// Quarters) the verdict is clairvoyant: the solver sees the order of the
// hidden cards, so "won" means that a player who guessed every hidden card
// right could win, not that a player can be sure to. For those games a
// table also holds the share of determinized worlds that can be won: the
// start is dealt again several times with the hidden cards reshuffled among
// their places (a world consistent with everything a player sees), and each
// world is solved at a small budget. That share says how often the cards a
// player sees leave a win open.
package deals

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
)

// FormatVersion is the version of the table format (columns and metadata).
// A reader refuses a table of another version.
const FormatVersion = 1

// Verdict is the solver's verdict on a deal.
type Verdict uint8

// The verdicts.
const (
	// Unknown: the budget ran out before the solver decided.
	Unknown Verdict = iota
	// Won: the solver won the deal with a line it verified.
	Won
	// Lost: the solver proved that no line wins the deal.
	Lost
)

var verdictNames = [...]string{"unknown", "won", "lost"}

// String returns "unknown", "won" or "lost", as the table stores it.
func (v Verdict) String() string {
	if int(v) < len(verdictNames) {
		return verdictNames[v]
	}
	return fmt.Sprintf("verdict(%d)", v)
}

// ParseVerdict reads "won", "lost" or "unknown".
func ParseVerdict(s string) (Verdict, error) {
	for i, n := range verdictNames {
		if strings.EqualFold(strings.TrimSpace(s), n) {
			return Verdict(i), nil
		}
	}
	return 0, fmt.Errorf("unknown verdict %q: want won, lost or unknown", s)
}

// Difficulty is a difficulty class of a won deal: the third of the game's
// won deals its score falls in.
type Difficulty uint8

// The difficulty classes. Only won deals have one.
const (
	// Unrated: a deal the solver did not win.
	Unrated Difficulty = iota
	// Easy: the third of the won deals with the lowest scores.
	Easy
	// Medium: the middle third.
	Medium
	// Hard: the third with the highest scores.
	Hard
)

var difficultyNames = [...]string{"", "easy", "medium", "hard"}

// String returns "easy", "medium", "hard", or "" for Unrated.
func (d Difficulty) String() string {
	if int(d) < len(difficultyNames) {
		return difficultyNames[d]
	}
	return fmt.Sprintf("difficulty(%d)", d)
}

// ParseDifficulty reads "easy", "medium" or "hard".
func ParseDifficulty(s string) (Difficulty, error) {
	for i, n := range difficultyNames[1:] {
		if strings.EqualFold(strings.TrimSpace(s), n) {
			return Difficulty(i + 1), nil
		}
	}
	return 0, fmt.Errorf("unknown difficulty %q: want easy, medium or hard", s)
}

// Play is how an agent did on a deal, the agent seeded with the deal
// number and playing to the game's step limit.
type Play struct {
	// Played is false when the agent did not play the deal (mc plays only
	// the blocks that ask for it).
	Played bool
	// Won reports a win.
	Won bool
	// Progress is the number of cards placed at the end.
	Progress int
}

// Worlds sums up the determinized worlds of a deal of a game with hidden
// cards: the start dealt again with the hidden cards reshuffled, each world
// solved at Settings.WorldNodes. Tried is 0 in games without hidden cards.
type Worlds struct {
	Tried int `json:"tried"`
	Won   int `json:"won"`
	Lost  int `json:"lost"`
}

// Share returns the share of the worlds tried that the solver won (NaN
// when none was tried).
func (w Worlds) Share() float64 {
	if w.Tried == 0 {
		return math.NaN()
	}
	return float64(w.Won) / float64(w.Tried)
}

// Deal is one deal of a table.
type Deal struct {
	// Seed is the deal number.
	Seed uint64
	// Block names the block of deals it belongs to ("train", "eval").
	Block string
	// Verdict is the solver's verdict at the table's budget (or, for a
	// deal of Meta.Kept or Meta.Folded, that of the search that decided
	// it; for a deal of Meta.WonInPlay, Won because an agent won it).
	Verdict Verdict
	// Nodes is the number of positions the solver expanded.
	Nodes int64
	// LineLength is the number of moves (actions) of the winning line, 0
	// unless Won (and for a deal of Meta.WonInPlay, whose line is the
	// agent's game, not recorded).
	LineLength int
	// BestProgress is the most cards placed in any position the solver
	// expanded (the total for a won deal).
	BestProgress int
	// DeadAtStart reports a lost deal proved lost by the game's dead test
	// at the start, before any search.
	DeadAtStart bool
	// Heuristic and MC are how those agents did on the deal.
	Heuristic, MC Play
	// Worlds sums up the determinized worlds (hidden games).
	Worlds Worlds
	// Score is the difficulty score of a won deal, from 0 (easiest) to 1
	// (hardest); NaN for other deals. See Score.
	Score float64
	// Difficulty is the class of Score.
	Difficulty Difficulty
}

// Block is a run of consecutive deals of a table.
type Block struct {
	// Name names the block: "train" for the training block, "eval" for the
	// evaluation block.
	Name string `json:"name"`
	// First is the first deal number and Count the number of deals.
	First uint64 `json:"first"`
	Count int    `json:"count"`
	// MC says whether the mc agent plays the block's deals.
	MC bool `json:"mc"`
}

// Contains reports whether deal seed is in the block.
func (b Block) Contains(seed uint64) bool {
	return seed >= b.First && seed-b.First < uint64(b.Count)
}

// Settings are the budgets and agents a table was made with.
type Settings struct {
	// Nodes is the solver's node budget per deal.
	Nodes int64 `json:"nodes"`
	// TableBits is the size of the solver's transposition table (2^bits
	// entries).
	TableBits int `json:"table_bits"`
	// Worlds is the number of determinized worlds solved per deal (games
	// with hidden cards; 0 otherwise) and WorldNodes the budget of each.
	Worlds     int   `json:"worlds"`
	WorldNodes int64 `json:"world_nodes"`
	// Heuristic and MC are the agents, as agents.Parse reads them.
	Heuristic string `json:"heuristic"`
	MC        string `json:"mc"`
}

// Counts counts deals by verdict.
type Counts struct {
	Won     int `json:"won"`
	Lost    int `json:"lost"`
	Unknown int `json:"unknown"`
}

// Meta describes a table; it is stored in the Parquet file's key-value
// metadata under MetaKey, as JSON.
type Meta struct {
	// Format is FormatVersion.
	Format int `json:"format"`
	// Game is the game's name and Title its name for people.
	Game  string `json:"game"`
	Title string `json:"title"`
	// RulesVersion is the game's rules version (env.Spec.RulesVersion) the
	// verdicts hold for.
	RulesVersion int `json:"rules_version"`
	// Clairvoyant is set for games with hidden cards: the solver saw them.
	Clairvoyant bool `json:"clairvoyant"`
	// Cards is the number of cards progress counts towards.
	Cards int `json:"cards"`
	// Blocks are the blocks of deals, in the table's order.
	Blocks []Block `json:"blocks"`
	// Settings are the budgets and agents.
	Settings Settings `json:"settings"`
	// Cuts are the scores that separate the difficulty classes: a won deal
	// of score <= Cuts[0] is easy, <= Cuts[1] medium, else hard.
	Cuts [2]float64 `json:"difficulty_cuts"`
	// Counts counts the deals by verdict, per block name and in all
	// ("all").
	Counts map[string]Counts `json:"counts"`
	// Command is the command that makes the table.
	Command string `json:"command"`
	// Kept lists the deals whose verdict was kept from the table this one
	// replaced (Config.Keep): decided there, left unknown by this table's
	// search. Their nodes and line length are those of the search that
	// decided them.
	Kept []uint64 `json:"kept,omitempty"`
	// Folded lists the solver runs folded into the table (Fold), each with
	// the deals whose verdict the table took from it: deals its own search
	// left unknown. Their nodes and line length are the run's.
	Folded []FoldedRun `json:"folded,omitempty"`
	// WonInPlay lists the deals whose verdict is Won because an agent of
	// the table (its heuristic or mc game) won them where the search left
	// them unknown: their line length is 0, their nodes the search's.
	WonInPlay []uint64 `json:"won_in_play,omitempty"`
}

// Deals returns the number of deals of the blocks.
func (m *Meta) Deals() int {
	n := 0
	for _, b := range m.Blocks {
		n += b.Count
	}
	return n
}

// Block returns the block that holds deal seed, or false.
func (m *Meta) Block(seed uint64) (Block, bool) {
	for _, b := range m.Blocks {
		if b.Contains(seed) {
			return b, true
		}
	}
	return Block{}, false
}

// Table is a game's verdict table.
type Table struct {
	Meta Meta
	// Deals holds one entry per deal of the blocks, by increasing seed.
	Deals []Deal
}

// Deal returns the entry of deal seed, or false when the table does not
// hold it.
func (t *Table) Deal(seed uint64) (Deal, bool) {
	i := sort.Search(len(t.Deals), func(i int) bool { return t.Deals[i].Seed >= seed })
	if i < len(t.Deals) && t.Deals[i].Seed == seed {
		return t.Deals[i], true
	}
	return Deal{}, false
}

// Filter selects deals of a table. The zero Filter selects every deal.
type Filter struct {
	// Verdicts, when not empty, keeps the deals with one of these verdicts.
	Verdicts []Verdict
	// Difficulty, when not Unrated, keeps the won deals of this class.
	Difficulty Difficulty
	// Block, when not "", keeps the deals of the block of this name.
	Block string
	// From keeps the deals numbered From or more.
	From uint64
	// Count, when positive, keeps the first Count deals selected.
	Count int
}

// Select returns the deals f selects, by increasing seed.
func (t *Table) Select(f Filter) []Deal {
	var out []Deal
	i := sort.Search(len(t.Deals), func(i int) bool { return t.Deals[i].Seed >= f.From })
	for _, d := range t.Deals[i:] {
		if f.Count > 0 && len(out) >= f.Count {
			break
		}
		if len(f.Verdicts) > 0 && !slices.Contains(f.Verdicts, d.Verdict) {
			continue
		}
		if f.Difficulty != Unrated && d.Difficulty != f.Difficulty {
			continue
		}
		if f.Block != "" && d.Block != f.Block {
			continue
		}
		out = append(out, d)
	}
	return out
}

// Seeds returns the deal numbers of ds.
func Seeds(ds []Deal) []uint64 {
	out := make([]uint64, len(ds))
	for i, d := range ds {
		out[i] = d.Seed
	}
	return out
}

// Count counts the deals of the block named block ("" for all) by
// verdict.
func (t *Table) Count(block string) Counts {
	var c Counts
	for _, d := range t.Deals {
		if block != "" && d.Block != block {
			continue
		}
		switch d.Verdict {
		case Won:
			c.Won++
		case Lost:
			c.Lost++
		default:
			c.Unknown++
		}
	}
	return c
}

// Pick returns a won deal of the block named block ("" for any), chosen by
// seed: the same seed gives the same deal. It returns false when the block
// holds no won deal.
func (t *Table) Pick(block string, seed uint64) (Deal, bool) {
	return t.PickFrom(Filter{Verdicts: []Verdict{Won}, Block: block}, seed)
}

// PickFrom returns one of the deals f selects, chosen by seed: the deal at
// index mix(seed) mod n of the n deals Select(f) returns, where mix is
// SplitMix64's finalizer (Pick is PickFrom with the won deals of a block).
// The same seed gives the same deal; nearby seeds pick unrelated ones. It
// returns false when f selects no deal. Another language reproduces the
// choice from the table alone: the selected seeds in increasing order,
// indexed by the finalizer of the seed.
func (t *Table) PickFrom(f Filter, seed uint64) (Deal, bool) {
	ds := t.Select(f)
	if len(ds) == 0 {
		return Deal{}, false
	}
	return ds[mix(seed)%uint64(len(ds))], true
}

// mix scrambles a seed (SplitMix64's finalizer), so that nearby seeds pick
// unrelated deals.
func mix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
