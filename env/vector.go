package env

import (
	"fmt"
	"runtime"
	"sync"
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

// VectorOptions tune a Vector.
type VectorOptions struct {
	// Options are every environment's options.
	Options
	// Autoreset is the autoreset mode (NextStep by default).
	Autoreset AutoresetMode
	// Workers is the number of goroutines that step the environments
	// (default GOMAXPROCS, at most one per environment).
	Workers int
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
//
// Environment i is dealt seed+i by Reset (or seeds[i] by ResetSeeds), and
// each later episode of environment i is dealt its previous seed + N, so
// that with the default seeds the N environments play seed, seed+1, ...
// without repeats. A deal with no legal move at all is skipped the same way
// (seed + N), so every environment that is not waiting for its next-step
// autoreset has a legal action. Results do not depend on the number of
// workers.
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

	Obs        []uint8
	MaskWords  []uint64
	Rewards    []float64
	Terminated []bool
	Truncated  []bool
	FinalObs   []uint8
	HasFinal   []bool

	work   []chan job
	wg     sync.WaitGroup
	ranges [][2]int
	closed bool
}

type job uint8

const (
	jobStep job = iota
	jobReset
)

// NewVector makes a Vector of n environments of the named game.
func NewVector(name string, n int, opts VectorOptions) (*Vector, error) {
	if n <= 0 {
		return nil, fmt.Errorf("vector of %s: %d environments (want at least 1)", name, n)
	}
	if opts.Autoreset > SameStep {
		return nil, fmt.Errorf("vector of %s: unknown autoreset mode %d", name, opts.Autoreset)
	}
	v := &Vector{mode: opts.Autoreset}
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
	v.Obs = make([]uint8, n*v.obsLen)
	v.MaskWords = make([]uint64, n*v.words)
	v.Rewards = make([]float64, n)
	v.Terminated = make([]bool, n)
	v.Truncated = make([]bool, n)
	v.HasFinal = make([]bool, n)
	if v.mode == SameStep {
		v.FinalObs = make([]uint8, n*v.obsLen)
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, n)
	for w := range workers {
		lo, hi := w*n/workers, (w+1)*n/workers
		v.ranges = append(v.ranges, [2]int{lo, hi})
		ch := make(chan job)
		v.work = append(v.work, ch)
		go v.worker(ch, lo, hi)
	}
	return v, nil
}

// Len returns the number of environments.
func (v *Vector) Len() int { return len(v.envs) }

// Spec returns the game's description.
func (v *Vector) Spec() *Spec { return v.spec }

// Mode returns the autoreset mode.
func (v *Vector) Mode() AutoresetMode { return v.mode }

// Workers returns the number of worker goroutines.
func (v *Vector) Workers() int { return len(v.work) }

// Env returns environment i (for rendering and inspection; do not step it
// directly).
func (v *Vector) Env(i int) *Env { return v.envs[i] }

// Mask returns environment i's legal actions (aliased).
func (v *Vector) Mask(i int) *Mask { return v.envs[i].Mask() }

// ObsOf returns environment i's observation in Obs (aliased).
func (v *Vector) ObsOf(i int) []uint8 { return v.Obs[i*v.obsLen : (i+1)*v.obsLen] }

// Seeds returns the deal of each environment's current episode (aliased).
func (v *Vector) Seeds() []uint64 { return v.seeds }

// Reset deals seed+i to environment i and fills the buffers.
func (v *Vector) Reset(seed uint64) error {
	for i := range v.seeds {
		v.seeds[i] = seed + uint64(i)
	}
	return v.run(jobReset)
}

// ResetSeeds deals seeds[i] to environment i and fills the buffers.
func (v *Vector) ResetSeeds(seeds []uint64) error {
	if len(seeds) != len(v.envs) {
		return fmt.Errorf("vector reset: %d seeds for %d environments", len(seeds), len(v.envs))
	}
	copy(v.seeds, seeds)
	return v.run(jobReset)
}

// Step plays actions[i] in environment i and fills the buffers. An
// environment waiting for its next-step autoreset ignores its action. If any
// action is illegal, Step returns an error naming the environment and the
// move, and changes nothing.
func (v *Vector) Step(actions []int) error {
	if len(actions) != len(v.envs) {
		return fmt.Errorf("vector step: %d actions for %d environments", len(actions), len(v.envs))
	}
	for i, e := range v.envs {
		if v.needsReset[i] {
			continue
		}
		if !e.started {
			return fmt.Errorf("vector step: %w", ErrNotReset)
		}
		if !e.mask.Has(actions[i]) {
			return fmt.Errorf("vector step, environment %d: %w", i, e.illegal(actions[i]))
		}
	}
	copy(v.actions, actions)
	return v.run(jobStep)
}

// run hands a job to every worker and waits for them.
func (v *Vector) run(j job) error {
	if v.closed {
		return fmt.Errorf("vector of %s: closed", v.spec.Name)
	}
	v.wg.Add(len(v.work))
	for _, ch := range v.work {
		ch <- j
	}
	v.wg.Wait()
	return nil
}

// Close stops the workers. The buffers stay readable.
func (v *Vector) Close() {
	if v.closed {
		return
	}
	v.closed = true
	for _, ch := range v.work {
		close(ch)
	}
}

func (v *Vector) worker(ch chan job, lo, hi int) {
	for j := range ch {
		for i := lo; i < hi; i++ {
			if j == jobReset {
				v.resetOne(i)
			} else {
				v.stepOne(i)
			}
		}
		v.wg.Done()
	}
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
	v.Rewards[i] = 0
	v.Terminated[i], v.Truncated[i], v.HasFinal[i] = false, false, false
	v.write(i)
}

// stepOne steps environment i (or autoresets it) and writes its buffers.
func (v *Vector) stepOne(i int) {
	v.HasFinal[i] = false
	if v.needsReset[i] {
		v.seeds[i] += uint64(len(v.envs))
		v.resetOne(i)
		return
	}
	e := v.envs[i]
	r, term, trunc, _ := e.Advance(v.actions[i]) // legality checked in Step
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
	copy(v.FinalObs[i*v.obsLen:(i+1)*v.obsLen], e.Observation())
	v.HasFinal[i] = true
	v.seeds[i] += uint64(len(v.envs))
	v.resetOne(i)
	v.Rewards[i], v.Terminated[i], v.Truncated[i], v.HasFinal[i] = r, term, trunc, true
}

// write copies environment i's observation and mask into the buffers.
func (v *Vector) write(i int) {
	e := v.envs[i]
	copy(v.Obs[i*v.obsLen:(i+1)*v.obsLen], e.Observation())
	copy(v.MaskWords[i*v.words:(i+1)*v.words], e.mask.words)
}
