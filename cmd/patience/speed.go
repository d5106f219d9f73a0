package main

import (
	"context"
	"fmt"
	"runtime"
	"text/tabwriter"
	"time"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
)

var speedCmd = &command{
	name:    "speed",
	args:    "[GAME|all] [--duration D] [--envs N]",
	summary: "steps per second: one environment, and the vector environment on 1 and all cores",
	long: `Measures steps per second with random legal actions: one environment with and without
the observation, and the vector environment on one core and on all cores.`,
	run: runSpeed,
}

func runSpeed(ctx context.Context, inv *invocation, args []string) error {
	fs := inv.flags()
	stdout := inv.stdout
	dur := fs.Duration("duration", 500*time.Millisecond, "how long each measurement runs")
	envs := fs.Int("envs", 256, "environments in the vector")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	which := "all"
	if len(pos) > 1 {
		return usagef("unexpected arguments %q (want one GAME or all)", pos[1:])
	}
	if len(pos) == 1 {
		which = pos[0]
	}
	if *dur <= 0 || *envs <= 0 {
		return usagef("--duration and --envs must be positive")
	}
	specs, err := gameList(which)
	if err != nil {
		return err
	}
	cores := runtime.GOMAXPROCS(0)
	fmt.Fprintf(stdout, "Steps per second with uniformly random legal actions, each figure over %v (%s/%s, %d cores, %s).\n\n",
		*dur, runtime.GOOS, runtime.GOARCH, cores, runtime.Version())
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "game\tstep+mask+obs\tstep+mask\tvector, 1 core\tvector, %d cores\tscaling\t\n", cores)
	for _, spec := range specs {
		name := spec.ID()
		if err := ctx.Err(); err != nil {
			return err
		}
		withObs, err := singleRate(ctx, name, true, *dur)
		if err != nil {
			return err
		}
		noObs, err := singleRate(ctx, name, false, *dur)
		if err != nil {
			return err
		}
		v1, err := vectorRate(ctx, name, *envs, 1, *dur)
		if err != nil {
			return err
		}
		vAll, err := vectorRate(ctx, name, *envs, cores, *dur)
		if err != nil {
			return err
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%.2f×\t\n", name, rate(withObs), rate(noObs), rate(v1), rate(vAll), vAll/v1)
	}
	return tw.Flush()
}

// singleRate steps one environment with random legal actions for about dur
// and returns steps per second; with obs false it skips the observation.
func singleRate(ctx context.Context, name string, obs bool, dur time.Duration) (float64, error) {
	e, err := env.Make(name, env.Options{})
	if err != nil {
		return 0, err
	}
	rng := cards.NewRand(1)
	seed := uint64(0)
	e.Reset(seed)
	steps := 0
	start := time.Now()
	for time.Since(start) < dur {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		for range 1024 {
			for e.Done() {
				seed++
				e.Reset(seed)
			}
			m := e.Mask()
			if _, _, _, err := e.Advance(m.Nth(rng.IntN(m.Count()))); err != nil {
				return 0, err
			}
			if obs {
				e.Observation()
			}
		}
		steps += 1024
	}
	return float64(steps) / time.Since(start).Seconds(), nil
}

// vectorRate steps a vector of n environments on the given number of
// workers for about dur, with random legal actions drawn by the vector's
// workers, and returns environment steps per second.
func vectorRate(ctx context.Context, name string, n, workers int, dur time.Duration) (float64, error) {
	v, err := env.NewVector(name, n, env.VectorOptions{Workers: workers})
	if err != nil {
		return 0, err
	}
	defer v.Close()
	if err := v.Reset(0); err != nil {
		return 0, err
	}
	actions := make([]int, n)
	steps := 0
	start := time.Now()
	for time.Since(start) < dur {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		if err := v.SampleActions(actions); err != nil {
			return 0, err
		}
		if err := v.Step(actions); err != nil {
			return 0, err
		}
		steps += n
	}
	return float64(steps) / time.Since(start).Seconds(), nil
}
