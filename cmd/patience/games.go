package main

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/check"
	"github.com/patience-gym/patience/viewer"
)

func cmdList(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("list", "", "Lists the games with their action count, observation length, hidden information and rules version.", stderr)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("list takes no arguments")
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "GAME\tTITLE\tACTIONS\tOBS LEN\tHIDDEN\tRULES\tSTEP LIMIT\tABOUT")
	for _, s := range env.Specs() {
		hidden := "no"
		if s.Hidden {
			hidden = "yes"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\tv%d\t%d\t%s\n", s.Name, s.Title, s.Actions, s.ObsLen, hidden, s.RulesVersion, s.MaxSteps, s.Summary)
	}
	return tw.Flush()
}

// agentOptionFlags adds the agents' budget options to fs.
func agentOptionFlags(fs *flags) *agents.Options {
	o := new(agents.Options)
	fs.IntVar(&o.Rollouts, "rollouts", 0, fmt.Sprintf("mc: rollouts (sampled worlds) per move, each candidate played in every one (0 = %d)", agents.DefaultRollouts))
	fs.IntVar(&o.RolloutSteps, "rollout-steps", 0, fmt.Sprintf("mc, uct: cap on the length of one rollout (0 = %d for mc, %d for uct)", agents.DefaultRolloutSteps, agents.DefaultUCTRolloutSteps))
	fs.IntVar(&o.Width, "width", 0, fmt.Sprintf("mc: candidate actions rolled out, the best by one-step evaluation (0 = %d)", agents.DefaultWidth))
	fs.Float64Var(&o.SwitchMargin, "margin", 0, fmt.Sprintf("mc: standard errors a rollout gain must reach to overrule the one-step choice (0 = %g)", agents.DefaultSwitchMargin))
	fs.StringVar(&o.Policy, "policy", "", "mc: rollout policy, random or heuristic (default heuristic)")
	fs.IntVar(&o.Iterations, "iterations", 0, fmt.Sprintf("uct: search iterations per move (0 = %d)", agents.DefaultIterations))
	fs.Float64Var(&o.Exploration, "exploration", 0, fmt.Sprintf("uct: UCB1 exploration constant (0 = %g)", agents.DefaultExploration))
	return o
}

// agentFlags adds --agent and the agent options to fs and returns a function
// that builds the agent after parsing.
func agentFlags(fs *flags) func() (agents.Agent, error) {
	name := fs.String("agent", "random", "the agent: "+joinNames(agents.Names()))
	o := agentOptionFlags(fs)
	return func() (agents.Agent, error) {
		a, err := agents.New(*name, *o)
		if err != nil {
			return nil, usageError{err}
		}
		return a, nil
	}
}

func cmdRun(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("run", "GAME [options]", "Plays one deal with an agent and prints the final board and the result.", stderr)
	var seed, agentSeed seedFlag
	fs.Var(&seed, "seed", "the deal number")
	fs.Var(&agentSeed, "agent-seed", "the agent's seed (default: the deal number)")
	render := fs.Bool("render", false, "print the board and the move at every step")
	html := fs.String("html", "", "write the episode to this HTML file (a viewer with the table at every step)")
	maxSteps := fs.Int("max-steps", 0, "step limit (0 = the game's default)")
	mkAgent := agentFlags(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	e, err := makeEnv(pos, *maxSteps)
	if err != nil {
		return err
	}
	agent, err := mkAgent()
	if err != nil {
		return err
	}
	if !agentSeed.set {
		agentSeed.v = seed.v
	}
	var rec *viewer.Recorder
	if *html != "" {
		rec = viewer.NewRecorder(fmt.Sprintf("%s, deal %d, %s agent", e.Spec().Title, seed.v, agent.Name()))
	}
	start := time.Now()
	res, err := agents.Play(e, agent, seed.v, agentSeed.v, func(e *env.Env, a int) bool {
		if *render {
			fmt.Fprintf(stdout, "%s\nstep %d: %s\n\n", e.Render(), e.Steps()+1, e.ActionString(a))
		}
		if rec != nil {
			rec.Add(e, a)
		}
		return true
	})
	if err != nil {
		return err
	}
	if rec != nil {
		rec.Finish(e)
		if err := rec.WriteFile(*html); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s\n", *html)
	}
	fmt.Fprintf(stdout, "%s\n", e.Render())
	fmt.Fprintln(stdout, resultLine(e, agent, res, time.Since(start)))
	return nil
}

// resultLine sums up a finished episode for people.
func resultLine(e *env.Env, agent agents.Agent, res agents.Result, took time.Duration) string {
	outcome := res.Outcome.String()
	if res.Class != "" {
		outcome += " (" + res.Class + ")"
	}
	who := agent.Name()
	if s := agent.Settings(); s != "" {
		who += " [" + s + "]"
	}
	return fmt.Sprintf("%s deal %d, %s agent: %s after %d steps; %d/%d cards placed, return %.4f (%s)",
		e.Spec().Title, res.Seed, who, outcome, res.Steps, res.Progress, e.Spec().Cards, res.Return, took.Round(time.Millisecond))
}

func cmdCheck(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("check", "GAME[,GAME...]|all [options]", "Plays seeded random games and verifies every game property (card conservation, exact masks,\nclone independence, hashes, same seed same game, determinization). Exit code 1 on any failure.", stderr)
	games := fs.Int("games", 200, "random games per game")
	var start seedFlag
	fs.Var(&start, "seed-start", "first deal number")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "parallel workers")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	which, err := oneArg(pos, "GAME (a game, games separated by commas, or all)")
	if err != nil {
		return err
	}
	if *games <= 0 || *workers <= 0 {
		return usagef("--games and --workers must be positive")
	}
	names, err := gameList(which)
	if err != nil {
		return err
	}
	failed := false
	for _, name := range names {
		rep, err := checkParallel(name, *games, start.v, *workers, stderr)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, rep)
		if !rep.OK() {
			failed = true
			fmt.Fprintln(stdout, rep.Err())
		}
	}
	if failed {
		return errFailed
	}
	return nil
}

// checkParallel splits the deals among workers and merges their reports,
// showing progress on stderr.
func checkParallel(name string, games int, start uint64, workers int, stderr io.Writer) (*check.Report, error) {
	workers = min(workers, games)
	bar := newProgress(stderr, "check "+name, games)
	defer bar.done()
	reps := make([]*check.Report, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	per := (games + workers - 1) / workers
	for w := range workers {
		lo := w * per
		n := min(per, games-lo)
		if n <= 0 {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			last := 0
			reps[w], errs[w] = check.Run(name, check.Options{Games: n, SeedStart: start + uint64(lo), Progress: func(done int) {
				bar.add(done - last)
				last = done
			}})
		}()
	}
	wg.Wait()
	total := &check.Report{Game: name}
	for w, r := range reps {
		if errs[w] != nil {
			return nil, errs[w]
		}
		if r == nil {
			continue
		}
		total.Games += r.Games
		total.Steps += r.Steps
		total.Wins += r.Wins
		total.Truncated += r.Truncated
		total.Hidden += r.Hidden
		total.Determined += r.Determined
		total.Failures = append(total.Failures, r.Failures...)
	}
	return total, nil
}

// makeEnv makes the environment of the one positional argument, a game.
func makeEnv(pos []string, maxSteps int) (*env.Env, error) {
	game, err := oneArg(pos, "GAME")
	if err != nil {
		return nil, err
	}
	e, err := env.Make(game, env.Options{MaxSteps: maxSteps})
	if err != nil {
		return nil, usageError{err}
	}
	return e, nil
}

func joinNames(names []string) string { return strings.Join(names, ", ") }
