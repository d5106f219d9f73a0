package batch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	ijournal "github.com/patience-gym/patience/internal/journal"
	"github.com/patience-gym/patience/internal/runner"
)

// journalVersion is the version of the journal's layout.
const journalVersion = 1

// journalHead is the first line of a journal: what must match for a rerun
// (or a merge) to take its deals.
type journalHead struct {
	Journal   int    `json:"patience_solve_journal"`
	Game      string `json:"game"`
	Rules     string `json:"rules"`
	Budget    string `json:"budget"`
	TableBits int    `json:"table_bits"`
	BestFirst int    `json:"best_first,omitempty"` // solver.Options.BestFirst
	Beam      int    `json:"beam,omitempty"`       // solver.Options.Beam
	Knowledge string `json:"knowledge,omitempty"`  // solver.Options.Knowledge
}

// journalLine is a line of a journal after the head: a deal with its
// winning line as action ids, which Verify replays.
type journalLine struct {
	Deal
	IDs []int `json:"ids,omitempty"`
}

// journal is a run's journal, with the deals it (and, for the whole run,
// the shards' journals) holds, by index in the run.
type journal struct {
	*runner.Journal[journalLine]
}

// Held returns the deal of index i the journals hold.
func (j *journal) Held(i int) (Deal, bool) {
	l, ok := j.Journal.Held(i)
	l.Deal.IDs = l.IDs
	return l.Deal, ok
}

// openJournal opens the journal of cfg's shard, or starts it. A journal of
// other settings is an error that names them, so that results of
// different budgets are never mixed; a last line cut short (a crash in the
// middle of a write) is dropped.
func openJournal(cfg Config, shard runner.Shard) (*journal, error) {
	spec := cfg.Game.Spec()
	head := journalHead{Journal: journalVersion, Game: spec.ID(), Rules: spec.Rules(), Budget: cfg.Budget, TableBits: cfg.Options.TableBits, BestFirst: cfg.Options.BestFirst, Beam: cfg.Options.Beam, Knowledge: cfg.Options.Knowledge}
	path, others := ShardJournal(cfg.Journal, shard.Index, shard.Count), ""
	if shard.Whole() {
		stem, ext := splitExt(cfg.Journal)
		others = runner.ShardGlob(stem, ext)
	}
	jr, err := runner.OpenJournal(path, head, others, func(l journalLine) (int, bool) { return cfg.index(l.Seed) })
	if errors.Is(err, ijournal.ErrOtherRun) {
		return nil, otherRun(err, head)
	}
	if err != nil {
		return nil, fmt.Errorf("solve journal: %w", err)
	}
	return &journal{jr}, nil
}

// otherRun is the error for a journal whose head is not this run's: it
// names the settings that differ, or says that the file is not a solve
// journal at all.
func otherRun(err error, head journalHead) error {
	path := journalPathOf(err)
	data, _ := os.ReadFile(path)
	first, _, _ := bytes.Cut(data, []byte("\n"))
	var old journalHead
	if json.Unmarshal(first, &old) != nil || old.Journal == 0 {
		return fmt.Errorf("%s is not a solve journal (its first line does not say so); move it away or pick another --json", path)
	}
	return fmt.Errorf("%s was left by another run (%s rules %s, budget %s, table 2^%d entries%s; this run: %s rules %s, budget %s, table 2^%d%s): "+
		"delete it to start again, or pick another --json",
		path, old.Game, old.Rules, old.Budget, old.TableBits, searchNote(old),
		head.Game, head.Rules, head.Budget, head.TableBits, searchNote(head))
}

// searchNote names a run's best-first pass (solver.Options.BestFirst), beam
// pass (solver.Options.Beam) and
// set of search knowledge (solver.Options.Knowledge) for a message, or
// nothing for the default search.
func searchNote(h journalHead) string {
	note := ""
	if h.BestFirst != 0 {
		note += fmt.Sprintf(", a best-first pass with 1/%d of the budget", h.BestFirst)
	}
	if h.Beam != 0 {
		note += fmt.Sprintf(", a beam of %d", h.Beam)
	}
	if h.Knowledge != "" {
		note += fmt.Sprintf(", search knowledge %q", h.Knowledge)
	}
	return note
}

// journalPathOf returns the file an ErrOtherRun error of package
// internal/journal names (its message begins with the path).
func journalPathOf(err error) string {
	var p *ijournal.OtherRunError
	if errors.As(err, &p) {
		return p.Path
	}
	return "the journal"
}

// RemoveJournals removes a finished run's journal and its shards'
// journals: the result file holds what they held. A file already gone is
// no error.
func RemoveJournals(journal string) error {
	stem, ext := splitExt(journal)
	if err := runner.RemoveJournals(journal, runner.ShardGlob(stem, ext)); err != nil {
		return fmt.Errorf("solve journal: %w", err)
	}
	return nil
}
