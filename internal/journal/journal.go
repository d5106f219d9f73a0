// Package journal keeps the results of a long computation as they come, one
// JSON line each, so that a run killed or interrupted loses only the work
// in flight: the same command run again reads the journal and skips what
// it holds.
//
// The first line of a journal is its head: the settings the results depend
// on. A journal whose head differs from the run's is refused, so results of
// different settings are never mixed. Each result is written in one write
// call and the file is flushed to the disk at most every SyncEvery, so a
// crash leaves at most the last line cut short; Open drops such a line.
package journal

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
)

// SyncEvery is how often a journal is flushed to the disk: a killed
// process loses nothing the kernel has, and a power cut loses at most the
// lines written in the last second.
const SyncEvery = time.Second

// ErrOtherRun is returned (wrapped) when a journal's head differs from the
// run's.
var ErrOtherRun = errors.New("the journal was left by a run with other settings")

// Journal is a journal open for appending.
type Journal struct {
	path   string
	f      *os.File
	buf    []byte
	lines  int
	synced time.Time
}

// Read returns the lines after the head of the journal at path, raw, after
// checking that its head is head's JSON encoding (head is a value of the
// type the journal's head decodes into). A last line cut short is left out;
// a line cut short elsewhere is an error. A missing file, or one whose head
// was cut short, holds no lines.
func Read(path string, head any) ([][]byte, error) {
	lines, _, err := read(path, head)
	return lines, err
}

// read is Read, and also returns the length of the file's good part (0
// when it holds no complete head).
func read(path string, head any) ([][]byte, int64, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, fmt.Errorf("journal: %w", err)
	}
	first, rest, ok := bytes.Cut(data, []byte("\n"))
	if !ok {
		return nil, 0, nil // the head was cut short: nothing was recorded
	}
	if err := sameHead(path, first, head); err != nil {
		return nil, 0, err
	}
	good := int64(len(first) + 1)
	var lines [][]byte
	for i := 2; len(rest) > 0; i++ {
		l, tail, complete := bytes.Cut(rest, []byte("\n"))
		if !complete {
			break // the last line, cut short by a crash
		}
		if !json.Valid(l) {
			return nil, 0, fmt.Errorf("journal %s: line %d is not JSON", path, i)
		}
		lines = append(lines, l)
		good += int64(len(l) + 1)
		rest = tail
	}
	return lines, good, nil
}

// sameHead checks that the head line of a journal is head's JSON encoding.
func sameHead(path string, line []byte, head any) error {
	want, err := json.Marshal(head)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	if bytes.Equal(line, want) {
		return nil
	}
	return &OtherRunError{Path: path, Head: string(line), Want: string(want)}
}

// OtherRunError is the error for a journal whose head differs from the
// run's; it wraps ErrOtherRun.
type OtherRunError struct {
	// Path is the journal's file; Head its head line, Want the run's.
	Path, Head, Want string
}

// Error says which journal and both heads.
func (e *OtherRunError) Error() string {
	return fmt.Sprintf("%s: %v: it holds %s, this run %s; delete it to start again, or pick another directory",
		e.Path, ErrOtherRun, e.Head, e.Want)
}

// Unwrap returns ErrOtherRun.
func (e *OtherRunError) Unwrap() error { return ErrOtherRun }

// Open opens the journal at path for appending, or starts it with head,
// and returns the lines it already holds (see Read). A last line cut short
// is removed from the file, so the next line starts clean.
func Open(path string, head any) (*Journal, [][]byte, error) {
	lines, good, err := read(path, head)
	if err != nil {
		return nil, nil, err
	}
	if good == 0 {
		line, err := json.Marshal(head)
		if err != nil {
			return nil, nil, fmt.Errorf("journal: %w", err)
		}
		if err := os.WriteFile(path, append(line, '\n'), 0o644); err != nil {
			return nil, nil, fmt.Errorf("journal: %w", err)
		}
	} else if st, err := os.Stat(path); err == nil && st.Size() > good {
		if err := os.Truncate(path, good); err != nil {
			return nil, nil, fmt.Errorf("journal: %w", err)
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("journal: %w", err)
	}
	return &Journal{path: path, f: f, lines: len(lines)}, lines, nil
}

// Path returns the journal's file name.
func (j *Journal) Path() string { return j.path }

// Lines returns the number of lines after the head: those held before
// and those added.
func (j *Journal) Lines() int { return j.lines }

// Add appends v as one JSON line.
func (j *Journal) Add(v any) error {
	line, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	j.buf = append(append(j.buf[:0], line...), '\n')
	if _, err := j.f.Write(j.buf); err != nil {
		return fmt.Errorf("journal %s: %w", j.path, err)
	}
	j.lines++
	if now := time.Now(); now.Sub(j.synced) >= SyncEvery {
		if err := j.f.Sync(); err != nil {
			return fmt.Errorf("journal %s: %w", j.path, err)
		}
		j.synced = now
	}
	return nil
}

// Close flushes the journal to the disk and closes it. The file stays.
func (j *Journal) Close() error {
	err := j.f.Sync()
	if cerr := j.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("journal %s: %w", j.path, err)
	}
	return nil
}
