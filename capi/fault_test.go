package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/internal/faultgame"
)

// faulty is Limited's rules with a panic armed on demand (this test
// binary's own copy; the pgfault build registers "faulty").
var faulty = faultgame.Register("faultycapi", "limited")

// TestPanicBecomesCode arms a panic in a worker goroutine's environment
// and checks the codes a C caller sees: PG_INTERNAL with the panic in the
// message, then PG_BROKEN for every step, sample or agent call, until a
// reset mends the handle.
func TestPanicBecomesCode(t *testing.T) {
	_, h := openHandle(t, "faultycapi", 4, `{"workers": 2}`)
	if err := h.v.Reset(50); err != nil {
		t.Fatal(err)
	}
	if err := h.v.SampleActions(h.actions); err != nil {
		t.Fatal(err)
	}
	faulty.Arm(h.v.Seeds()[3])
	if code := status(h, h.v.Step(h.actions)); code != codeInternal || !strings.Contains(h.lastErr, "environment 3: internal error") {
		t.Fatalf("step with a panic: code %d, message %q", code, h.lastErr)
	}
	if !h.broken {
		t.Error("the handle is not marked broken")
	}
	if code := status(h, h.usable()); code != codeBroken || !strings.Contains(h.lastErr, "call reset") {
		t.Errorf("a broken handle: code %d, message %q", code, h.lastErr)
	}
	if code := status(h, h.v.Step(h.actions)); code != codeBroken {
		t.Errorf("the vector's own refusal: code %d, message %q", code, h.lastErr)
	}
	if err := h.v.Reset(60); err != nil {
		t.Fatal(err)
	}
	h.broken = false // what pg_reset does after a successful reset
	if err := errors.Join(h.usable(), h.v.SampleActions(h.actions)); err != nil {
		t.Fatal(err)
	}
	if err := h.v.Step(h.actions); err != nil {
		t.Fatalf("step after reset: %v", err)
	}
	var _ *env.PanicError // the type status maps to PG_INTERNAL
}

// TestBusyHandleRefused: while one thread is inside a call on a handle (its
// lock held), a call from another thread gets PG_BUSY; once the first call returns, the handle is usable again.
func TestBusyHandleRefused(t *testing.T) {
	id, h := openHandle(t, "limited", 2, `{"workers": 1}`)
	h.mu.Lock() // another thread is inside a call
	got := make(chan int64)
	go func() {
		g, code := acquire(id)
		if g != nil {
			g.mu.Unlock()
		}
		got <- int64(code)
	}()
	if code := <-got; code != codeBusy {
		t.Fatalf("a call on a handle in use: code %d, want PG_BUSY (%d)", code, codeBusy)
	}
	h.mu.Unlock()
	g, code := acquire(id)
	if g == nil || code != codeOK {
		t.Fatalf("a call after the first returned: code %d", code)
	}
	g.mu.Unlock()
}
