package main

import (
	"context"
	"fmt"
	"time"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/render/viewer"
)

var runCmd = &command{
	name:    "run",
	args:    "GAME [--agent A] [--model FILE] [--seed N] [--render] [--html FILE]",
	summary: "one game played by an agent, with the final board and the result",
	long:    "Plays one deal with an agent and prints the final board and the result.",
	run:     runRun,
}

func runRun(ctx context.Context, inv *invocation, args []string) error {
	fs := inv.flags()
	var seed, agentSeed seedFlag
	fs.Var(&seed, "seed", "the deal number ("+seedRange+")")
	fs.Var(&agentSeed, "agent-seed", "the agent's seed (default: the deal number)")
	render := fs.Bool("render", false, "print the board and the move at every step")
	html := fs.String("html", "", "write the episode to this HTML file (a viewer with the table at every step)")
	maxSteps := fs.Int("max-steps", 0, "step limit (0 = the game's default)")
	agentFlag := addAgentFlags(fs, "random")
	e, err := parseEnv(fs, args, maxSteps)
	if err != nil {
		return err
	}
	factory, err := agentFlag.parse()
	if err != nil {
		return err
	}
	agent := factory.New()
	if err := agents.Prepare(agent, e.Spec()); err != nil {
		return usageError{err}
	}
	if !agentSeed.set {
		agentSeed.v = seed.v
	}
	var page *viewer.Recorder
	if *html != "" {
		page = viewer.NewRecorder(fmt.Sprintf("%s, deal %d, %s agent", e.Spec().Title, seed.v, agent.Name()))
	}
	start := time.Now()
	// The episode plays in a goroutine, so that an interrupt is answered
	// even while an agent thinks about one move.
	type played struct {
		res agents.Result
		err error
	}
	done := make(chan played, 1)
	go func() {
		res, err := agents.Play(e, agent, seed.v, agentSeed.v, func(e *env.Env, a int) bool {
			if *render {
				fmt.Fprintf(inv.stdout, "%s\nstep %d: %s\n\n", e.Render(), e.Steps()+1, e.ActionString(a))
			}
			if page != nil {
				page.Add(e, a)
			}
			return ctx.Err() == nil
		})
		done <- played{res, err}
	}()
	var res agents.Result
	select {
	case p := <-done:
		if p.err != nil {
			return p.err
		}
		res = p.res
	case <-ctx.Done():
		return ctx.Err()
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if page != nil {
		page.Finish(e)
		if err := page.WriteFile(*html); err != nil {
			return err
		}
		fmt.Fprintf(inv.stdout, "wrote %s\n", *html)
	}
	fmt.Fprintf(inv.stdout, "%s\n", e.Render())
	fmt.Fprintln(inv.stdout, resultLine(e, agent, res, time.Since(start)))
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
