package env_test

import (
	"bytes"
	"errors"
	"slices"
	"testing"

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
