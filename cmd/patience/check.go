package main

import (
	"context"
	"fmt"
	"runtime"

	"github.com/patience-gym/patience/env/check"
)

var checkCmd = &command{
	name:    "check",
	args:    "GAME[,GAME...]|all [options]",
	summary: "play random games and verify every game property; exit 1 on a failure",
	long: `Plays seeded random games and verifies every game property (card conservation, exact masks,
clone independence, hashes, same seed same game, determinization). Exit code 1 on any failure.`,
	run: runCheck,
}

func runCheck(ctx context.Context, inv *invocation, args []string) error {
	fs := inv.flags()
	games := fs.Int("games", 200, "random games per game")
	var start seedFlag
	fs.Var(&start, "seed-start", "first deal number")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "parallel workers")
	which, err := parseOne(fs, args, "GAME (a game, games separated by commas, or all)")
	if err != nil {
		return err
	}
	if *games <= 0 || *workers <= 0 {
		return usagef("--games and --workers must be positive")
	}
	if err := checkSeeds(start.v, int64(*games)); err != nil {
		return err
	}
	specs, err := gameList(which)
	if err != nil {
		return err
	}
	failed := false
	for _, spec := range specs {
		name := spec.ID()
		bar := newProgress(inv.stderr, "check "+name, int64(*games))
		last := 0
		rep, err := check.Run(ctx, name, check.Options{Games: *games, SeedStart: start.v, Workers: *workers,
			Progress: func(done int) { bar.add(done - last); last = done }})
		bar.done()
		if err != nil {
			return err
		}
		fmt.Fprintln(inv.stdout, rep)
		if !rep.OK() {
			failed = true
			fmt.Fprintln(inv.stdout, rep.Err())
		}
	}
	if failed {
		return errFailed
	}
	return nil
}
