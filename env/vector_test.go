package env_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/patience-gym/patience/env"
	_ "github.com/patience-gym/patience/env/all"
	"github.com/patience-gym/patience/env/cards"
)

// reference is a serial model of the documented Vector semantics, built on
// plain Envs.
type reference struct {
	envs    []*env.Env
	seeds   []uint64
	pending []bool // next-step mode: waiting for the autoreset
	mode    env.AutoresetMode
}

func newReference(t *testing.T, game string, n int, seed uint64, mode env.AutoresetMode, maxSteps int) *reference {
	r := &reference{mode: mode, pending: make([]bool, n)}
	for i := range n {
		e, err := env.Make(game, env.Options{MaxSteps: maxSteps})
		if err != nil {
			t.Fatal(err)
		}
		r.envs = append(r.envs, e)
		r.seeds = append(r.seeds, seed+uint64(i))
		r.deal(i)
	}
	return r
}

func (r *reference) deal(i int) {
	r.envs[i].Reset(r.seeds[i])
	for r.envs[i].Done() {
		r.seeds[i] += uint64(len(r.envs))
		r.envs[i].Reset(r.seeds[i])
	}
}

// step returns what the Vector should show for environment i.
func (r *reference) step(i, a int) (obs []uint8, reward float64, term, trunc bool, final []uint8) {
	e := r.envs[i]
	if r.pending[i] {
		r.pending[i] = false
		r.seeds[i] += uint64(len(r.envs))
		r.deal(i)
		return slices.Clone(e.Observation()), 0, false, false, nil
	}
	_, reward, term, trunc, _, err := e.Step(a)
	if err != nil {
		panic(err)
	}
	if !term && !trunc {
		return slices.Clone(e.Observation()), reward, false, false, nil
	}
	if r.mode == env.NextStep {
		r.pending[i] = true
		return slices.Clone(e.Observation()), reward, term, trunc, nil
	}
	final = slices.Clone(e.Observation())
	r.seeds[i] += uint64(len(r.envs))
	r.deal(i)
	return slices.Clone(e.Observation()), reward, term, trunc, final
}

func TestVectorMatchesSerialModel(t *testing.T) {
	for _, game := range []string{"cromwell", "limited", "fourquarters"} {
		for _, mode := range []env.AutoresetMode{env.NextStep, env.SameStep} {
			for _, workers := range []int{1, 3} {
				t.Run(game+"/"+mode.String(), func(t *testing.T) {
					const n, maxSteps = 7, 30
					v, err := env.NewVector(game, n, env.VectorOptions{Options: env.Options{MaxSteps: maxSteps}, Autoreset: mode, Workers: workers})
					if err != nil {
						t.Fatal(err)
					}
					defer v.Close()
					if err := v.Reset(100); err != nil {
						t.Fatal(err)
					}
					ref := newReference(t, game, n, 100, mode, maxSteps)
					rng := cards.NewRand(9)
					actions := make([]int, n)
					ends := 0
					for step := range 200 {
						for i := range n {
							m := v.Mask(i)
							if m.Empty() {
								actions[i] = -1 // waiting for autoreset: ignored
								continue
							}
							actions[i] = m.Nth(rng.IntN(m.Count()))
						}
						if err := v.Step(actions); err != nil {
							t.Fatalf("step %d: %v", step, err)
						}
						for i := range n {
							obs, r, term, trunc, final := ref.step(i, actions[i])
							if !bytes.Equal(v.ObsOf(i), obs) || v.Rewards[i] != r || v.Terminated[i] != term || v.Truncated[i] != trunc {
								t.Fatalf("step %d env %d: vector (r=%v term=%v trunc=%v) differs from the model (r=%v term=%v trunc=%v)",
									step, i, v.Rewards[i], v.Terminated[i], v.Truncated[i], r, term, trunc)
							}
							if v.HasFinal[i] != (final != nil) || final != nil && !bytes.Equal(v.FinalObs[i*len(obs):(i+1)*len(obs)], final) {
								t.Fatalf("step %d env %d: final observation differs", step, i)
							}
							if term || trunc {
								ends++
							}
							if v.Seeds()[i] != ref.seeds[i] {
								t.Fatalf("step %d env %d: seed %d, model %d", step, i, v.Seeds()[i], ref.seeds[i])
							}
							w := (v.Spec().Actions + 63) / 64
							if !slices.Equal(v.MaskWords[i*w:(i+1)*w], ref.envs[i].Mask().Words()) {
								t.Fatalf("step %d env %d: mask words differ", step, i)
							}
						}
					}
					if ends == 0 {
						t.Fatal("no episode ended: autoreset untested")
					}
				})
			}
		}
	}
}

func TestVectorRefusesIllegalActions(t *testing.T) {
	v, err := env.NewVector("cromwell", 3, env.VectorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if err := v.Step([]int{0, 0, 0}); !errors.Is(err, env.ErrNotReset) {
		t.Fatalf("step before reset: %v", err)
	}
	v.ResetSeeds([]uint64{5, 6, 7})
	before := slices.Clone(v.Obs)
	actions := []int{v.Mask(0).Next(0), -7, v.Mask(2).Next(0)}
	err = v.Step(actions)
	var ill *env.IllegalActionError
	if !errors.As(err, &ill) || ill.Action != -7 {
		t.Fatalf("err = %v", err)
	}
	if !bytes.Equal(before, v.Obs) || v.Env(0).Steps() != 0 {
		t.Fatal("a refused step changed an environment")
	}
	if err := v.Step([]int{1}); err == nil {
		t.Error("wrong number of actions accepted")
	}
	if err := v.ResetSeeds([]uint64{1}); err == nil {
		t.Error("wrong number of seeds accepted")
	}
	if _, err := env.NewVector("cromwell", 0, env.VectorOptions{}); err == nil {
		t.Error("empty vector made")
	}
	if _, err := env.NewVector("nosuchgame", 2, env.VectorOptions{}); err == nil {
		t.Error("vector of an unknown game made")
	}
}

func benchmarkVector(b *testing.B, game string, workers int) {
	const n = 256
	v, err := env.NewVector(game, n, env.VectorOptions{Workers: workers})
	if err != nil {
		b.Fatal(err)
	}
	defer v.Close()
	v.Reset(0)
	actions := make([]int, n)
	b.ReportAllocs()
	for b.Loop() {
		if err := v.SampleActions(actions); err != nil {
			b.Fatal(err)
		}
		if err := v.Step(actions); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "steps/s")
}

func BenchmarkVectorCromwell1(b *testing.B)   { benchmarkVector(b, "cromwell", 1) }
func BenchmarkVectorCromwellAll(b *testing.B) { benchmarkVector(b, "cromwell", 0) }

func TestVectorSampleActions(t *testing.T) {
	var runs [][]int
	for _, workers := range []int{1, 2, 5} {
		v, err := env.NewVector("royalparade", 9, env.VectorOptions{Options: env.Options{MaxSteps: 25}, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		v.Reset(40)
		actions := make([]int, v.Len())
		var all []int
		for step := range 100 {
			if err := v.SampleActions(actions); err != nil {
				t.Fatal(err)
			}
			for i, a := range actions {
				if a < 0 {
					if !v.Env(i).Done() {
						t.Fatalf("step %d env %d: no action for a running episode", step, i)
					}
					continue
				}
				if !v.Mask(i).Has(a) {
					t.Fatalf("step %d env %d: sampled illegal action %d", step, i, a)
				}
			}
			all = append(all, actions...)
			if err := v.Step(actions); err != nil {
				t.Fatal(err)
			}
		}
		v.Close()
		runs = append(runs, all)
	}
	for _, r := range runs[1:] {
		if !slices.Equal(r, runs[0]) {
			t.Fatal("sampled actions depend on the number of workers")
		}
	}
	v, _ := env.NewVector("royalparade", 2, env.VectorOptions{})
	defer v.Close()
	if err := v.SampleActions(make([]int, 3)); err == nil {
		t.Error("wrong length accepted")
	}
}

// TestVectorBuffers steps two vectors on the same seeds and actions, one into
// its own buffers and one into buffers set by SetBuffers with every optional
// output, and checks that both agree and that the mask bytes and the one-hot
// observations match the words and the observations.
func TestVectorBuffers(t *testing.T) {
	for _, mode := range []env.AutoresetMode{env.NextStep, env.SameStep} {
		t.Run(mode.String(), func(t *testing.T) {
			const n, maxSteps = 5, 20
			opts := env.VectorOptions{Options: env.Options{MaxSteps: maxSteps}, Autoreset: mode, Workers: 2}
			a, _ := env.NewVector("limited", n, opts)
			b, _ := env.NewVector("limited", n, opts)
			defer a.Close()
			defer b.Close()
			spec := b.Spec()
			h := b.OneHotLen()
			bufs := env.VectorBuffers{
				Obs: make([]uint8, n*spec.ObsLen), Rewards: make([]float64, n),
				Terminated: make([]bool, n), Truncated: make([]bool, n),
				FinalObs: make([]uint8, n*spec.ObsLen), HasFinal: make([]bool, n), Illegal: make([]bool, n),
				MaskBytes: make([]uint8, n*spec.Actions),
				OneHot:    make([]float32, n*h), FinalOneHot: make([]float32, n*h),
			}
			if err := b.SetBuffers(bufs); err != nil {
				t.Fatal(err)
			}
			a.Reset(3)
			b.Reset(3)
			actions := make([]int, n)
			one := make([]float32, h)
			for step := range 80 {
				if err := a.SampleActions(actions); err != nil {
					t.Fatal(err)
				}
				if step > 0 {
					a.Step(actions)
					if err := b.Step(actions); err != nil {
						t.Fatal(err)
					}
				}
				if !bytes.Equal(a.Obs, bufs.Obs) || !slices.Equal(a.Rewards, bufs.Rewards) ||
					!slices.Equal(a.Terminated, bufs.Terminated) || !slices.Equal(a.Truncated, bufs.Truncated) ||
					!slices.Equal(a.HasFinal, bufs.HasFinal) || !slices.Equal(a.MaskWords, b.MaskWords) {
					t.Fatalf("step %d: results in the caller's buffers differ from the vector's own", step)
				}
				for i := range n {
					for act := range spec.Actions {
						if (bufs.MaskBytes[i*spec.Actions+act] == 1) != b.Mask(i).Has(act) || bufs.MaskBytes[i*spec.Actions+act] > 1 {
							t.Fatalf("step %d env %d: mask byte of action %d wrong", step, i, act)
						}
					}
					spec.OneHot(b.ObsOf(i), one)
					if !slices.Equal(one, bufs.OneHot[i*h:(i+1)*h]) {
						t.Fatalf("step %d env %d: one-hot observation wrong", step, i)
					}
					if bufs.HasFinal[i] {
						fin := bufs.FinalObs[i*spec.ObsLen : (i+1)*spec.ObsLen]
						if !bytes.Equal(fin, a.FinalObs[i*spec.ObsLen:(i+1)*spec.ObsLen]) {
							t.Fatalf("step %d env %d: final observation differs", step, i)
						}
						spec.OneHot(fin, one)
						if !slices.Equal(one, bufs.FinalOneHot[i*h:(i+1)*h]) {
							t.Fatalf("step %d env %d: final one-hot observation wrong", step, i)
						}
					}
				}
			}
			if err := b.SetBuffers(env.VectorBuffers{Obs: make([]uint8, 3)}); err == nil {
				t.Error("a buffer of the wrong length accepted")
			}
			if err := b.SetBuffers(env.VectorBuffers{}); err != nil || len(b.Obs) != n*spec.ObsLen || b.MaskBytes != nil {
				t.Errorf("own buffers not restored: %v", err)
			}
		})
	}
}

// TestVectorIllegalNoOp checks that under IllegalNoOp a refused action
// changes nothing, is flagged, pays the illegal reward and counts towards
// the step limit; and that an id outside the action space is still an error.
func TestVectorIllegalNoOp(t *testing.T) {
	for _, mode := range []env.AutoresetMode{env.NextStep, env.SameStep} {
		t.Run(mode.String(), func(t *testing.T) {
			const maxSteps = 6
			v, err := env.NewVector("cromwell", 2, env.VectorOptions{
				Options: env.Options{MaxSteps: maxSteps}, Autoreset: mode,
				Illegal: env.IllegalNoOp, IllegalReward: -0.5,
			})
			if err != nil {
				t.Fatal(err)
			}
			defer v.Close()
			v.ResetSeeds([]uint64{5, 6})
			illegal := func(i int) int {
				for a := range v.Spec().Actions {
					if !v.Mask(i).Has(a) {
						return a
					}
				}
				t.Fatal("every action legal")
				return -1
			}
			before := slices.Clone(v.ObsOf(0))
			for step := 1; step <= maxSteps; step++ {
				actions := []int{illegal(0), v.Mask(1).Next(0)}
				if err := v.Step(actions); err != nil {
					t.Fatalf("step %d: %v", step, err)
				}
				if !v.Illegal[0] || v.Illegal[1] || v.Rewards[0] != -0.5 || v.Terminated[0] {
					t.Fatalf("step %d: illegal %v, reward %v, terminated %v", step, v.Illegal, v.Rewards[0], v.Terminated[0])
				}
				if v.Truncated[0] != (step == maxSteps) {
					t.Fatalf("step %d: truncated = %v", step, v.Truncated[0])
				}
				if step < maxSteps && (!bytes.Equal(before, v.ObsOf(0)) || v.Env(0).Steps() != 0) {
					t.Fatalf("step %d: a refused action changed the environment", step)
				}
			}
			if mode == env.SameStep && (!v.HasFinal[0] || !bytes.Equal(before, v.FinalObs[:len(before)])) {
				t.Error("the final observation of an episode truncated by refused actions is wrong")
			}
			if mode == env.NextStep {
				v.Step([]int{-1, -1}) // the autoresets
			}
			if err := v.Step([]int{v.Spec().Actions, v.Mask(1).Next(0)}); err == nil {
				t.Error("an action id outside the space accepted")
			}
		})
	}
	if _, err := env.NewVector("cromwell", 1, env.VectorOptions{Illegal: 7}); err == nil {
		t.Error("unknown illegal-action policy accepted")
	}
}

func BenchmarkVectorBuffersLimited(b *testing.B) {
	const n = 256
	v, err := env.NewVector("limited", n, env.VectorOptions{Workers: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer v.Close()
	benchStepInto(b, v, env.VectorBuffers{MaskBytes: make([]uint8, n*v.Spec().Actions)})
}

// benchStepInto measures v's steps with random legal actions drawn by the
// workers, the outputs written into bufs before every step as a caller
// that hands its buffers each time does, and reports the steps a second.
func benchStepInto(b *testing.B, v *env.Vector, bufs env.VectorBuffers) {
	v.Reset(0)
	actions := make([]int, v.Len())
	b.ReportAllocs()
	for b.Loop() {
		if err := v.SetBuffers(bufs); err != nil {
			b.Fatal(err)
		}
		if err := v.SampleActions(actions); err != nil {
			b.Fatal(err)
		}
		if err := v.Step(actions); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*len(actions))/b.Elapsed().Seconds(), "steps/s")
}

// TestVectorSampleAhead checks the draws a step makes ahead (see
// SampleActions): a call right after a step returns legal actions of the
// new states, a second call without a step draws again (legal too, and a
// fresh draw, not a copy of the first), and a vector whose steps all ask for
// their draws gives the same actions as one that is asked twice at times.
func TestVectorSampleAhead(t *testing.T) {
	a, _ := env.NewVector("limited", 16, env.VectorOptions{Workers: 2})
	defer a.Close()
	a.Reset(7)
	act := make([]int, a.Len())
	again := make([]int, a.Len())
	differ := false
	for step := range 60 {
		if err := a.SampleActions(act); err != nil {
			t.Fatal(err)
		}
		for i, x := range act {
			if x >= 0 && !a.Mask(i).Has(x) {
				t.Fatalf("step %d env %d: drawn ahead illegal action %d", step, i, x)
			}
		}
		if step%3 == 0 {
			if err := a.SampleActions(again); err != nil {
				t.Fatal(err)
			}
			for i, x := range again {
				if x >= 0 && !a.Mask(i).Has(x) {
					t.Fatalf("step %d env %d: second draw illegal action %d", step, i, x)
				}
			}
			differ = differ || !slices.Equal(act, again)
			copy(act, again)
		}
		if err := a.Step(act); err != nil {
			t.Fatal(err)
		}
	}
	if !differ {
		t.Error("a second call without a step returned the same actions every time: it copied instead of drawing")
	}
}

// TestVectorMaskBytesFollowTheirMemory: a step rewrites only the mask bytes
// whose action changed legality since the vector last wrote the same row,
// so the bytes must come out right whichever buffer a step is given:
// the same one as before, another one, none for a while and then an old
// one again. A Reset rewrites every byte, even of a row scribbled on.
func TestVectorMaskBytesFollowTheirMemory(t *testing.T) {
	for _, s := range env.Specs() {
		if s == toySpec {
			continue // its deals can end with no legal move and no reset due
		}
		const n = 6
		v, err := env.NewVector(s.Name, n, env.VectorOptions{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		a := s.Actions
		bufs := [][]uint8{make([]uint8, n*a), make([]uint8, n*a)}
		check := func(step int, b []uint8) {
			t.Helper()
			for i := range n {
				for k := range a {
					if (b[i*a+k] == 1) != v.Mask(i).Has(k) || b[i*a+k] > 1 {
						t.Fatalf("%s step %d env %d: mask byte of action %d is %d", s.Name, step, i, k, b[i*a+k])
					}
				}
			}
		}
		rng := rand.New(rand.NewPCG(1, uint64(a)))
		actions := make([]int, n)
		for round := range 3 {
			cur := bufs[round%2]
			for i := range cur {
				cur[i] = 7 // scribbled on: the reset must rewrite every byte
			}
			if err := v.SetBuffers(env.VectorBuffers{MaskBytes: cur}); err != nil {
				t.Fatal(err)
			}
			v.Reset(uint64(100 * round))
			check(0, cur)
			for step := 1; step <= 120; step++ {
				// Mostly the same buffer, sometimes the other, sometimes none.
				var b []uint8
				switch r := rng.IntN(10); {
				case r < 6:
					b = cur
				case r < 8:
					cur = bufs[rng.IntN(2)]
					b = cur
				}
				if err := v.SetBuffers(env.VectorBuffers{MaskBytes: b}); err != nil {
					t.Fatal(err)
				}
				if err := v.SampleActions(actions); err != nil {
					t.Fatal(err)
				}
				if err := v.Step(actions); err != nil {
					t.Fatal(err)
				}
				if b != nil {
					check(step, b)
				}
			}
		}
		v.Close()
	}
}

// TestVectorEachEnvironmentOnce: the goroutines claim chunks of each
// other's shares when they run out of their own, so a slow environment
// shifts work onto the others; every call must still visit every
// environment exactly once, on any number of workers, and the moves must
// not depend on who stepped whom.
func TestVectorEachEnvironmentOnce(t *testing.T) {
	const n, calls = 67, 30
	var runs [][]int
	for _, workers := range []int{1, 2, 3, 8} {
		v, err := env.NewVector("fifteen", n, env.VectorOptions{Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		v.Reset(500)
		visits := make([]atomic.Int32, n)
		actions := make([]int, n)
		var moves []int
		for call := range calls {
			err := v.Each(func(i int, _ *env.Env) {
				visits[i].Add(1)
				if i%(7+call%5) == 0 {
					time.Sleep(50 * time.Microsecond) // a slow environment: the others take over
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			if err := v.SampleActions(actions); err != nil {
				t.Fatal(err)
			}
			if err := v.Step(actions); err != nil {
				t.Fatal(err)
			}
			moves = append(moves, actions...)
		}
		for i := range visits {
			if got := visits[i].Load(); got != calls {
				t.Fatalf("%d workers: environment %d visited %d times in %d calls", workers, i, got, calls)
			}
		}
		runs = append(runs, moves)
		v.Close()
	}
	for k := 1; k < len(runs); k++ {
		if !slices.Equal(runs[0], runs[k]) {
			t.Fatalf("run %d drew other moves than run 0", k)
		}
	}
}
