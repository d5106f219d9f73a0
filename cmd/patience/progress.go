package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"
)

// progress draws a one-line progress bar with rate and ETA on a terminal.
// When the output is not a terminal (a log file, a pipe, CI), it writes a
// plain line instead, at most once every logEvery, so that a long job
// shows how far it is and a short one writes nothing.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	label string
	total int64
	n     int64
	// resumed counts the units of n that an earlier run did (taken from a
	// journal at once): the time left is told from the rate of the others.
	resumed int64
	start   time.Time
	last    time.Time
	enabled bool
	extra   func() string
	// now is the clock (time.Now; a test's own).
	now func() time.Time
}

// logEvery is how often progress writes a line to an output that is not
// a terminal.
const logEvery = 30 * time.Second

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func newProgress(w io.Writer, label string, total int64) *progress {
	now := time.Now()
	return &progress{w: w, label: label, total: total, start: now, last: now, enabled: isTerminal(w), now: time.Now}
}

// add records k more units done and redraws at most ten times a second.
func (p *progress) add(k int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n += int64(k)
	now := p.now()
	if !p.enabled {
		if now.Sub(p.last) >= logEvery && p.n < p.total {
			p.last = now
			p.log(now)
		}
		return
	}
	if now.Sub(p.last) > 100*time.Millisecond || p.n == p.total {
		p.last = now
		p.draw()
	}
}

// resume records k of the units done (or to be counted done by add) as
// done by an earlier run: they count toward the share done but not toward
// the rate that tells the time left.
func (p *progress) resume(k int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.resumed += int64(k)
}

// fraction returns the share done and the time left at now ("--" when
// it cannot be told yet): the units left at the rate of those this run
// did.
func (p *progress) fraction(now time.Time) (frac float64, eta string) {
	if p.total > 0 {
		frac = float64(p.n) / float64(p.total)
	}
	eta = "--"
	if ran := p.n - p.resumed; ran > 0 && p.n < p.total {
		eta = (time.Duration(float64(now.Sub(p.start)) / float64(ran) * float64(p.total-p.n))).Round(time.Second).String()
	}
	return frac, eta
}

// log writes a plain progress line, for an output that is not a terminal.
func (p *progress) log(now time.Time) {
	frac, eta := p.fraction(now)
	extra := ""
	if p.extra != nil {
		extra = ", " + strings.Join(strings.Fields(p.extra()), " ")
	}
	fmt.Fprintf(p.w, "%s: %d/%d (%.1f %%), %s elapsed, ETA %s%s\n", p.label, p.n, p.total, 100*frac, now.Sub(p.start).Round(time.Second), eta, extra)
}

func (p *progress) draw() {
	now := p.now()
	el := now.Sub(p.start)
	frac, eta := p.fraction(now)
	const width = 24
	full := int(frac * width)
	bar := strings.Repeat("█", full) + strings.Repeat("░", width-full)
	extra := ""
	if p.extra != nil {
		extra = "  " + p.extra()
	}
	fmt.Fprintf(p.w, "\r%s %s %d/%d  %s elapsed  ETA %s%s\033[K", p.label, bar, p.n, p.total, el.Round(time.Second), eta, extra)
}

// done finishes the line.
func (p *progress) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.enabled {
		p.draw()
		fmt.Fprintln(p.w)
	}
}

// gameCount is a run of games as both bench commands show it: a progress
// bar that follows the games played, and an interrupted run's error that
// says how far it got.
type gameCount struct {
	bar         *progress
	total, done int
	began       time.Time
}

// countGames starts the bar of a run of total games.
func countGames(w io.Writer, label string, total int) *gameCount {
	return &gameCount{bar: newProgress(w, label, int64(total)), total: total, began: time.Now()}
}

// progress moves the bar to done games played: the run's Progress
// (bench.Config's and bench.ProtocolConfig's).
func (g *gameCount) progress(done, _ int) {
	g.bar.add(done - g.done)
	g.done = done
}

// end ends the bar after the run, which returned err: a cancelled run's
// error says how long it ran, how many games it played and what of them
// was kept; any other error is returned as it is.
func (g *gameCount) end(err error, kept string) error {
	g.bar.done()
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("interrupted after %s (%d of %d games played); %s: %w", time.Since(g.began).Round(time.Second), g.done, g.total, kept, err)
	}
	return err
}

// writeElapsed writes how long the games took, on how many workers and on
// what machine.
func (g *gameCount) writeElapsed(w io.Writer, took time.Duration, workers int) {
	fmt.Fprintf(w, "\nElapsed: %s for %d games with %s (%s/%s, %d CPUs).\n",
		took.Round(100*time.Millisecond), g.total, count(workers, "worker"), runtime.GOOS, runtime.GOARCH, runtime.NumCPU())
}
