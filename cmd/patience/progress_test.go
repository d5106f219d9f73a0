package main

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestProgressLogsWhereNoTerminal: to a log file or a pipe, a long job
// writes a plain line every 30 seconds with how far it is, the time left
// and its own counts; a short job writes nothing, and no line carries a
// terminal's control codes.
func TestProgressLogsWhereNoTerminal(t *testing.T) {
	var out bytes.Buffer
	p := newProgress(&out, "solve cromwell", 100)
	clock := p.start
	p.now = func() time.Time { return clock }
	solved := 0
	p.extra = func() string { return "solved " + strconv.Itoa(solved) + "  unknown 0" }
	step := func(after time.Duration, k int) {
		clock = clock.Add(after)
		solved += k
		p.add(k)
	}
	step(10*time.Second, 5)
	step(19*time.Second, 5) // 29 s: not yet
	if out.Len() != 0 {
		t.Fatalf("a line before 30 s: %q", out.String())
	}
	step(2*time.Second, 10) // 31 s, 20 of 100
	want := "solve cromwell: 20/100 (20.0 %), 31s elapsed, ETA 2m4s, solved 20 unknown 0\n"
	if out.String() != want {
		t.Fatalf("got %q, want %q", out.String(), want)
	}
	step(20*time.Second, 10) // 51 s: within 30 s of the last line
	step(15*time.Second, 10) // 66 s: a second line
	step(40*time.Second, 60) // 106 s, done: the command prints its own summary
	p.done()
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[1], "solve cromwell: 40/100 (40.0 %), 1m6s elapsed, ETA 1m39s, solved 40 unknown 0") {
		t.Errorf("lines: %q", lines)
	}
	if strings.ContainsAny(out.String(), "\r\033") {
		t.Errorf("control codes in a log: %q", out.String())
	}
}

// TestProgressTellsTimeLeftFromThisRun: after a resume, the deals taken
// from the journal at once count as done but not toward the rate, so the
// time left is that of the deals this run decided.
func TestProgressTellsTimeLeftFromThisRun(t *testing.T) {
	var out bytes.Buffer
	p := newProgress(&out, "solve limited", 100)
	clock := p.start
	p.now = func() time.Time { return clock }
	p.resume(50)
	p.add(50)                           // the journal's 50, at once
	clock = clock.Add(40 * time.Second) // then 10 deals in 40 s
	p.add(10)
	want := "solve limited: 60/100 (60.0 %), 40s elapsed, ETA 2m40s\n"
	if out.String() != want {
		t.Errorf("got %q, want %q (40 deals left at 4 s a deal)", out.String(), want)
	}
	if _, eta := p.fraction(clock); eta != "2m40s" {
		t.Errorf("time left %s, want 2m40s", eta)
	}
}
