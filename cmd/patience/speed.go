package main

import (
	"fmt"
	"io"
	"runtime"
	"text/tabwriter"
	"time"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
)

func cmdSpeed(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("speed", "[GAME|all] [options]", "Measures steps per second with random legal actions: one environment with and without\nthe observation, and the vector environment on one core and on all cores.", stderr)
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
	names, err := gameList(which)
	if err != nil {
		return err
	}
	cores := runtime.GOMAXPROCS(0)
	fmt.Fprintf(stdout, "Steps per second with uniformly random legal actions, each figure over %v (%s/%s, %d cores, %s).\n\n",
		*dur, runtime.GOOS, runtime.GOARCH, cores, runtime.Version())
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "game\tstep+mask+obs\tstep+mask\tvector, 1 core\tvector, %d cores\tscaling\t\n", cores)
	for _, name := range names {
		withObs, err := singleRate(name, true, *dur)
		if err != nil {
			return err
		}
		noObs, _ := singleRate(name, false, *dur)
		v1, err := vectorRate(name, *envs, 1, *dur)
		if err != nil {
			return err
		}
		vAll, _ := vectorRate(name, *envs, cores, *dur)
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%.2f×\t\n", name, rate(withObs), rate(noObs), rate(v1), rate(vAll), vAll/v1)
	}
	return tw.Flush()
}

// rate formats steps per second as "2.41 M".
func rate(r float64) string {
	switch {
	case r >= 1e6:
		return fmt.Sprintf("%.2f M", r/1e6)
	case r >= 1e3:
		return fmt.Sprintf("%.1f k", r/1e3)
	}
	return fmt.Sprintf("%.0f", r)
}

// singleRate steps one environment with random legal actions for about dur
// and returns steps per second; with obs false it skips the observation.
func singleRate(name string, obs bool, dur time.Duration) (float64, error) {
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
func vectorRate(name string, n, workers int, dur time.Duration) (float64, error) {
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
