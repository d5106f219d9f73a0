package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
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
// they are decided, one JSON line each, so that a run killed or
// interrupted loses nothing: the same command run again takes those deals
// from the journal instead of solving them again. The journal is removed
// once F is written for a finished run.
type solveJournal struct {
	path string
	f    *os.File
	buf  []byte
	// deals counts the deals in the file: those kept from before and
	// those added.
	deals int
	// synced is when the file was last flushed to the disk.
	synced time.Time
}

// journalSyncEvery is how often the journal is flushed to the disk: a
// killed process loses nothing the kernel has, and a power cut loses at
// most the deals decided in the last second.
const journalSyncEvery = time.Second

// journalPath returns the journal of the --json file path.
func journalPath(jsonPath string) string { return jsonPath + ".partial" }

// openJournal opens the journal at path, or starts one with head. It
// returns the deals a journal left by an earlier run of the same settings
// holds, by seed; a journal of other settings is an error, so that
// results of different budgets are never mixed. A last line cut short (a
// crash in the middle of a write) is dropped.
func openJournal(path string, head journalHead) (*solveJournal, map[uint64]journalDeal, error) {
	head.Journal = journalVersion
	kept := map[uint64]journalDeal{}
	data, err := os.ReadFile(path)
	if err == nil && !bytes.Contains(data, []byte("\n")) {
		err = fs.ErrNotExist // its head was cut short: nothing was decided yet
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		line, err := json.Marshal(head)
		if err != nil {
			return nil, nil, fmt.Errorf("solve journal: %w", err)
		}
		if err := os.WriteFile(path, append(line, '\n'), 0o644); err != nil {
			return nil, nil, fmt.Errorf("solve journal: %w", err)
		}
	case err != nil:
		return nil, nil, fmt.Errorf("solve journal: %w", err)
	default:
		lines := bytes.Split(data, []byte("\n"))
		var old journalHead
		if err := json.Unmarshal(lines[0], &old); err != nil || old.Journal == 0 {
			return nil, nil, fmt.Errorf("%s is not a solve journal (its first line does not say so); move it away or pick another --json", path)
		}
		if old != head {
			return nil, nil, fmt.Errorf("%s was left by another run (%s rules %s, budget %s, table 2^%d entries; this run: %s rules %s, budget %s, table 2^%d): "+
				"delete it to start again, or pick another --json",
				path, old.Game, old.Rules, old.Budget, old.TableBits, head.Game, head.Rules, head.Budget, head.TableBits)
		}
		good := len(lines[0]) + 1
		for i, l := range lines[1:] {
			if len(l) == 0 {
				continue
			}
			var d journalDeal
			if err := json.Unmarshal(l, &d); err != nil {
				if i == len(lines)-2 { // the last line, cut short
					break
				}
				return nil, nil, fmt.Errorf("%s: line %d: %w", path, i+2, err)
			}
			d.done, d.ids = true, d.IDs
			kept[d.Seed] = d
			good += len(l) + 1
		}
		if good < len(data) {
			// Drop the cut line, so that the next line starts clean.
			if err := os.Truncate(path, int64(good)); err != nil {
				return nil, nil, fmt.Errorf("solve journal: %w", err)
			}
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("solve journal: %w", err)
	}
	return &solveJournal{path: path, f: f, deals: len(kept)}, kept, nil
}

// add appends a decided deal. Each line goes to the file in one write, so
// that a crash leaves at most the line being written cut short, and the
// file is flushed to the disk at most every journalSyncEvery.
func (j *solveJournal) add(d dealResult) error {
	line, err := json.Marshal(journalDeal{dealResult: d, IDs: d.ids})
	if err != nil {
		return fmt.Errorf("solve journal: %w", err)
	}
	j.buf = append(append(j.buf[:0], line...), '\n')
	if _, err := j.f.Write(j.buf); err != nil {
		return fmt.Errorf("solve journal %s: %w", j.path, err)
	}
	j.deals++
	if now := time.Now(); now.Sub(j.synced) >= journalSyncEvery {
		if err := j.f.Sync(); err != nil {
			return fmt.Errorf("solve journal %s: %w", j.path, err)
		}
		j.synced = now
	}
	return nil
}

// close closes the journal's file; the journal stays for a later run
// until the run that finishes removes it.
func (j *solveJournal) close() error {
	if err := j.f.Sync(); err != nil {
		j.f.Close()
		return fmt.Errorf("solve journal %s: %w", j.path, err)
	}
	if err := j.f.Close(); err != nil {
		return fmt.Errorf("solve journal: %w", err)
	}
	return nil
}
