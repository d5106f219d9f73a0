// Package datasets writes and reads patience gameplay as Parquet datasets that
// pandas, Polars, DuckDB, Spark and Arrow open without a custom loader.
//
// A dataset is a directory:
//
//	DIR/
//	  meta/info.json               the dataset's metadata and totals, for people
//	  steps/part-00000.parquet     one row per decision (Step)
//	  episodes/part-00000.parquet  one row per episode (Episode)
//	  ...
//
// The seed range [SeedStart, SeedStart+Episodes) is cut into parts of
// PartSize episodes; part p holds the episodes p*PartSize .. (p+1)*PartSize-1
// and is written, by exactly one worker, to one steps file and one episodes
// file of the same name. The cut depends only on the configuration, never on
// the number of workers or machines, so the same configuration gives the same
// steps files byte for byte anywhere. Files are written under a temporary
// name (a dot name ending in .tmp) and renamed when complete.
//
// Every file carries the key-value metadata key "patience": a JSON object
// (FileMeta) with the dataset's Meta, the table, the part and its totals.
//
// The other dataset of the patience command, the move labels of patience
// label, is package labels; its files are written with this
// package's Parquet writer, NewParquetWriter.
package datasets

import (
	"encoding/json"
	"fmt"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/internal/specjson"
)

// SchemaVersion is the version of the tables' layout and of the metadata.
// Readers refuse files of a later version. Version 2 keeps the game's
// description in the metadata's "spec", in the JSON form the C ABI hands
// to Python (package specjson); version 1 had it in fields of their own
// (game_title, rules_version, hidden_cards, actions, action_table,
// obs_len, obs_segments, progress_total), which readers still read.
const SchemaVersion = 2

// GeneratorVersion is the version of the generation procedure (how episodes
// are played and rows filled). It is bumped whenever the same configuration
// would write different rows.
const GeneratorVersion = 1

// MetaKey is the Parquet key-value metadata key holding FileMeta as JSON.
const MetaKey = "patience"

// MaskEncoding names how legal_mask is stored.
const MaskEncoding = "bitpacked-lsb-first"

// maskEncodingDoc explains MaskEncoding in the metadata.
const maskEncodingDoc = "legal_mask holds ceil(actions/8) bytes; action a is legal when bit a%8 (least significant bit first) of byte a/8 is set"

// cardCodes documents the card cells of observations.
const cardCodes = "card cells: 0 = empty, 1..52 = a card (suit*13 + rank; suits clubs, diamonds, hearts, spades = 0..3; ranks ace..king = 1..13), 53 = face down or unknown"

// Step is one row of the steps table: one decision of an episode. Obs and
// LegalMask describe the position where the action was chosen (before it);
// Reward, Terminated and Truncated are the result of the action.
type Step struct {
	// EpisodeIndex is the episode's position in the dataset (0-based): the
	// deal seed is SeedStart + EpisodeIndex.
	EpisodeIndex int64 `parquet:"episode_index"`
	// Step is the decision's number in the episode, from 0.
	Step int32 `parquet:"step"`
	// Index is the row's global number, unique and increasing through the
	// dataset: EpisodeIndex*IndexStride + Step (IndexStride is the step
	// limit). It is not contiguous: episodes shorter than the limit leave
	// gaps.
	Index int64 `parquet:"index"`
	// Game is the game's name.
	Game string `parquet:"game,dict"`
	// Obs is the observation before the action (Meta.ObsLen bytes).
	Obs []byte `parquet:"obs"`
	// LegalMask is the set of legal actions before the action, bit-packed
	// least significant bit first (Meta.MaskBytes bytes).
	LegalMask []byte `parquet:"legal_mask"`
	// Action is the action taken.
	Action int32 `parquet:"action"`
	// ActionName is the action's name as a person types it.
	ActionName string `parquet:"action_name,dict"`
	// Reward is the reward the action earned.
	Reward float64 `parquet:"reward"`
	// Terminated is true when the action ended the episode (won, or no
	// legal action left).
	Terminated bool `parquet:"terminated"`
	// Truncated is true when the action reached the step limit.
	Truncated bool `parquet:"truncated"`
}

// ScoredStep is a row of the steps table of a dataset made with move scores
// (Config.Scores): the Step, plus the moves the agent weighed before it chose
// and its score for each (Meta.MoveScores says what the scores are).
// ScoreActions[i] has score Scores[i]; both are empty where the agent
// weighed nothing (a single legal move).
type ScoredStep struct {
	Step
	// ScoreActions are the moves the agent weighed, legal before the action.
	ScoreActions []int32 `parquet:"score_actions,list"`
	// Scores are the agent's scores of ScoreActions, higher is better.
	Scores []float32 `parquet:"scores,list"`
}

// Episode is one row of the episodes table.
type Episode struct {
	// EpisodeIndex is the episode's position in the dataset (0-based).
	EpisodeIndex int64 `parquet:"episode_index"`
	// Game is the game's name.
	Game string `parquet:"game,dict"`
	// RulesVersion is the game's rules version.
	RulesVersion int32 `parquet:"rules_version"`
	// DealSeed is the deal number (below 2^63).
	DealSeed int64 `parquet:"deal_seed"`
	// Agent is the agent's name.
	Agent string `parquet:"agent,dict"`
	// AgentSeed is the seed the agent was reset with.
	AgentSeed int64 `parquet:"agent_seed"`
	// Length is the number of steps.
	Length int32 `parquet:"length"`
	// Return is the sum of the rewards.
	Return float64 `parquet:"return"`
	// Outcome is "won", "lost" (no legal action left) or "truncated" (step
	// limit).
	Outcome string `parquet:"outcome,dict"`
	// Class is the game's own word for the final state ("second-class" in
	// Four Quarters), or "".
	Class string `parquet:"class,dict"`
	// Progress is the number of cards in their final place at the end (out
	// of Meta.Spec.Cards).
	Progress int32 `parquet:"progress"`
	// FinalObs is the observation after the last step.
	FinalObs []byte `parquet:"final_obs"`
	// IndexFrom and IndexTo are the episode's rows in the steps table:
	// index in [IndexFrom, IndexTo), IndexTo - IndexFrom = Length.
	IndexFrom int64 `parquet:"index_from"`
	IndexTo   int64 `parquet:"index_to"`
	// StepsFile is the steps file holding the episode's rows, relative to
	// the dataset directory ("steps/part-00003.parquet").
	StepsFile string `parquet:"steps_file,dict"`
	// WallTimeMicros is the time the episode took to play and record, in
	// microseconds. It is the only column that differs between two runs of
	// the same configuration.
	WallTimeMicros int64 `parquet:"wall_time_us"`
}

// Column documents one column of a table.
type Column struct {
	Name string
	Type string
	Doc  string
}

// StepColumns documents the steps table, in column order.
var StepColumns = []Column{
	{"episode_index", "int64", "episode's position in the dataset, from 0; deal_seed = seed_start + episode_index"},
	{"step", "int32", "decision number in the episode, from 0"},
	{"index", "int64", "global row number, unique and increasing: episode_index * index_stride + step (gaps between episodes)"},
	{"game", "string", "game name"},
	{"obs", "binary", "observation before the action, obs_len bytes (layout in the spec's segments)"},
	{"legal_mask", "binary", "legal actions before the action, ceil(actions/8) bytes, bit a%8 of byte a/8 (LSB first)"},
	{"action", "int32", "action taken"},
	{"action_name", "string", "action's name as a person types it"},
	{"reward", "double", "reward of the action"},
	{"terminated", "bool", "the action ended the episode (won, or no legal action left)"},
	{"truncated", "bool", "the action reached the step limit"},
}

// ScoreColumns documents the two columns that follow StepColumns in a
// dataset made with move scores (generate --scores).
var ScoreColumns = []Column{
	{"score_actions", "list<int32>", "moves the agent weighed before it chose (legal before the action); empty where it weighed nothing"},
	{"scores", "list<float>", "the agent's score of each of score_actions, higher is better; move_scores in the metadata says what they are"},
}

// EpisodeColumns documents the episodes table, in column order.
var EpisodeColumns = []Column{
	{"episode_index", "int64", "episode's position in the dataset, from 0"},
	{"game", "string", "game name"},
	{"rules_version", "int32", "rules version of the game"},
	{"deal_seed", "int64", "deal number: seed_start + episode_index"},
	{"agent", "string", "agent name"},
	{"agent_seed", "int64", "seed the agent was reset with: deal_seed + agent_seed_offset"},
	{"length", "int32", "number of steps"},
	{"return", "double", "sum of the rewards"},
	{"outcome", "string", "won, lost (no legal action left) or truncated (step limit)"},
	{"class", "string", "the game's own word for the final state, or empty"},
	{"progress", "int32", "cards in their final place at the end, out of the spec's cards"},
	{"final_obs", "binary", "observation after the last step"},
	{"index_from", "int64", "first index of the episode's steps rows"},
	{"index_to", "int64", "one past the last index: the rows have index_from <= index < index_to"},
	{"steps_file", "string", "steps file holding the rows, relative to the dataset directory"},
	{"wall_time_us", "int64", "time taken to play and record the episode, microseconds (not reproducible)"},
}

// Meta describes a dataset. Every file of the dataset carries the same Meta;
// a rerun into the same directory must have the same Meta.
//
// Its fields are the dataset's own facts, those a reader needs to decode
// the rows among them (the game and its rules version, the lengths of obs
// and legal_mask, the step limit), and Spec, the game's description in the
// one JSON form of a Spec that the C ABI also hands out (package specjson).
// Game, RulesVersion, Actions and ObsLen equal Spec's.
type Meta struct {
	SchemaVersion    int    `json:"schema_version"`
	Generator        string `json:"generator"`
	GeneratorVersion int    `json:"generator_version"`
	// Game is the game's name, as in the tables' game column, and
	// RulesVersion its rules version.
	Game         string `json:"game"`
	RulesVersion int    `json:"rules_version"`
	// Actions is the number of actions (the bits of legal_mask) and ObsLen
	// the observation's length (the bytes of obs).
	Actions int `json:"actions"`
	ObsLen  int `json:"obs_len"`
	// Spec describes the game: its title, action ranges, observation
	// segments, hidden cards, the cards progress counts, its default step
	// limit.
	Spec            specjson.Spec `json:"spec"`
	CardCodes       string        `json:"card_codes"`
	MaskEncoding    string        `json:"mask_encoding"`
	MaskEncodingDoc string        `json:"mask_encoding_doc"`
	MaskBytes       int           `json:"mask_bytes"`
	RewardMode      string        `json:"reward_mode"`
	// MaxSteps is the step limit the episodes were played with.
	MaxSteps        int    `json:"max_steps"`
	IndexStride     int64  `json:"index_stride"`
	Agent           string `json:"agent"`
	AgentSettings   string `json:"agent_settings"`
	AgentSeedOffset int64  `json:"agent_seed_offset"`
	// AgentModelSHA256 is the hex SHA-256 of the policy model file the
	// agent played with (policy, or mc and uct with model=FILE), absent
	// otherwise: the path in AgentSettings may name another file on
	// another machine or after retraining, the hash does not.
	AgentModelSHA256 string `json:"agent_model_sha256,omitempty"`
	// MoveScores says what the steps table's scores are (the agent's
	// agents.MoveScorer ScoreKind) in a dataset made with move scores, and
	// is absent otherwise: its steps rows are then ScoredStep, not Step.
	MoveScores string `json:"move_scores,omitempty"`
	SeedStart  int64  `json:"seed_start"`
	SeedEnd    int64  `json:"seed_end"`
	Episodes   int64  `json:"episodes"`
	PartSize   int    `json:"part_size"`
	Parts      int    `json:"parts"`
}

// Totals count what a file, or a whole dataset, holds.
type Totals struct {
	Episodes  int64   `json:"episodes"`
	Steps     int64   `json:"steps"`
	Won       int64   `json:"won"`
	Lost      int64   `json:"lost"`
	Truncated int64   `json:"truncated"`
	ReturnSum float64 `json:"return_sum"`
}

// add adds o to t.
func (t *Totals) add(o Totals) {
	t.Episodes += o.Episodes
	t.Steps += o.Steps
	t.Won += o.Won
	t.Lost += o.Lost
	t.Truncated += o.Truncated
	t.ReturnSum += o.ReturnSum
}

// WinRate returns Won / Episodes, or 0 without episodes.
func (t Totals) WinRate() float64 {
	if t.Episodes == 0 {
		return 0
	}
	return float64(t.Won) / float64(t.Episodes)
}

// Table names.
const (
	TableSteps    = "steps"
	TableEpisodes = "episodes"
)

// FileMeta is the metadata of one file: the dataset's Meta, which table the
// file holds, its part and the part's totals.
type FileMeta struct {
	Meta
	// Table is "steps" or "episodes".
	Table string `json:"table"`
	// Part is the part number; the part holds the episodes
	// [PartFirstEpisode, PartFirstEpisode+PartEpisodes).
	Part             int   `json:"part"`
	PartFirstEpisode int64 `json:"part_first_episode"`
	PartEpisodes     int64 `json:"part_episodes"`
	// Totals count the part's episodes and steps.
	Totals Totals `json:"totals"`
}

// Info is the content of meta/info.json: the dataset's Meta, the layout, and
// the totals over the finished parts present.
type Info struct {
	Meta
	// Layout says where the files are.
	Layout string `json:"layout"`
	// PartsPresent is the number of finished parts in the directory.
	PartsPresent int `json:"parts_present"`
	// Complete is true when every part of the dataset is present.
	Complete bool `json:"complete"`
	// Missing lists the parts not present (at most 100 of them).
	Missing []int `json:"missing_parts,omitempty"`
	// Totals count the present parts.
	Totals Totals `json:"totals"`
	// WinRate is Totals.Won / Totals.Episodes.
	WinRate float64 `json:"win_rate"`
	// MeanReturn is Totals.ReturnSum / Totals.Episodes.
	MeanReturn float64 `json:"mean_return"`
}

// layoutDoc is Info.Layout.
const layoutDoc = "steps/part-NNNNN.parquet and episodes/part-NNNNN.parquet; part p holds episode_index p*part_size .. (p+1)*part_size-1"

// metaFor builds the Meta of a dataset of spec's game.
func metaFor(spec *env.Spec, maxSteps int, reward env.RewardMode) Meta {
	return Meta{
		SchemaVersion:    SchemaVersion,
		Generator:        "patience",
		GeneratorVersion: GeneratorVersion,
		Game:             spec.Name,
		RulesVersion:     spec.RulesVersion,
		Actions:          spec.Actions,
		ObsLen:           spec.ObsLen,
		Spec:             specjson.Of(spec),
		CardCodes:        cardCodes,
		MaskEncoding:     MaskEncoding,
		MaskEncodingDoc:  maskEncodingDoc,
		MaskBytes:        (spec.Actions + 7) / 8,
		RewardMode:       reward.String(),
		MaxSteps:         maxSteps,
		IndexStride:      int64(maxSteps),
	}
}

// metaV1 holds what schema version 1's metadata said about the game under
// names of its own; version 2 keeps it in Meta.Spec.
type metaV1 struct {
	GameTitle     string             `json:"game_title"`
	HiddenCards   bool               `json:"hidden_cards"`
	ActionTable   []specjson.Range   `json:"action_table"`
	ObsSegments   []specjson.Segment `json:"obs_segments"`
	ProgressTotal int                `json:"progress_total"`
}

// unmarshalMeta decodes data, the JSON of a FileMeta or an Info, into v,
// whose Meta is m. A file of schema version 1 has the game's description
// under its old names: they fill m.Spec (its summary and default step
// limit, which version 1 did not record, stay empty).
func unmarshalMeta(data []byte, v any, m *Meta) error {
	if err := json.Unmarshal(data, v); err != nil {
		return err
	}
	if m.SchemaVersion != 1 {
		return nil
	}
	var old metaV1
	if err := json.Unmarshal(data, &old); err != nil {
		return err
	}
	m.Spec = specjson.Spec{
		Name: m.Game, Title: old.GameTitle, RulesVersion: m.RulesVersion, Actions: m.Actions, ActionRanges: old.ActionTable,
		ObsLen: m.ObsLen, Segments: old.ObsSegments, Hidden: old.HiddenCards, Cards: old.ProgressTotal,
		OneHotLen: specjson.OneHotLenOf(old.ObsSegments),
	}
	return nil
}

// partName returns the file name of part p ("part-00003.parquet").
func partName(p int) string { return fmt.Sprintf("part-%05d.parquet", p) }

// PartOf returns the part holding episode i.
func (m *Meta) PartOf(i int64) int { return int(i / int64(m.PartSize)) }

// partRange returns the first episode and the number of episodes of part p.
func (m *Meta) partRange(p int) (first, n int64) {
	first = int64(p) * int64(m.PartSize)
	n = min(int64(m.PartSize), m.Episodes-first)
	return first, n
}
