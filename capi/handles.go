package main

import (
	"encoding/json"
	"fmt"
	"math"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/patience-gym/patience/env"
	_ "github.com/patience-gym/patience/env/all" // registers the games
	"github.com/patience-gym/patience/internal/memlimit"
	"github.com/patience-gym/patience/internal/specjson"
	"github.com/patience-gym/patience/render"
	_ "github.com/patience-gym/patience/solver/all" // and their search knowledge (the solver agent, the verdicts)
)

// Options are the options of pg_create, given as a JSON object; every field
// may be left out.
type Options struct {
	// MaxSteps is the step limit (0: the game's default).
	MaxSteps int `json:"max_steps"`
	// Reward is "progress" (the default) or "sparse".
	Reward string `json:"reward"`
	// Autoreset is "next-step" (the default) or "same-step".
	Autoreset string `json:"autoreset"`
	// Illegal is "refuse" (the default: an illegal action is an error and
	// changes nothing) or "noop" (see env.IllegalNoOp).
	Illegal string `json:"illegal"`
	// IllegalReward is the reward of a refused action under "noop".
	IllegalReward float64 `json:"illegal_reward"`
	// Workers is the number of goroutines stepping the vector (0: one per
	// core, at most one per environment).
	Workers int `json:"workers"`
}

// parseOptions reads the options JSON ("" for the defaults) into
// env.VectorOptions. Unknown fields are errors.
func parseOptions(s string) (env.VectorOptions, error) {
	var o Options
	var vo env.VectorOptions
	if s != "" {
		if err := decodeStrict(s, &o); err != nil {
			return vo, fmt.Errorf("options %s: %w", s, err)
		}
	}
	if o.MaxSteps < 0 {
		return vo, fmt.Errorf("option max_steps: %d is negative", o.MaxSteps)
	}
	if o.Workers < 0 {
		return vo, fmt.Errorf("option workers: %d is negative", o.Workers)
	}
	r, err := env.ParseRewardMode(o.Reward)
	if err != nil {
		return vo, fmt.Errorf("option reward: %w", err)
	}
	vo.Options = env.Options{MaxSteps: o.MaxSteps, Reward: r}
	if vo.Autoreset, err = env.ParseAutoresetMode(o.Autoreset); err != nil {
		return vo, fmt.Errorf("option autoreset: %w", err)
	}
	if vo.Illegal, err = env.ParseIllegalPolicy(o.Illegal); err != nil {
		return vo, fmt.Errorf("option illegal: %w", err)
	}
	vo.IllegalReward = o.IllegalReward
	vo.Workers = o.Workers
	return vo, nil
}

// decodeStrict reads the JSON object s into v: a field v does not have is
// an error, as a misspelt option must be.
func decodeStrict(s string, v any) error {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// handle is one vector behind an integer handle.
type handle struct {
	mu      sync.Mutex // held during every call on the handle
	v       *env.Vector
	actions []int
	lastErr string
	closed  bool
	broken  bool           // a panic broke the handle: refuse steps until a reset
	rows    bound          // pg_bind1's rows
	canvas  *render.Canvas // pg_render_rgb's, made on its first call
	teacher *teacher       // pg_agent_act's agents
}

// handles is the table of open handles.
var handles struct {
	sync.RWMutex
	m    map[int64]*handle
	next int64
}

// maxEnvs bounds the size of one vector (a typo such as 1e9 environments
// should be an error, not an out-of-memory crash).
const maxEnvs = 1 << 20

// vectorBytes returns the bytes a vector of n environments of game takes
// in Go (env.VectorBytes and the handle's own), after checking that they
// and extra bytes the caller will allocate for it fit in the memory
// available (memlimit.Check): an error names the bytes and the limit.
func vectorBytes(game string, n int64, options string, extra uint64) (uint64, error) {
	if n <= 0 {
		return 0, fmt.Errorf("%d environments (want 1 to %d)", n, maxEnvs)
	}
	opts, err := parseOptions(options)
	if err != nil {
		return 0, err
	}
	count := min(n, math.MaxUint32) // a count this large is refused below as too much memory
	need, err := env.VectorBytes(game, int(count), opts)
	if err != nil {
		return 0, err
	}
	if count < n {
		need = math.MaxUint64
	}
	need = memlimit.Add(need, memlimit.Mul(uint64(n), 8)) // the handle's actions
	if err := memlimit.Check(fmt.Sprintf("a vector of %d %s environments", n, game), memlimit.Add(need, extra)); err != nil {
		return 0, err
	}
	return need, nil
}

// create makes a vector and returns its new handle.
func create(game string, n int64, options string) (int64, error) {
	if _, err := vectorBytes(game, n, options, 0); err != nil {
		return 0, err
	}
	if n <= 0 || n > maxEnvs {
		return 0, fmt.Errorf("%d environments (want 1 to %d)", n, maxEnvs)
	}
	opts, err := parseOptions(options)
	if err != nil {
		return 0, err
	}
	v, err := env.NewVector(game, int(n), opts)
	if err != nil {
		return 0, err
	}
	h := &handle{v: v, actions: make([]int, n)}
	handles.Lock()
	defer handles.Unlock()
	if handles.m == nil {
		handles.m = map[int64]*handle{}
	}
	handles.next++
	handles.m[handles.next] = h
	return handles.next, nil
}

// lookup returns the open handle id, or nil.
func lookup(id int64) *handle {
	handles.RLock()
	h := handles.m[id]
	handles.RUnlock()
	return h
}

// closeHandle removes a handle from the table, waits for a call in progress
// on it, and stops its vector. It reports false for an unknown handle.
func closeHandle(id int64) bool {
	handles.Lock()
	h := handles.m[id]
	delete(handles.m, id)
	handles.Unlock()
	if h == nil {
		return false
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	h.v.Close()
	return true
}

// withBuffers runs f with the vector writing into b, then points the vector
// back at its own buffers, so that it keeps no pointer to the caller's
// memory after the call.
func (h *handle) withBuffers(b env.VectorBuffers, f func() error) error {
	if err := h.v.SetBuffers(b); err != nil {
		return err
	}
	defer h.v.SetBuffers(env.VectorBuffers{})
	return f()
}

// checkIndex checks an environment index.
func (h *handle) checkIndex(i int) error {
	if i < 0 || i >= h.v.Len() {
		return fmt.Errorf("environment %d of a vector of %d", i, h.v.Len())
	}
	return nil
}

// specsJSON returns every registered game's spec as a JSON array, sorted by
// name, each game's default rules followed by its variants, each in the one
// JSON form of a Spec (package specjson) that the datasets' metadata holds
// too ("variant" is absent for the default rules).
func specsJSON() string {
	var out []specjson.Spec
	for _, s := range env.Specs() {
		out = append(out, specjson.Of(s))
		variants, err := env.Variants(s.Name)
		if err != nil {
			panic(err) // the name came from the registry
		}
		for _, v := range variants {
			vs, err := env.Lookup(s.Name + ":" + v)
			if err != nil {
				panic(err) // a variant the game itself lists
			}
			out = append(out, specjson.Of(vs))
		}
	}
	b, err := json.Marshal(out)
	if err != nil {
		panic(err) // plain structs always marshal
	}
	return string(b)
}

// lengthError reports a buffer of the wrong length.
func lengthError(what string, got, want int) error {
	return fmt.Errorf("%d %s for a vector of %d environments", got, what, want)
}

// actionRangeError reports an action id outside the action space.
func actionRangeError(s *env.Spec, a int64) error {
	return fmt.Errorf("%s: no action %d (the ids are 0..%d)", s.Name, a, s.Actions-1)
}

// firstLine returns s up to its first newline.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// panicMessage turns a recovered panic into an error message with its stack.
func panicMessage(r any) string {
	return fmt.Sprintf("internal error (please report it): %v\n%s", r, debug.Stack())
}
