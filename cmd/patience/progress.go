package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// progress draws a one-line progress bar with rate and ETA on a terminal,
// and nothing when the output is not a terminal.
type progress struct {
	mu      sync.Mutex
	w       io.Writer
	label   string
	total   int64
	n       int64
	start   time.Time
	last    time.Time
	enabled bool
	extra   func() string
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func newProgress(w io.Writer, label string, total int64) *progress {
	return &progress{w: w, label: label, total: total, start: time.Now(), enabled: isTerminal(w)}
}

// add records k more units done and redraws at most ten times a second.
func (p *progress) add(k int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n += int64(k)
	if !p.enabled {
		return
	}
	if now := time.Now(); now.Sub(p.last) > 100*time.Millisecond || p.n == p.total {
		p.last = now
		p.draw()
	}
}

func (p *progress) draw() {
	el := time.Since(p.start)
	frac := 0.0
	if p.total > 0 {
		frac = float64(p.n) / float64(p.total)
	}
	const width = 24
	full := int(frac * width)
	bar := strings.Repeat("█", full) + strings.Repeat("░", width-full)
	eta := "--"
	if p.n > 0 && p.n < p.total {
		eta = (time.Duration(float64(el) / frac * (1 - frac))).Round(time.Second).String()
	}
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
