package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/patience-gym/patience/internal/journal"
)

// journalVersion is the version of the solve journal's layout.
const journalVersion = 1

// journalHead is the first line of a solve journal: what must match for a
// rerun to take its deals.
type journalHead struct {
	Journal   int    `json:"patience_solve_journal"`
	Game      string `json:"game"`
	Rules     string `json:"rules"`
	Budget    string `json:"budget"`
	TableBits int    `json:"table_bits"`
}

// journalDeal is a line of a solve journal after the head: a deal's result
// with its winning line as action ids, which --verify replays.
type journalDeal struct {
	dealResult
	IDs []int `json:"ids,omitempty"`
}

// solveJournal keeps the deals of a `solve --json F` run in F.partial as
// they are decided, one JSON line each (a journal of package
// internal/journal), so that a run killed or interrupted loses nothing:
// the same command run again takes those deals from the journal instead
// of solving them again. The journal is removed once F is written for a
// finished run.
type solveJournal struct {
	j    *journal.Journal
	path string
	// deals counts the deals in the file: those kept from before and
	// those added.
	deals int
}

// journalPath returns the journal of the --json file path.
func journalPath(jsonPath string) string { return jsonPath + ".partial" }

// openJournal opens the journal at path, or starts one with head. It
// returns the deals a journal left by an earlier run of the same settings
// holds, by seed; a journal of other settings is an error, so that
// results of different budgets are never mixed. A last line cut short (a
// crash in the middle of a write) is dropped.
func openJournal(path string, head journalHead) (*solveJournal, map[uint64]journalDeal, error) {
	head.Journal = journalVersion
	j, lines, err := journal.Open(path, head)
	if errors.Is(err, journal.ErrOtherRun) {
		return nil, nil, otherRun(path, head)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("solve journal: %w", err)
	}
	kept := make(map[uint64]journalDeal, len(lines))
	for i, l := range lines {
		var d journalDeal
		if err := json.Unmarshal(l, &d); err != nil {
			j.Close()
			return nil, nil, fmt.Errorf("%s: line %d: %w", path, i+2, err)
		}
		d.done, d.ids = true, d.IDs
		kept[d.Seed] = d
	}
	return &solveJournal{j: j, path: path, deals: len(kept)}, kept, nil
}

// otherRun is the error for a journal at path whose head is not this
// run's: it names the settings that differ, or says that the file is not
// a solve journal at all.
func otherRun(path string, head journalHead) error {
	data, _ := os.ReadFile(path)
	first, _, _ := bytes.Cut(data, []byte("\n"))
	var old journalHead
	if err := json.Unmarshal(first, &old); err != nil || old.Journal == 0 {
		return fmt.Errorf("%s is not a solve journal (its first line does not say so); move it away or pick another --json", path)
	}
	return fmt.Errorf("%s was left by another run (%s rules %s, budget %s, table 2^%d entries; this run: %s rules %s, budget %s, table 2^%d): "+
		"delete it to start again, or pick another --json",
		path, old.Game, old.Rules, old.Budget, old.TableBits, head.Game, head.Rules, head.Budget, head.TableBits)
}

// add appends a decided deal (see journal.Journal.Add).
func (j *solveJournal) add(d dealResult) error {
	if err := j.j.Add(journalDeal{dealResult: d, IDs: d.ids}); err != nil {
		return fmt.Errorf("solve %w", err)
	}
	j.deals++
	return nil
}

// close closes the journal's file; the journal stays for a later run
// until the run that finishes removes it.
func (j *solveJournal) close() error {
	if err := j.j.Close(); err != nil {
		return fmt.Errorf("solve %w", err)
	}
	return nil
}
