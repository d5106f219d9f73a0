package env_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/internal/faultgame"
)

// faulty is Limited's rules with a panic armed on demand.
var faulty = faultgame.Register("faultylimited", "limited")

// TestVectorPanicBreaksOneEnvironment arms a panic in environments stepped
// by the calling goroutine (0) and by a worker goroutine (3): the step
// returns a *PanicError naming the environment, the process lives on, the
// other environments were stepped, every later Step or SampleActions
// refuses with ErrBroken, and Reset mends the vector.
func TestVectorPanicBreaksOneEnvironment(t *testing.T) {
	for _, broken := range []int{0, 3} {
		const n = 4
		v, err := env.NewVector("faultylimited", n, env.VectorOptions{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		defer v.Close()
		if err := v.Reset(100); err != nil {
			t.Fatal(err)
		}
		actions := make([]int, n)
		if err := v.SampleActions(actions); err != nil {
			t.Fatal(err)
		}
		faulty.Arm(v.Seeds()[broken])
		err = v.Step(actions)
		var pe *env.PanicError
		if !errors.As(err, &pe) || pe.Env != broken || !strings.Contains(err.Error(), "faultgame: the fault armed") {
			t.Fatalf("env %d: step after the armed panic: %v", broken, err)
		}
		if v.Broken(broken) == nil {
			t.Errorf("env %d is not marked broken", broken)
		}
		for i := range n {
			if steps := v.Env(i).Steps(); i != broken && steps != 1 {
				t.Errorf("env %d (not broken) made %d steps, want 1", i, steps)
			}
		}
		if err := v.Step(actions); !errors.Is(err, env.ErrBroken) {
			t.Errorf("step on a broken vector: %v, want ErrBroken", err)
		}
		if err := v.SampleActions(actions); !errors.Is(err, env.ErrBroken) {
			t.Errorf("sample on a broken vector: %v, want ErrBroken", err)
		}
		if err := v.Each(func(int, *env.Env) {}); !errors.Is(err, env.ErrBroken) {
			t.Errorf("each on a broken vector: %v, want ErrBroken", err)
		}
		if err := v.Reset(200); err != nil {
			t.Fatalf("reset after a panic: %v", err)
		}
		for i := range n {
			if v.Broken(i) != nil {
				t.Errorf("env %d still broken after Reset", i)
			}
		}
		for range 20 {
			if err := v.SampleActions(actions); err != nil {
				t.Fatal(err)
			}
			if err := v.Step(actions); err != nil {
				t.Fatalf("step after reset: %v", err)
			}
		}
	}
}

// TestVectorEachRecoversPanics checks that Each visits every environment
// once, in the workers, and that a panic in the function breaks only its
// environment.
func TestVectorEachRecoversPanics(t *testing.T) {
	v, err := env.NewVector("limited", 6, env.VectorOptions{Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	v.Reset(1)
	seen := make([]int, 6)
	if err := v.Each(func(i int, e *env.Env) {
		if e != v.Env(i) {
			panic("wrong environment")
		}
		seen[i]++
	}); err != nil {
		t.Fatal(err)
	}
	for i, k := range seen {
		if k != 1 {
			t.Errorf("env %d visited %d times", i, k)
		}
	}
	err = v.Each(func(i int, e *env.Env) {
		if i == 4 {
			panic("boom")
		}
	})
	var pe *env.PanicError
	if !errors.As(err, &pe) || pe.Env != 4 || pe.Value != "boom" {
		t.Fatalf("each with a panic at 4: %v", err)
	}
	if err := v.Step(make([]int, 6)); !errors.Is(err, env.ErrBroken) {
		t.Errorf("step after a panic in Each: %v", err)
	}
}

// TestVectorMaskPacked checks that the packed masks and the words of a
// caller's MaskWords buffer hold the same actions as the mask bytes (bit a%8
// of byte a/8, bit a%64 of word a/64), in every game (action counts that
// are and are not multiples of 8 and 64).
func TestVectorMaskPacked(t *testing.T) {
	for _, s := range env.Specs() {
		const n = 5
		v, err := env.NewVector(s.Name, n, env.VectorOptions{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		a, p := s.Actions, (s.Actions+7)/8
		w := (s.Actions + 63) / 64
		bytes, packed, words := make([]uint8, n*a), make([]uint8, n*p), make([]uint64, n*w)
		for i := range packed {
			packed[i] = 0xFF // stale contents must be overwritten
		}
		for i := range words {
			words[i] = ^uint64(0)
		}
		if err := v.SetBuffers(env.VectorBuffers{MaskBytes: bytes, MaskPacked: packed, MaskWords: words}); err != nil {
			t.Fatal(err)
		}
		v.Reset(7)
		actions := make([]int, n)
		for step := range 50 {
			for i := range n {
				for k := range a {
					bit := packed[i*p+k/8]>>(k%8)&1 == 1
					word := words[i*w+k/64]>>(k%64)&1 == 1
					if bit != (bytes[i*a+k] == 1) || bit != v.Mask(i).Has(k) || word != bit {
						t.Fatalf("%s step %d env %d action %d: packed %v, word %v, byte %d", s.Name, step, i, k, bit, word, bytes[i*a+k])
					}
				}
				for k := a; k < p*8; k++ {
					if packed[i*p+k/8]>>(k%8)&1 == 1 {
						t.Fatalf("%s: padding bit %d set", s.Name, k)
					}
				}
				for k := a; k < w*64; k++ {
					if words[i*w+k/64]>>(k%64)&1 == 1 {
						t.Fatalf("%s: padding bit %d of the words set", s.Name, k)
					}
				}
			}
			if err := v.SampleActions(actions); err != nil {
				t.Fatal(err)
			}
			if err := v.Step(actions); err != nil {
				t.Fatal(err)
			}
		}
		if err := v.SetBuffers(env.VectorBuffers{MaskPacked: make([]uint8, n*p+1)}); err == nil || !strings.Contains(err.Error(), "MaskPacked") {
			t.Errorf("%s: a packed mask buffer of the wrong length: %v", s.Name, err)
		}
		if err := v.SetBuffers(env.VectorBuffers{MaskWords: make([]uint64, n*w-1)}); err == nil || !strings.Contains(err.Error(), "MaskWords") {
			t.Errorf("%s: a mask words buffer of the wrong length: %v", s.Name, err)
		}
		v.Close()
	}
}

// BenchmarkVectorPythonBuffers steps a vector the way the Python package
// does (every output into caller buffers: observations, mask bytes and
// packed masks), with random legal actions drawn by the workers: it
// allocates nothing.
func BenchmarkVectorPythonBuffers(b *testing.B) {
	for _, game := range []string{"cromwell", "limited"} {
		b.Run(game, func(b *testing.B) {
			const n = 256
			v, err := env.NewVector(game, n, env.VectorOptions{})
			if err != nil {
				b.Fatal(err)
			}
			defer v.Close()
			s := v.Spec()
			bufs := env.VectorBuffers{
				Obs: make([]uint8, n*s.ObsLen), MaskBytes: make([]uint8, n*s.Actions),
				MaskPacked: make([]uint8, n*((s.Actions+7)/8)), Rewards: make([]float64, n),
				Terminated: make([]bool, n), Truncated: make([]bool, n), Illegal: make([]bool, n),
			}
			benchStepInto(b, v, bufs)
		})
	}
}

// TestVectorInfoNoOpTruncation checks that an episode that refused actions
// ran into its step limit reports the outcome Truncated.
func TestVectorInfoNoOpTruncation(t *testing.T) {
	v, err := env.NewVector("limited", 1, env.VectorOptions{Options: env.Options{MaxSteps: 3}, Illegal: env.IllegalNoOp})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	v.Reset(1)
	bad := 0
	for v.Mask(0).Has(bad) {
		bad++
	}
	for range 3 {
		if err := v.Step([]int{bad}); err != nil {
			t.Fatal(err)
		}
	}
	if !v.Truncated[0] {
		t.Fatal("three refused actions with a limit of 3 did not truncate")
	}
	if o := v.Info(0).Outcome; o != env.Truncated {
		t.Errorf("outcome %v, want truncated", o)
	}
}
