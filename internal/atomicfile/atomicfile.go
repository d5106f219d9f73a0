// Package atomicfile writes files that appear complete or not at all: every
// file the project writes (Parquet parts, info.json, CSV, JSON, charts) is
// written under a temporary name in its final directory, flushed to disk, and
// renamed into place.
//
// A temporary name carries its writer: ".NAME.HOST.PID.RANDOM.tmp". A crash
// leaves such a file behind; Clean removes the ones whose writer ran on this
// host and no longer runs, and leaves alone those of a writer still running
// or of another host, so that two writers sharing a directory never remove
// each other's work.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// Suffix ends every temporary file's name.
const Suffix = ".tmp"

// writer identifies this process in temporary names: host and process id.
var writer = func() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "localhost"
	}
	// Dots separate the name's fields.
	host = strings.NewReplacer(".", "_", string(filepath.Separator), "_").Replace(host)
	return host + "." + strconv.Itoa(os.Getpid())
}()

// open holds the temporary files this process is writing now, which Clean
// leaves alone.
var open sync.Map

// File is a file being written under a temporary name; Commit gives it its
// final name, Abort removes it.
type File struct {
	f     *os.File
	final string
	done  bool
}

// Create starts writing the file path: it creates a temporary file beside
// it.
func Create(path string) (*File, error) {
	dir, base := filepath.Split(path)
	for range 100 {
		name := filepath.Join(dir, "."+base+"."+writer+"."+strconv.FormatUint(uint64(rand.Uint32()), 10)+Suffix)
		// Known as open before it exists, so that Clean never takes it for
		// a stale one.
		open.Store(name, true)
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			return &File{f: f, final: path}, nil
		}
		open.Delete(name)
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("create %s: %w", path, err)
		}
	}
	return nil, fmt.Errorf("create %s: no free temporary name", path)
}

// Name returns the file's final name.
func (t *File) Name() string { return t.final }

// Write writes to the temporary file.
func (t *File) Write(p []byte) (int, error) { return t.f.Write(p) }

// Commit flushes the file to disk, closes it and renames it to its final
// name. After an error the temporary file is removed.
func (t *File) Commit() error {
	if t.done {
		return fmt.Errorf("commit %s: already committed or aborted", t.final)
	}
	err := t.f.Chmod(0o644)
	if err == nil {
		err = t.f.Sync()
	}
	if cerr := t.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(t.f.Name(), t.final)
	}
	if err != nil {
		os.Remove(t.f.Name())
	}
	t.done = true
	open.Delete(t.f.Name())
	if err != nil {
		return fmt.Errorf("write %s: %w", t.final, err)
	}
	return nil
}

// Abort closes and removes the temporary file unless it was committed. It
// may be deferred unconditionally.
func (t *File) Abort() {
	if t == nil || t.done {
		return
	}
	t.f.Close()
	os.Remove(t.f.Name())
	t.done = true
	open.Delete(t.f.Name())
}

// Write writes the file path with write, atomically.
func Write(path string, write func(io.Writer) error) error {
	t, err := Create(path)
	if err != nil {
		return err
	}
	defer t.Abort()
	if err := write(t); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return t.Commit()
}

// WriteFile writes data to the file path, atomically.
func WriteFile(path string, data []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// Temp describes a temporary file found in a directory.
type Temp struct {
	// Path is the temporary file's path and Final the name it was to get
	// (in the same directory).
	Path, Final string
	// Host and PID name its writer ("" and 0 when the name does not say).
	Host string
	PID  int
	// Stale is true when the writer ran on this host and no longer runs.
	Stale bool
}

// Temps lists the temporary files in dir.
func Temps(dir string) ([]Temp, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return nil, fmt.Errorf("list %s: %w", dir, err)
	}
	var out []Temp
	for _, e := range entries {
		if t, ok := parseTemp(e.Name()); ok && !e.IsDir() {
			t.Path = filepath.Join(dir, e.Name())
			t.Final = filepath.Join(dir, t.Final)
			t.Stale = stale(t)
			out = append(out, t)
		}
	}
	return out, nil
}

// parseTemp reads a temporary file's name: ".FINAL.HOST.PID.RANDOM.tmp".
// Older names without a writer (".FINAL.RANDOM.tmp") parse with no host.
func parseTemp(name string) (Temp, bool) {
	if !strings.HasPrefix(name, ".") || !strings.HasSuffix(name, Suffix) {
		return Temp{}, false
	}
	fields := strings.Split(strings.TrimSuffix(name[1:], Suffix), ".")
	if len(fields) < 2 {
		return Temp{}, false
	}
	t := Temp{Final: strings.Join(fields[:len(fields)-1], ".")}
	if n := len(fields); n >= 4 {
		if pid, err := strconv.Atoi(fields[n-2]); err == nil && pid > 0 {
			t.Final, t.Host, t.PID = strings.Join(fields[:n-3], "."), fields[n-3], pid
		}
	}
	return t, true
}

// Clean removes the stale temporary files in dir whose final name keep
// accepts (nil accepts all), and returns what it removed.
func Clean(dir string, keep func(final string) bool) ([]string, error) {
	temps, err := Temps(dir)
	if err != nil {
		return nil, err
	}
	var removed []string
	for _, t := range temps {
		if !t.Stale || (keep != nil && !keep(t.Final)) {
			continue
		}
		if err := os.Remove(t.Path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return removed, fmt.Errorf("remove the stale %s: %w", t.Path, err)
		}
		removed = append(removed, t.Path)
	}
	return removed, nil
}

// stale reports whether t's writer ran on this host and no longer writes
// it: a process that ended, or this one when it does not have t open.
func stale(t Temp) bool {
	if host, _, _ := strings.Cut(writer, "."); t.Host != host {
		return false
	}
	if t.PID == os.Getpid() {
		_, writing := open.Load(t.Path)
		return !writing
	}
	return !alive(t.PID)
}

// alive reports whether process pid runs (on this host).
func alive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	if runtime.GOOS == "windows" {
		return true // FindProcess opened it: it runs
	}
	err = p.Signal(syscall.Signal(0))
	return err == nil || errors.Is(err, syscall.EPERM)
}
