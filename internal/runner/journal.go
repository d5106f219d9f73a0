package runner

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/patience-gym/patience/internal/journal"
)

// Journal keeps a run's results as JSON lines (package internal/journal:
// a head line with the settings the results depend on, then one line a
// unit, each written whole), for Task.Held and Task.Keep. It also reads
// the journals of the run's shards, so that a run of the whole takes what
// they did.
type Journal[L any] struct {
	j    *journal.Journal
	key  func(L) (int, bool)
	held map[int]L
	// Others are the other journals it read (the shards').
	Others []string
}

// OpenJournal opens the journal at path, or starts it with head, and reads
// the lines it holds and those of every journal that others (a glob, ""
// for none) matches besides path: the shards' journals of the same run,
// whose heads must equal head. Each line is decoded into an L and filed
// under the unit key gives it; a line key does not know (ok false: a unit
// of another part of the run) is left alone. When two journals hold the
// same unit, the first read wins (this run's, then the others' by name);
// a journal of other settings is an error wrapping journal.ErrOtherRun.
func OpenJournal[L any](path string, head any, others string, key func(L) (unit int, ok bool)) (*Journal[L], error) {
	j, lines, err := journal.Open(path, head)
	if err != nil {
		return nil, err
	}
	jr := &Journal[L]{j: j, key: key, held: map[int]L{}}
	if err := jr.file(path, lines); err != nil {
		j.Close()
		return nil, err
	}
	if others != "" {
		names, err := filepath.Glob(others)
		if err != nil {
			j.Close()
			return nil, fmt.Errorf("runner: the shards' journals %s: %w", others, err)
		}
		slices.Sort(names)
		for _, name := range names {
			if same, _ := sameFile(name, path); same {
				continue
			}
			lines, err := journal.Read(name, head)
			if err != nil {
				j.Close()
				return nil, err
			}
			if err := jr.file(name, lines); err != nil {
				j.Close()
				return nil, err
			}
			jr.Others = append(jr.Others, name)
		}
	}
	return jr, nil
}

// sameFile reports whether a and b name one file.
func sameFile(a, b string) (bool, error) {
	sa, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	sb, err := os.Stat(b)
	if err != nil {
		return false, err
	}
	return os.SameFile(sa, sb), nil
}

// file files the lines of the journal name.
func (jr *Journal[L]) file(name string, lines [][]byte) error {
	for i, raw := range lines {
		var l L
		if err := json.Unmarshal(raw, &l); err != nil {
			return fmt.Errorf("%s: line %d: %w", name, i+2, err)
		}
		u, ok := jr.key(l)
		if !ok {
			continue
		}
		if _, dup := jr.held[u]; !dup {
			jr.held[u] = l
		}
	}
	return nil
}

// Held returns the line held for unit u (Task.Held's form, with the line
// as the result when L is the result type; see also Line).
func (jr *Journal[L]) Held(u int) (L, bool) {
	l, ok := jr.held[u]
	return l, ok
}

// Len returns the number of units held.
func (jr *Journal[L]) Len() int { return len(jr.held) }

// Add appends l, the line of a unit finished now.
func (jr *Journal[L]) Add(l L) error {
	if err := jr.j.Add(l); err != nil {
		return err
	}
	if u, ok := jr.key(l); ok {
		jr.held[u] = l
	}
	return nil
}

// Path returns the journal's file.
func (jr *Journal[L]) Path() string { return jr.j.Path() }

// Close closes the journal's file; the file stays, for a later run.
func (jr *Journal[L]) Close() error { return jr.j.Close() }

// Remove removes the journal and the others it read: a finished run whose
// output is written has no more use for them. A file already gone is no
// error.
func (jr *Journal[L]) Remove() error {
	if err := removeAll(append([]string{jr.j.Path()}, jr.Others...)); err != nil {
		return fmt.Errorf("removing the finished run's journal: %w", err)
	}
	return nil
}

// ShardPath returns the journal of shard s of a run whose whole journal is
// stem+ext: stem.shard-I-of-N+ext, or stem+ext for the whole run.
func ShardPath(stem, ext string, s Shard) string {
	if s.Whole() {
		return stem + ext
	}
	return fmt.Sprintf("%s.shard-%d-of-%d%s", stem, s.Index, s.Count, ext)
}

// ShardGlob returns the pattern that matches every shard's journal of the
// run whose whole journal is stem+ext (see ShardPath).
func ShardGlob(stem, ext string) string {
	return escapeGlob(stem) + ".shard-*-of-*" + escapeGlob(ext)
}

// escapeGlob escapes the characters filepath.Match treats specially.
func escapeGlob(s string) string {
	var b []byte
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '*', '?', '[', '\\':
			b = append(b, '\\')
		}
		b = append(b, s[i])
	}
	return string(b)
}

// RemoveJournals removes a finished run's journal at path and the other
// journals that others (a glob, "" for none) matches: the shards'
// journals, as OpenJournal read them, for a run that removes them after
// its Journal is closed. The run's result file holds what they held. A
// file already gone is no error.
func RemoveJournals(path, others string) error {
	names := []string{path}
	if others != "" {
		matched, _ := filepath.Glob(others)
		names = append(names, matched...)
	}
	return removeAll(names)
}

// removeAll removes the files named; one already gone is no error.
func removeAll(names []string) error {
	var errs []error
	for _, name := range names {
		if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
