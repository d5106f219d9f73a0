package main

import (
	"context"
	"fmt"

	"github.com/patience-gym/patience/agents"
)

var agentsCmd = &command{
	name:    "agents",
	summary: "the agents and the settings each reads (mc:rollouts=8,width=4)",
	long: `Lists the agents with their settings and defaults. An agent is named on the command line as NAME or
NAME:key=value,key=value, as in --agent mc:rollouts=8,width=4 or --agents "mc:rollouts=8,mc:rollouts=32".`,
	run: runAgents,
}

func runAgents(ctx context.Context, inv *invocation, args []string) error {
	if err := parseNone(inv, inv.flags(), args); err != nil {
		return err
	}
	for _, name := range agents.Names() {
		f, err := agents.Parse(name)
		if err == nil {
			// The default model as this command names it, wherever it is
			// found (defaultModel).
			f, err = f.WithDefaultModel(defaultModelPath)
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(inv.stdout, "%s\n    %s\n", name, f.Doc())
		for _, s := range f.Help() {
			fmt.Fprintf(inv.stdout, "    %s=%s\n        %s\n", s.Key, s.Default, s.Doc)
		}
	}
	return nil
}
