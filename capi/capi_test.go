package main

import (
	"encoding/json"
	"errors"
	"flag"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/internal/memlimit"
	"github.com/patience-gym/patience/internal/specjson"
)

var update = flag.Bool("update", false, "rewrite the golden file the Python tests read")

// goldenPath is the golden file python/tests reads.
var goldenPath = filepath.Join("..", "python", "tests", "data", "golden.json")

// golden is what the Python package must reproduce: first observations and
// masks of several deals of every game, and one whole game per game played
// by move names.
type golden struct {
	Games map[string]goldenGame `json:"games"`
}

type goldenGame struct {
	Deals []goldenDeal `json:"deals"`
	Game  goldenPlay   `json:"game"`
}

type goldenDeal struct {
	Deal  uint64 `json:"deal"`
	Obs   []int  `json:"obs"`
	Legal []int  `json:"legal"`
}

// goldenPlay is one game: the deal, the moves by name (a random legal
// action each step, drawn with cards.NewRand(deal)), and how it ended.
type goldenPlay struct {
	Deal       uint64   `json:"deal"`
	Moves      []string `json:"moves"`
	Actions    []int    `json:"actions"`
	FinalObs   []int    `json:"final_obs"`
	Return     float64  `json:"return"`
	Progress   int      `json:"progress"`
	Outcome    string   `json:"outcome"`
	Terminated bool     `json:"terminated"`
	Truncated  bool     `json:"truncated"`
}

// makeGolden computes the golden data with plain Envs (not the Vector the
// library wraps, so that the two paths check each other).
func makeGolden(t *testing.T) golden {
	g := golden{Games: map[string]goldenGame{}}
	for _, name := range env.Names() {
		if name == "faultycapi" { // fault_test.go's, not a game of the library
			continue
		}
		var gg goldenGame
		for _, deal := range []uint64{0, 1, 7, 42, 999} {
			e, err := env.Make(name, env.Options{})
			if err != nil {
				t.Fatal(err)
			}
			obs, _ := e.Reset(deal)
			if e.Done() {
				continue // a dead deal: the library would skip it
			}
			gg.Deals = append(gg.Deals, goldenDeal{Deal: deal, Obs: ints(obs), Legal: e.Mask().AppendActions(nil)})
		}
		e, _ := env.Make(name, env.Options{MaxSteps: 300})
		p := goldenPlay{Deal: 3}
		e.Reset(p.Deal)
		rng := cards.NewRand(p.Deal)
		for !e.Done() {
			m := e.Mask()
			a := m.Nth(rng.IntN(m.Count()))
			p.Moves = append(p.Moves, e.ActionString(a))
			p.Actions = append(p.Actions, a)
			_, _, term, trunc, _, err := e.Step(a)
			if err != nil {
				t.Fatal(err)
			}
			p.Terminated, p.Truncated = term, trunc
		}
		p.FinalObs = ints(e.Observation())
		p.Return, p.Progress, p.Outcome = e.Return(), e.Progress(), e.Outcome().String()
		gg.Game = p
		g.Games[name] = gg
	}
	return g
}

// TestGolden checks python/tests/data/golden.json against the games (run
// with -update to rewrite it after a rules change).
func TestGolden(t *testing.T) {
	want := makeGolden(t)
	if *update {
		b, err := json.Marshal(want)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(goldenPath, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	b, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatalf("%v (go test ./capi -run TestGolden -update writes it)", err)
	}
	var got golden
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s is out of date: go test ./capi -run TestGolden -update rewrites it", goldenPath)
	}
}

func TestCreateErrors(t *testing.T) {
	for _, c := range []struct{ game, opts, want string }{
		{"nosuch", "", "unknown game"},
		{"cromwell", `{"max_steps": -1}`, "negative"},
		{"cromwell", `{"reward": "dense"}`, "reward"},
		{"cromwell", `{"autoreset": "sometimes"}`, "autoreset"},
		{"cromwell", `{"illegal": "ignore"}`, "illegal"},
		{"cromwell", `{"colour": 1}`, "unknown field"},
		{"cromwell", `{`, "options"},
	} {
		if _, err := create(c.game, 2, c.opts); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("create(%q, %q): %v, want an error containing %q", c.game, c.opts, err, c.want)
		}
	}
	if _, err := create("cromwell", 0, ""); err == nil {
		t.Error("a vector of 0 environments made")
	}
	id, err := create("Royal Parade", 3, `{"autoreset":"same-step","illegal":"noop","max_steps":10}`)
	if err != nil {
		t.Fatal(err)
	}
	if !closeHandle(id) || closeHandle(id) || lookup(id) != nil {
		t.Error("a handle closed twice or still listed")
	}
}

// A vector too large for the memory available is refused by create and
// by pg_vector_bytes's check before anything is allocated, naming the
// bytes; a size that fits is worked out and allowed.
func TestVectorTooLargeIsRefused(t *testing.T) {
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	_, err := create("cromwell", 100_000_000, "")
	runtime.ReadMemStats(&m1)
	if !errors.Is(err, memlimit.ErrTooBig) || !strings.Contains(err.Error(), "bytes") {
		t.Errorf("create(cromwell, 10^8): %v", err)
	}
	if got := m1.TotalAlloc - m0.TotalAlloc; got > 1<<20 {
		t.Errorf("refusing allocated %d bytes", got)
	}
	if _, err := vectorBytes("cromwell", 4, "", math.MaxInt64); !errors.Is(err, memlimit.ErrTooBig) {
		t.Errorf("4 environments and the caller's 2^63 bytes: %v", err)
	}
	need, err := vectorBytes("limited", 1000, `{"autoreset":"same-step"}`, 0)
	if err != nil || need < 1000*100 || need > 1000*100_000 {
		t.Errorf("1,000 Limited environments: %d bytes, %v", need, err)
	}
}

func TestSpecsJSON(t *testing.T) {
	var specs []specjson.Spec
	if err := json.Unmarshal([]byte(specsJSON()), &specs); err != nil {
		t.Fatal(err)
	}
	games := 0
	seen := map[string]bool{}
	for _, s := range specs {
		id := s.Name
		if s.Variant != "" {
			id += ":" + s.Variant
		} else {
			games++
		}
		seen[id] = true
		want, err := env.Lookup(id)
		if err != nil {
			t.Fatal(err)
		}
		if s.Actions != want.Actions || s.ObsLen != want.ObsLen || s.OneHotLen != want.OneHotLen() ||
			s.RulesVersion != want.RulesVersion || s.Title != want.Title || len(s.ActionRanges) != len(want.ActionRanges) {
			t.Errorf("%s: spec JSON differs from the spec", id)
		}
	}
	if games != len(env.Names()) {
		t.Fatalf("%d default specs for %d games", games, len(env.Names()))
	}
	// The variants Python offers through gym.make: their own action spaces
	// (Four Quarters' hub pairs add actions).
	for _, id := range []string{"cromwell:noswap", "fourquarters:hub"} {
		if !seen[id] {
			t.Errorf("no spec for the variant %s", id)
		}
	}
}

// openHandle makes a vector as pg_create does, to be closed when the test
// ends, and returns its handle.
func openHandle(t *testing.T, game string, n int64, options string) (int64, *handle) {
	t.Helper()
	id, err := create(game, n, options)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeHandle(id) })
	return id, lookup(id)
}

// ints copies bytes into ints (JSON arrays rather than base64).
func ints(b []uint8) []int {
	out := make([]int, len(b))
	for i, v := range b {
		out[i] = int(v)
	}
	return out
}

// TestAgentActAcrossCores asks agents for moves in many environments at
// once (the goroutines pg_agent_act uses): the moves are legal and two
// runs choose the same ones; CI runs it with the race detector.
func TestAgentActAcrossCores(t *testing.T) {
	for _, agent := range []string{"heuristic", "mc:rollouts=2,rollout-steps=10"} {
		var runs [2][]int64
		for r := range runs {
			_, h := openHandle(t, "limited", 6, "")
			if err := h.v.Reset(300); err != nil {
				t.Fatal(err)
			}
			for step := 0; step < 5; step++ {
				tc, err := h.teacherFor(agent, 9)
				if err != nil {
					t.Fatal(err)
				}
				out := make([]int64, h.v.Len())
				if err := tc.act(h, out, nil); err != nil {
					t.Fatal(err)
				}
				for i, a := range out {
					if !h.v.Mask(i).Has(int(a)) {
						t.Fatalf("%s: environment %d: action %d is not legal", agent, i, a)
					}
					h.actions[i] = int(a)
				}
				runs[r] = append(runs[r], out...)
				if err := h.v.Step(h.actions); err != nil {
					t.Fatal(err)
				}
			}
		}
		if !reflect.DeepEqual(runs[0], runs[1]) {
			t.Errorf("%s: two runs chose %v and %v", agent, runs[0], runs[1])
		}
	}
	// Environments left out by where get -1 and are not asked.
	_, h := openHandle(t, "limited", 4, "")
	if err := h.v.Reset(300); err != nil {
		t.Fatal(err)
	}
	tc, err := h.teacherFor("heuristic", 0)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]int64, 4)
	if err := tc.act(h, out, []uint8{1, 0, 1, 0}); err != nil {
		t.Fatal(err)
	}
	for i, a := range out {
		if asked := i%2 == 0; asked != (a >= 0) || (asked && !h.v.Mask(i).Has(int(a))) {
			t.Errorf("where 1,0,1,0: environment %d got action %d", i, a)
		}
	}
	if _, err := h.teacherFor("solver", 0); err == nil || !strings.Contains(err.Error(), "sees the hidden cards") {
		t.Errorf("solver in Limited: %v", err)
	}
	if _, err := h.teacherFor("nope", 0); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("unknown agent: %v", err)
	}
}

// TestSolverTeachesInOpenGames: the solver sees nothing a player does not
// in The Fifteen, so pg_agent_act lets it teach there (DAgger with the
// solver); following its moves wins deals the solver wins.
func TestSolverTeachesInOpenGames(t *testing.T) {
	_, h := openHandle(t, "fifteen", 2, "")
	if err := h.v.Reset(700); err != nil {
		t.Fatal(err)
	}
	out := make([]int64, h.v.Len())
	deals := append([]uint64(nil), h.v.Seeds()...)
	outcome := make([]env.Outcome, h.v.Len())
	for step := 0; step < h.v.Spec().MaxSteps; step++ {
		tc, err := h.teacherFor("solver:nodes=200000", 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := tc.act(h, out, nil); err != nil {
			t.Fatal(err)
		}
		done := true
		for i, a := range out {
			h.actions[i] = int(a) // after its episode, an environment plays its next deal
			done = done && outcome[i] != env.Running
		}
		if done {
			break
		}
		if err := h.v.Step(h.actions); err != nil {
			t.Fatal(err)
		}
		for i := range outcome {
			if e := h.v.Env(i); outcome[i] == env.Running && e.Done() {
				outcome[i] = e.Outcome()
			}
		}
	}
	for i, o := range outcome {
		if o != env.Won {
			t.Errorf("deal %d, played by the solver: %v", deals[i], o)
		}
	}
}

// A count past what one vector can hold is refused as too much memory,
// with the count asked for in the message.
func TestVectorOfTooManyIsRefused(t *testing.T) {
	_, err := vectorBytes("limited", math.MaxInt64, "", 0)
	if !errors.Is(err, memlimit.ErrTooBig) || !strings.Contains(err.Error(), "9223372036854775807 limited environments") {
		t.Errorf("2^63-1 environments: %v", err)
	}
}
