package env

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/internal/memlimit"
)

// AutoresetMode says how a Vector restarts an environment whose episode
// ended, following Gymnasium's vector environments.
type AutoresetMode uint8

// The autoreset modes.
const (
	// NextStep (the default): the step that ends an episode returns its
	// final observation with terminated or truncated set; the next Step
	// ignores that environment's action, resets it and returns the first
	// observation of the new episode with reward 0 and both flags false.
	NextStep AutoresetMode = iota
	// SameStep: the step that ends an episode resets the environment at
	// once and returns the new episode's first observation, with the ended
	// episode's reward and flags; the final observation is kept aside in
	// FinalObs and HasFinal is set for that environment (until the next
	// Step).
	SameStep
)

// String returns "next-step" or "same-step".
func (m AutoresetMode) String() string {
	if m == SameStep {
		return "same-step"
	}
	return "next-step"
}

// ParseAutoresetMode reads "next-step" (or "", the default) or
// "same-step".
func ParseAutoresetMode(s string) (AutoresetMode, error) {
	return parseMode("autoreset mode", s, NextStep, SameStep)
}

// VectorOptions tune a Vector.
type VectorOptions struct {
	// Options are every environment's options.
	Options
	// Autoreset is the autoreset mode (NextStep by default).
	Autoreset AutoresetMode
	// Workers is the number of goroutines that step the environments
	// (default GOMAXPROCS, at most one per environment).
	Workers int
	// Illegal says what an illegal action does (IllegalRefuse by default).
	Illegal IllegalPolicy
	// IllegalReward is the reward of an illegal action under IllegalNoOp.
	IllegalReward float64
}

// IllegalPolicy says what a Vector does with an illegal action.
type IllegalPolicy uint8

// The illegal-action policies.
const (
	// IllegalRefuse (the default): Step returns an error naming the
	// environment and the move, and changes nothing.
	IllegalRefuse IllegalPolicy = iota
	// IllegalNoOp: the environment is left as it was, its Illegal flag is
	// set, its reward is VectorOptions.IllegalReward, and the refused
	// action still counts as a step towards the step limit, so that a
	// policy that keeps choosing illegal actions is truncated like any
	// other. An action id outside the action space is still an error.
	IllegalNoOp
)

// String returns "refuse" or "noop".
func (p IllegalPolicy) String() string {
	if p == IllegalNoOp {
		return "noop"
	}
	return "refuse"
}

// ParseIllegalPolicy reads "refuse" (or "", the default) or "noop".
func ParseIllegalPolicy(s string) (IllegalPolicy, error) {
	return parseMode("illegal-action policy", s, IllegalRefuse, IllegalNoOp)
}

// VectorBuffers are destinations a caller provides for a Vector's results
// (see SetBuffers), for example memory owned by another language. Every
// slice is either nil or exactly as long as documented, N being the number
// of environments.
type VectorBuffers struct {
	Obs        []uint8   // N × ObsLen observations
	Rewards    []float64 // N rewards
	Terminated []bool    // N flags
	Truncated  []bool    // N flags
	FinalObs   []uint8   // N × ObsLen final observations (SameStep mode)
	HasFinal   []bool    // N flags
	Illegal    []bool    // N flags: the action was refused (IllegalNoOp)
	// MaskWords, when set, receives the masks' words (see Vector) instead
	// of the Vector's own buffer. On a little-endian machine the first
	// (Actions+7)/8 bytes of each row of W words are the packed mask of
	// MaskPacked's form, so a caller that gives MaskWords reads the packed
	// masks with no second copy.
	MaskWords []uint64
	// MaskBytes, when set, receives every mask as N × Actions bytes, 1 for
	// a legal action and 0 otherwise (the form NumPy reads as bool). The
	// Vector keeps these bytes up to date rather than rewriting them: a
	// Step writes only the bytes of the actions whose legality changed
	// since its last write to the same memory, so the caller must only
	// read them. A Reset, or a row at an address the Vector did not last
	// write to, rewrites every byte of the row.
	MaskBytes []uint8
	// MaskPacked, when set, receives every mask bit-packed as N × P bytes,
	// P = (Actions+7)/8: action a of environment i is bit a%8 (the least
	// significant bit first) of byte i*P + a/8 (Mask.PutPacked's form).
	MaskPacked []uint8
	// OneHot, when set, receives the one-hot expansion of every
	// observation (Spec.OneHot): N × Spec.OneHotLen() floats.
	OneHot []float32
	// FinalOneHot, when set, receives the one-hot expansion of the final
	// observations (SameStep mode): N × Spec.OneHotLen() floats.
	FinalOneHot []float32
}

// Vector is N environments of one game stepped together by worker
// goroutines, writing into contiguous buffers the caller reads after each
// call (they are overwritten by the next one):
//
//	Obs         N × ObsLen observation bytes, environment i at [i*L, (i+1)*L)
//	MaskWords   N × W words of legal-action bits, W = (Actions+63)/64;
//	            bit a%64 of word i*W + a/64 is action a of environment i
//	Rewards     N rewards of the last step
//	Terminated  N flags: the last step won or ran out of legal moves
//	Truncated   N flags: the last step reached the step limit
//	FinalObs    N × ObsLen final observations (SameStep mode only)
//	HasFinal    N flags: FinalObs holds environment i's final observation
//	Illegal     N flags: the last step refused environment i's action
//	            (IllegalNoOp only)
//	MaskBytes   N × Actions bytes, 1 for a legal action (only if set by
//	            SetBuffers; nil otherwise)
//	MaskPacked  N × (Actions+7)/8 bytes, the masks bit-packed (only if set
//	            by SetBuffers)
//	OneHot      N × Spec.OneHotLen() one-hot observations (only if set
//	            by SetBuffers)
//	FinalOneHot the same for FinalObs (only if set by SetBuffers)
//
// SetBuffers points these at memory the caller provides, so that results are
// written where the caller reads them with no copy.
//
// Environment i is dealt seed+i by Reset (or seeds[i] by ResetSeeds), and
// each later episode of environment i is dealt its previous seed + N, so
// that with the default seeds the N environments play seed, seed+1, ...
// without repeats. A deal with no legal move at all is skipped the same way
// (seed + N), so every environment that is not waiting for its next-step
// autoreset has a legal action. Results do not depend on the number of
// workers.
//
// A panic while stepping, resetting or sampling an environment (a bug in a
// game's rules) does not crash the process: it is recovered in the worker
// that ran it, the call returns a *PanicError naming the environment, and
// that environment is broken (Broken) until the next Reset: Step and
// SampleActions refuse with an error wrapping ErrBroken meanwhile.
//
// A Vector is not safe for concurrent use. Close it to stop its workers.
type Vector struct {
	envs       []*Env
	spec       *Spec
	mode       AutoresetMode
	obsLen     int
	words      int
	seeds      []uint64
	needsReset []bool
	actions    []int
	sampled    []int        // where SampleActions writes
	rngs       []cards.Rand // one generator per environment, for SampleActions
	pre        []int        // the draws made ahead by the last step or reset (see SampleActions)
	preFresh   bool         // pre holds draws for the current states, not yet returned
	illegal    IllegalPolicy
	illReward  float64
	refused    []bool // this step's refused actions (IllegalNoOp)
	noops      []int  // refused actions this episode, counted as steps
	oneHotLen  int
	packedLen  int
	own        VectorBuffers       // the Vector's own buffers, used where the caller gives none
	broken     []*PanicError       // broken[i]: the panic that broke environment i, until Reset
	failed     atomic.Bool         // a panic was recovered in the current call
	each       func(i int, e *Env) // the function of a jobEach
	// shown[i*W:(i+1)*W] are the mask words that the MaskBytes row at
	// shownAt[i] shows (nil: none known, the next write rewrites the row).
	shown   []uint64
	shownAt []*uint8

	Obs        []uint8
	MaskWords  []uint64
	Rewards    []float64
	Terminated []bool
	Truncated  []bool
	FinalObs   []uint8
	HasFinal   []bool
	Illegal    []bool

	MaskBytes   []uint8
	MaskPacked  []uint8
	OneHot      []float32
	FinalOneHot []float32

	shares   []share // shares[0] is the caller's, shares[w] worker w's
	workers  []*worker
	job      job          // the job of the current generation
	gen      uint64       // the current generation
	finished atomic.Int64 // environments done in the current generation
	closed   bool
}

// share is one goroutine's home share of the environments, [lo, hi), and a
// cursor over the part of it not yet claimed in the current call, packed
// as lo<<32 | hi. Its goroutine claims chunks from the front; a goroutine
// that has run out of its own share claims chunks from the back of the
// others'. A call thus ends when every environment is done, not when the
// slowest goroutine has done a fixed share: on a shared machine the host
// now and then pauses a thread for longer than a whole step takes, and
// the others then step its environments. As long as no goroutine lags, each
// keeps its own environments (and their memory in its core's cache).
type share struct {
	cur   atomic.Uint64
	lo    int
	hi    int
	chunk int
	_     [32]byte // a share per cache line: the cursors are written by different cores
}

// claim claims a chunk of the share's unclaimed part: the first one, or
// the last one if back is set; ok is false when none is left.
func (s *share) claim(back bool) (lo, hi int, ok bool) {
	for {
		c := s.cur.Load()
		lo, hi := int(c>>32), int(uint32(c))
		if lo >= hi {
			return 0, 0, false
		}
		if back {
			start := max(hi-s.chunk, lo)
			if s.cur.CompareAndSwap(c, uint64(lo)<<32|uint64(start)) {
				return start, hi, true
			}
			continue
		}
		end := min(lo+s.chunk, hi)
		if s.cur.CompareAndSwap(c, uint64(end)<<32|uint64(hi)) {
			return lo, end, true
		}
	}
}

// worker is a goroutine that steps its share of the environments (and
// any other share's the others have not reached: see share). It spins
// briefly waiting for the next job (a step is a few microseconds of work per
// worker, too short to park and wake a goroutine for), then sleeps until
// woken. It spins on the flag without yielding: each runtime.Gosched wakes
// an idle P's thread to look for work, and when the caller is a C thread
// (the Python package) that thread takes a core from the caller between
// steps (measured with python/bench/bench.py: Limited's VectorEnv on two
// cores went from 59 % to 79 % of Go's vector).
type worker struct {
	home     int           // its share: shares[home]
	gen      atomic.Uint64 // the generation asked for
	done     atomic.Uint64 // the generation finished
	sleeping atomic.Bool
	wake     chan struct{} // capacity 1: a token wakes a sleeping worker
	quit     atomic.Bool
}

// spinFor is how long a worker spins waiting for the next job before it
// sleeps: long enough that a caller stepping in a loop never waits for a
// goroutine to be woken (which can cost more than the step itself), short
// enough that an idle vector stops using the CPU at once.
const spinFor = 200 * time.Microsecond

type job uint8

const (
	jobStep job = iota
	jobReset
	jobSample
	jobEach
)

// NewVector makes a Vector of n environments of the named game.
func NewVector(name string, n int, opts VectorOptions) (*Vector, error) {
	if n <= 0 || uint64(n) > math.MaxUint32 {
		return nil, fmt.Errorf("vector of %s: %d environments (want 1 to %d)", name, n, uint64(math.MaxUint32))
	}
	if opts.Autoreset > SameStep {
		return nil, fmt.Errorf("vector of %s: unknown autoreset mode %d", name, opts.Autoreset)
	}
	if opts.Illegal > IllegalNoOp {
		return nil, fmt.Errorf("vector of %s: unknown illegal-action policy %d", name, opts.Illegal)
	}
	if math.IsNaN(opts.IllegalReward) || math.IsInf(opts.IllegalReward, 0) {
		return nil, fmt.Errorf("vector of %s: illegal-action reward %v is not a finite number", name, opts.IllegalReward)
	}
	need, err := VectorBytes(name, n, opts)
	if err != nil {
		return nil, err
	}
	if err := memlimit.Check(fmt.Sprintf("vector of %s, %d environments", name, n), need); err != nil {
		return nil, err
	}
	v := &Vector{mode: opts.Autoreset, illegal: opts.Illegal, illReward: opts.IllegalReward}
	for range n {
		e, err := Make(name, opts.Options)
		if err != nil {
			return nil, err
		}
		v.envs = append(v.envs, e)
	}
	v.spec = v.envs[0].Spec()
	v.obsLen = v.spec.ObsLen
	v.words = (v.spec.Actions + 63) / 64
	v.seeds = make([]uint64, n)
	v.needsReset = make([]bool, n)
	v.actions = make([]int, n)
	v.rngs = make([]cards.Rand, n)
	v.Obs = make([]uint8, n*v.obsLen)
	v.MaskWords = make([]uint64, n*v.words)
	v.Rewards = make([]float64, n)
	v.Terminated = make([]bool, n)
	v.Truncated = make([]bool, n)
	v.HasFinal = make([]bool, n)
	v.Illegal = make([]bool, n)
	v.refused = make([]bool, n)
	v.noops = make([]int, n)
	v.oneHotLen = v.spec.OneHotLen()
	v.packedLen = (v.spec.Actions + 7) / 8
	v.broken = make([]*PanicError, n)
	v.shown = make([]uint64, n*v.words)
	v.shownAt = make([]*uint8, n)
	if v.mode == SameStep {
		v.FinalObs = make([]uint8, n*v.obsLen)
	}
	v.own = v.buffers()
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, n)
	// The caller steps the first share; one goroutine steps each other.
	// The shares are all set before any worker starts (workers read them).
	for w := range workers {
		lo, hi := w*n/workers, (w+1)*n/workers
		v.shares = append(v.shares, share{lo: lo, hi: hi, chunk: max(1, min(64, (hi-lo)/16))})
	}
	for k := 1; k < workers; k++ {
		wk := &worker{home: k, wake: make(chan struct{}, 1)}
		v.workers = append(v.workers, wk)
		go v.work(wk)
	}
	return v, nil
}

// VectorBytes returns the bytes NewVector allocates for n environments of
// the named game (at least: an episode's own history grows as it is
// played), without allocating them: n times one environment's footprint,
// measured once per game by making and dealing one (see envBytes), plus
// the Vector's own arrays per environment, worked out from the game's Spec.
// NewVector refuses a vector whose bytes exceed memlimit.Available.
func VectorBytes(name string, n int, opts VectorOptions) (uint64, error) {
	if n < 0 {
		return 0, fmt.Errorf("vector of %s: %d environments", name, n)
	}
	spec, err := Lookup(name)
	if err != nil {
		return 0, err
	}
	one, err := envBytes(spec, name, opts.Options)
	if err != nil {
		return 0, err
	}
	words := uint64(spec.Actions+63) / 64
	obs := uint64(spec.ObsLen)
	if opts.Autoreset == SameStep {
		obs *= 2 // FinalObs
	}
	per := one +
		8 + // envs: a pointer each
		8 + 1 + 8 + 8 + 8 + 8 + 8 + // seeds, needsReset, actions, sampled, pre, rngs, noops
		obs + 8*words + 8 + 4 + 1 + // Obs (and FinalObs), MaskWords, Rewards, the flags, refused
		8 + 8*words + 8 // broken, shown, shownAt
	return memlimit.Mul(uint64(n), per), nil
}

// envSizes caches envBytes by game (with its variant).
var envSizes sync.Map

// envBytes returns the heap bytes that making and dealing one environment
// of the game allocates: the least of three tries (another goroutine's
// allocations during a try only add to it), measured once per game.
func envBytes(spec *Spec, name string, opts Options) (uint64, error) {
	key := spec.ID()
	if b, ok := envSizes.Load(key); ok {
		return b.(uint64), nil
	}
	best := uint64(math.MaxUint64)
	var before, after runtime.MemStats
	for range 3 {
		runtime.ReadMemStats(&before)
		e, err := Make(name, opts)
		if err != nil {
			return 0, err
		}
		e.Reset(0)
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(e)
		best = min(best, after.TotalAlloc-before.TotalAlloc)
	}
	envSizes.Store(key, best)
	return best, nil
}

// Len returns the number of environments.
func (v *Vector) Len() int { return len(v.envs) }

// Spec returns the game's description.
func (v *Vector) Spec() *Spec { return v.spec }

// Mode returns the autoreset mode.
func (v *Vector) Mode() AutoresetMode { return v.mode }

// Workers returns the number of workers: the calling goroutine and the
// worker goroutines.
func (v *Vector) Workers() int { return len(v.shares) }

// Env returns environment i (for rendering and inspection; do not step it
// directly).
func (v *Vector) Env(i int) *Env { return v.envs[i] }

// Mask returns environment i's legal actions (aliased).
func (v *Vector) Mask(i int) *Mask { return v.envs[i].Mask() }

// ObsOf returns environment i's observation in Obs (aliased).
func (v *Vector) ObsOf(i int) []uint8 { return v.Obs[i*v.obsLen : (i+1)*v.obsLen] }

// Info returns environment i's Info, its Outcome Truncated when refused
// actions (IllegalNoOp) ran the episode into its step limit while the
// environment waits for its next-step autoreset (its Env alone would say
// Running: it never saw the refused actions).
func (v *Vector) Info(i int) Info {
	in := v.envs[i].Info()
	if in.Outcome == Running && v.needsReset[i] {
		in.Outcome = Truncated
	}
	return in
}

// Seeds returns the deal of each environment's current episode (aliased).
func (v *Vector) Seeds() []uint64 { return v.seeds }

// Reset deals seed+i to environment i and fills the buffers.
func (v *Vector) Reset(seed uint64) error {
	for i := range v.seeds {
		v.seeds[i] = seed + uint64(i)
	}
	return v.reset()
}

// ResetSeeds deals seeds[i] to environment i and fills the buffers.
func (v *Vector) ResetSeeds(seeds []uint64) error {
	if len(seeds) != len(v.envs) {
		return fmt.Errorf("vector reset: %d seeds for %d environments", len(seeds), len(v.envs))
	}
	copy(v.seeds, seeds)
	return v.reset()
}

// reset seeds each environment's sampler from its first deal, mends the
// broken environments and deals.
func (v *Vector) reset() error {
	for i, s := range v.seeds {
		v.rngs[i].Seed(s ^ 0xA5A5_5A5A_C3C3_3C3C)
	}
	clear(v.broken)
	return v.run(jobReset)
}

// PanicError reports a panic recovered while the Vector worked on one
// environment: a bug, never the caller's fault. The environment is broken
// until the next Reset.
type PanicError struct {
	Game  string // the game's name
	Env   int    // the environment
	Value any    // what was passed to panic
	Stack []byte // the stack of the goroutine that panicked
}

// Error names the environment and the panic, and carries the stack.
func (e *PanicError) Error() string {
	return fmt.Sprintf("%s, environment %d: internal error (please report it): %v\n%s", e.Game, e.Env, e.Value, e.Stack)
}

// ErrBroken is wrapped by the error of a call on a Vector one of whose
// environments was broken by a panic (see PanicError) since its last Reset.
var ErrBroken = errors.New("broken by an internal error in an earlier call: call Reset")

// Broken returns the panic that broke environment i since the last Reset,
// or nil.
func (v *Vector) Broken(i int) *PanicError { return v.broken[i] }

// brokenError returns an error wrapping ErrBroken for the first broken
// environment, or nil if none is broken.
func (v *Vector) brokenError(what string) error {
	for i, p := range v.broken {
		if p != nil {
			return fmt.Errorf("vector %s, environment %d: %w (the panic: %v)", what, i, ErrBroken, p.Value)
		}
	}
	return nil
}

// Each calls f(i, Env(i)) for every environment, the environments shared
// among the workers as Step shares them, and waits for all of them: f runs
// concurrently for different environments and must only touch what belongs
// to environment i (f must not step it). A panic in f is recovered and
// breaks environment i, as in Step. Each refuses while an environment is
// broken.
func (v *Vector) Each(f func(i int, e *Env)) error {
	if err := v.brokenError("each"); err != nil {
		return err
	}
	v.each = f
	err := v.run(jobEach)
	v.each = nil
	return err
}

// SampleActions writes a uniformly random legal action of every environment
// into actions (len N), drawing in the workers, in parallel, from one
// generator per environment (seeded by Reset from its first deal, so the
// draws do not depend on the number of workers). An environment waiting for
// its next-step autoreset gets -1, which Step ignores. It is the random
// policy at the vector's speed, for baselines and exploration.
//
// After the first call, every Step and Reset also draws the next actions in
// the workers, and the call that follows only copies them (a second call
// without a step between draws again). The draws stay the same on any
// number of workers; a step taken without asking for its draw still uses
// up that draw of each environment's generator.
func (v *Vector) SampleActions(actions []int) error {
	if len(actions) != len(v.envs) {
		return fmt.Errorf("vector sample: %d actions for %d environments", len(actions), len(v.envs))
	}
	if err := v.brokenError("sample"); err != nil {
		return err
	}
	if v.preFresh {
		copy(actions, v.pre)
		v.preFresh = false
		return nil
	}
	v.sampled = actions
	err := v.run(jobSample)
	v.sampled = nil
	if err == nil && v.pre == nil {
		// From now on each step and reset draws the next actions in the
		// workers, while the environment is in their cache, and the next
		// call only copies them: a call that hands the workers a job
		// costs more than the draws themselves.
		v.pre = make([]int, len(v.envs))
	}
	return err
}

// Step plays actions[i] in environment i and fills the buffers. An
// environment waiting for its next-step autoreset ignores its action. If any
// action is illegal, Step returns an error naming the environment and the
// move, and changes nothing. While an environment is broken (see
// PanicError), Step returns an error wrapping ErrBroken and changes nothing.
func (v *Vector) Step(actions []int) error {
	if len(actions) != len(v.envs) {
		return fmt.Errorf("vector step: %d actions for %d environments", len(actions), len(v.envs))
	}
	if err := v.brokenError("step"); err != nil {
		return err
	}
	for i, e := range v.envs {
		v.refused[i] = false
		if v.needsReset[i] {
			continue
		}
		if !e.started {
			return fmt.Errorf("vector step: %w", ErrNotReset)
		}
		a := actions[i]
		if e.mask.Has(a) {
			continue
		}
		if v.illegal == IllegalNoOp && a >= 0 && a < v.spec.Actions {
			v.refused[i] = true
			continue
		}
		return fmt.Errorf("vector step, environment %d: %w", i, e.illegal(a))
	}
	copy(v.actions, actions)
	return v.run(jobStep)
}

// run hands a job to every worker, does the caller's share, and waits for
// the workers. It returns the first PanicError of the call, if any.
func (v *Vector) run(j job) error {
	if v.closed {
		return fmt.Errorf("vector of %s: closed", v.spec.Name)
	}
	yield := len(v.shares) > runtime.GOMAXPROCS(0)
	// A worker may still be looking for work of the last call (every
	// environment was done, some by others): the shares are reset only
	// once each has finished looking.
	for _, w := range v.workers {
		wait(yield, func() bool { return w.done.Load() == v.gen })
	}
	v.failed.Store(false)
	v.preFresh = false
	v.job = j
	v.finished.Store(0)
	for k := range v.shares {
		s := &v.shares[k]
		s.cur.Store(uint64(s.lo)<<32 | uint64(s.hi))
	}
	v.gen++
	for _, w := range v.workers {
		w.gen.Store(v.gen)
		if w.sleeping.Load() {
			select {
			case w.wake <- struct{}{}:
			default:
			}
		}
	}
	v.take(j, 0)
	n := int64(len(v.envs))
	wait(yield, func() bool { return v.finished.Load() >= n })
	if v.failed.Load() {
		for _, p := range v.broken {
			if p != nil {
				return p
			}
		}
	}
	v.preFresh = v.pre != nil && (j == jobStep || j == jobReset)
	return nil
}

// wait spins until done() holds, then yields between tries (at once if
// yield is set). Yielding at once costs more than a share of a step when
// the caller is a thread that C called into Go (the Python package): such
// a goroutine is locked to its thread, and each yield hands the thread's P
// to another thread and back.
func wait(yield bool, done func() bool) {
	start := time.Now()
	for spins := 1; !done(); spins++ {
		if yield || spins%64 == 0 && time.Since(start) >= spinFor {
			runtime.Gosched()
		}
	}
}

// take runs job j on chunks of share home, claimed from its front, then on
// chunks claimed from the back of the other shares, until none is left
// (see share), and counts the environments done in v.finished.
func (v *Vector) take(j job, home int) {
	for d := range v.shares {
		s := &v.shares[(home+d)%len(v.shares)]
		for {
			lo, hi, ok := s.claim(d != 0)
			if !ok {
				break
			}
			v.do(j, lo, hi)
			v.finished.Add(int64(hi - lo))
		}
	}
}

// do runs job j on the environments lo..hi-1. A panic on one environment
// breaks that environment (see PanicError) and the others still run.
func (v *Vector) do(j job, lo, hi int) {
	for lo < hi {
		lo = v.doUntilPanic(j, lo, hi)
	}
}

// doUntilPanic runs job j on the environments lo..hi-1 until one panics;
// it recovers the panic, marks that environment broken and returns the
// next one to run (hi when none panicked).
func (v *Vector) doUntilPanic(j job, lo, hi int) (next int) {
	i := lo
	defer func() {
		if r := recover(); r != nil {
			v.broken[i] = &PanicError{Game: v.spec.Name, Env: i, Value: r, Stack: debug.Stack()}
			v.shownAt[i] = nil // the row may be half written
			v.failed.Store(true)
			next = i + 1
		}
	}()
	for ; i < hi; i++ {
		switch j {
		case jobReset:
			v.shownAt[i] = nil // a reset rewrites every mask byte
			v.resetOne(i)
			if v.pre != nil {
				v.pre[i] = v.draw(i)
			}
		case jobStep:
			v.stepOne(i)
			if v.pre != nil {
				v.pre[i] = v.draw(i)
			}
		case jobSample:
			v.sampled[i] = v.draw(i)
		case jobEach:
			v.each(i, v.envs[i])
		}
	}
	return hi
}

// Close stops the workers. The buffers stay readable.
func (v *Vector) Close() {
	if v.closed {
		return
	}
	v.closed = true
	for _, w := range v.workers {
		w.quit.Store(true)
		w.gen.Store(v.gen + 1)
		select {
		case w.wake <- struct{}{}:
		default:
		}
	}
}

// work is a worker goroutine's loop.
func (v *Vector) work(w *worker) {
	var last uint64
	for {
		start := time.Now()
		// With more shares than Ps, a worker that never yielded would
		// keep a P from the goroutine it waits for.
		yield := len(v.shares) > runtime.GOMAXPROCS(0)
		for spins := 1; w.gen.Load() == last; spins++ {
			if spins%64 != 0 || time.Since(start) < spinFor {
				if yield {
					runtime.Gosched()
				}
				continue
			}
			// Sleep; the caller sees the flag after storing a new
			// generation, or this goroutine sees the generation after
			// raising the flag (atomics are sequentially consistent).
			w.sleeping.Store(true)
			if w.gen.Load() == last {
				<-w.wake
			}
			w.sleeping.Store(false)
			start = time.Now()
		}
		if w.quit.Load() {
			return
		}
		last = w.gen.Load()
		v.take(v.job, w.home)
		w.done.Store(last)
	}
}

// draw returns a random legal action of environment i (-1 if its episode is over).
func (v *Vector) draw(i int) int {
	m := &v.envs[i].mask
	if v.needsReset[i] || v.envs[i].Done() {
		return -1
	}
	return m.Nth(v.rngs[i].IntN(m.Count()))
}

// maxDeadDeals bounds the dead deals skipped in a row (a deal with no legal
// move is rare: about one in a thousand in the games that have them).
const maxDeadDeals = 1 << 16

// resetOne deals environment i its current seed (skipping deals with no
// legal move at all, by steps of N) and writes its buffers.
func (v *Vector) resetOne(i int) {
	e := v.envs[i]
	e.Reset(v.seeds[i])
	for k := 0; e.Done() && k < maxDeadDeals; k++ {
		v.seeds[i] += uint64(len(v.envs))
		e.Reset(v.seeds[i])
	}
	v.needsReset[i] = false
	v.noops[i] = 0
	v.Rewards[i] = 0
	v.Terminated[i], v.Truncated[i], v.HasFinal[i], v.Illegal[i] = false, false, false, false
	v.write(i)
}

// stepOne steps environment i (or autoresets it) and writes its buffers.
func (v *Vector) stepOne(i int) {
	v.HasFinal[i], v.Illegal[i] = false, false
	if v.needsReset[i] {
		v.seeds[i] += uint64(len(v.envs))
		v.resetOne(i)
		return
	}
	e := v.envs[i]
	var r float64
	var term, trunc bool
	if v.refused[i] {
		// IllegalNoOp: nothing changes but the step count.
		v.noops[i]++
		r, v.Illegal[i] = v.illReward, true
	} else {
		r, term, trunc, _ = e.Advance(v.actions[i]) // legality checked in Step
	}
	if !term && v.noops[i] > 0 && e.Steps()+v.noops[i] >= e.MaxSteps() {
		trunc = true // refused actions count towards the step limit
	}
	v.Rewards[i], v.Terminated[i], v.Truncated[i] = r, term, trunc
	if !term && !trunc {
		v.write(i)
		return
	}
	if v.mode == NextStep {
		v.needsReset[i] = true
		v.write(i)
		return
	}
	obs := v.FinalObs[i*v.obsLen : (i+1)*v.obsLen]
	e.game.Observe(obs)
	if v.FinalOneHot != nil {
		v.spec.OneHot(obs, v.FinalOneHot[i*v.oneHotLen:(i+1)*v.oneHotLen])
	}
	illegal := v.Illegal[i]
	v.seeds[i] += uint64(len(v.envs))
	v.resetOne(i)
	v.Rewards[i], v.Terminated[i], v.Truncated[i], v.HasFinal[i], v.Illegal[i] = r, term, trunc, true, illegal
}

// write puts environment i's observation and mask into the buffers. The
// game observes straight into the vector's buffer (the Env's own copy is
// built only if someone asks it for its observation).
func (v *Vector) write(i int) {
	e := v.envs[i]
	obs := v.Obs[i*v.obsLen : (i+1)*v.obsLen]
	e.game.Observe(obs)
	// Loops rather than copy: a mask is a few words (2 in Four Quarters),
	// less than the cost of calling memmove.
	dst := v.MaskWords[i*v.words : (i+1)*v.words]
	for k, x := range e.mask.words {
		dst[k] = x
	}
	if v.MaskBytes != nil {
		v.writeMaskBytes(i, e.mask.words)
	}
	if v.MaskPacked != nil {
		p := v.packedLen
		e.mask.PutPacked(v.MaskPacked[i*p : (i+1)*p])
	}
	if v.OneHot != nil {
		v.spec.OneHot(obs, v.OneHot[i*v.oneHotLen:(i+1)*v.oneHotLen])
	}
}

// writeMaskBytes brings environment i's MaskBytes row up to date with its
// mask words. If the row is where the Vector last wrote it, only the bytes
// of the actions whose bit changed are written (a move changes the
// legality of a few actions out of hundreds in most games); otherwise the
// whole row is written.
func (v *Vector) writeMaskBytes(i int, words []uint64) {
	a := v.spec.Actions
	row := v.MaskBytes[i*a : (i+1)*a]
	shown := v.shown[i*v.words : (i+1)*v.words]
	if at := &row[0]; v.shownAt[i] != at {
		maskBytes(row, words)
		v.shownAt[i] = at
		for k, x := range words {
			shown[k] = x
		}
		return
	}
	maskBytesChanged(row, shown, words)
}

// maskBytesChanged writes the bytes of dst (which shows the mask words
// old) whose bit differs between old and words, and sets old to words.
func maskBytesChanged(dst []uint8, old, words []uint64) {
	for w, x := range words {
		d := x ^ old[w]
		old[w] = x
		for ; d != 0; d &= d - 1 {
			b := bits.TrailingZeros64(d)
			dst[w<<6+b] = uint8(x >> b & 1)
		}
	}
}

// maskBytes writes the mask words as one byte per action, 1 for a legal
// action and 0 otherwise: it clears the row and sets the few legal ones.
func maskBytes(dst []uint8, words []uint64) {
	clear(dst)
	for w, x := range words {
		for x != 0 {
			dst[w<<6+bits.TrailingZeros64(x)] = 1
			x &= x - 1
		}
	}
}

// buffers returns the buffers the Vector writes into now.
func (v *Vector) buffers() VectorBuffers {
	return VectorBuffers{
		Obs: v.Obs, Rewards: v.Rewards, Terminated: v.Terminated, Truncated: v.Truncated,
		FinalObs: v.FinalObs, HasFinal: v.HasFinal, Illegal: v.Illegal, MaskWords: v.MaskWords,
		MaskBytes: v.MaskBytes, MaskPacked: v.MaskPacked, OneHot: v.OneHot, FinalOneHot: v.FinalOneHot,
	}
}

// OneHotLen returns the length of one environment's one-hot observation
// (Spec.OneHotLen).
func (v *Vector) OneHotLen() int { return v.oneHotLen }

// SetBuffers makes the Vector write its results into b from the next call
// on: each non-nil slice of b replaces the corresponding field (Obs,
// Rewards, ...), and each nil one restores the Vector's own buffer (or, for
// MaskBytes, MaskPacked, OneHot and FinalOneHot, turns that output off). FinalObs and
// FinalOneHot are written only in SameStep mode. The memory must stay valid
// until the buffers are replaced again; it may be memory the Go runtime
// does not manage (C or NumPy memory, via unsafe.Slice), in which case the
// caller should call SetBuffers(VectorBuffers{}) before giving it back. The
// current contents are not copied: a Step or Reset fills every buffer. A
// slice of the wrong length is an error, and nothing is changed.
func (v *Vector) SetBuffers(b VectorBuffers) error {
	n, l, h := len(v.envs), v.obsLen, v.oneHotLen
	ok := fits(b.Obs, n*l) && fits(b.Rewards, n) && fits(b.Terminated, n) && fits(b.Truncated, n) &&
		fits(b.FinalObs, n*l) && fits(b.HasFinal, n) && fits(b.Illegal, n) &&
		fits(b.MaskWords, n*v.words) && fits(b.MaskBytes, n*v.spec.Actions) && fits(b.MaskPacked, n*v.packedLen) &&
		fits(b.OneHot, n*h) && fits(b.FinalOneHot, n*h)
	if !ok {
		return v.bufferError(b)
	}
	v.Obs = orSlice(b.Obs, v.own.Obs)
	v.MaskWords = orSlice(b.MaskWords, v.own.MaskWords)
	v.Rewards = orSlice(b.Rewards, v.own.Rewards)
	v.Terminated = orSlice(b.Terminated, v.own.Terminated)
	v.Truncated = orSlice(b.Truncated, v.own.Truncated)
	v.FinalObs = orSlice(b.FinalObs, v.own.FinalObs)
	v.HasFinal = orSlice(b.HasFinal, v.own.HasFinal)
	v.Illegal = orSlice(b.Illegal, v.own.Illegal)
	v.MaskBytes, v.MaskPacked, v.OneHot, v.FinalOneHot = b.MaskBytes, b.MaskPacked, b.OneHot, b.FinalOneHot
	if v.mode != SameStep {
		v.FinalOneHot = nil
	}
	return nil
}

// fits reports whether s is nil or has length n.
func fits[T any](s []T, n int) bool { return s == nil || len(s) == n }

// bufferError names the first buffer of b with the wrong length.
func (v *Vector) bufferError(b VectorBuffers) error {
	n, l, h := len(v.envs), v.obsLen, v.oneHotLen
	for _, c := range []struct {
		name      string
		got, want int
		set       bool
	}{
		{"Obs", len(b.Obs), n * l, b.Obs != nil},
		{"Rewards", len(b.Rewards), n, b.Rewards != nil},
		{"Terminated", len(b.Terminated), n, b.Terminated != nil},
		{"Truncated", len(b.Truncated), n, b.Truncated != nil},
		{"FinalObs", len(b.FinalObs), n * l, b.FinalObs != nil},
		{"HasFinal", len(b.HasFinal), n, b.HasFinal != nil},
		{"Illegal", len(b.Illegal), n, b.Illegal != nil},
		{"MaskWords", len(b.MaskWords), n * v.words, b.MaskWords != nil},
		{"MaskBytes", len(b.MaskBytes), n * v.spec.Actions, b.MaskBytes != nil},
		{"MaskPacked", len(b.MaskPacked), n * v.packedLen, b.MaskPacked != nil},
		{"OneHot", len(b.OneHot), n * h, b.OneHot != nil},
		{"FinalOneHot", len(b.FinalOneHot), n * h, b.FinalOneHot != nil},
	} {
		if c.set && c.got != c.want {
			return fmt.Errorf("vector of %s: buffer %s has length %d, want %d", v.spec.Name, c.name, c.got, c.want)
		}
	}
	return nil
}

// orSlice returns s, or def if s is nil.
func orSlice[T any](s, def []T) []T {
	if s != nil {
		return s
	}
	return def
}
