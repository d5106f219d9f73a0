package main

import (
	"context"
	"fmt"
	"text/tabwriter"

	"github.com/patience-gym/patience/env"
)

var listCmd = &command{
	name:    "list",
	summary: "the games: actions, observation length, hidden information, rules version",
	long:    "Lists the games with their action count, observation length, hidden information and rules version.",
	run:     runList,
}

func runList(ctx context.Context, inv *invocation, args []string) error {
	if err := parseNone(inv, inv.flags(), args); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(inv.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "GAME\tTITLE\tACTIONS\tOBS LEN\tHIDDEN\tRULES\tSTEP LIMIT\tABOUT")
	for _, s := range env.Specs() {
		hidden := "no"
		if s.Hidden {
			hidden = "yes"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\tv%d\t%d\t%s\n", s.Name, s.Title, s.Actions, s.ObsLen, hidden, s.RulesVersion, s.MaxSteps, s.Summary)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if err := listVariants(inv); err != nil {
		return err
	}
	fmt.Fprintln(inv.stdout, "\n`patience rules GAME` prints a game's rules; `patience play GAME` plays it.")
	return nil
}

// listVariants prints the variants of the rules that the games offer, by the
// names every command accepts (GAME:VARIANT).
func listVariants(inv *invocation) error {
	tw := tabwriter.NewWriter(inv.stdout, 0, 0, 2, ' ', 0)
	header := false
	for _, s := range env.Specs() {
		variants, err := env.Variants(s.Name)
		if err != nil {
			return fmt.Errorf("list: %w", err)
		}
		for _, v := range variants {
			g, err := env.NewGameOf(s.Name, v)
			if err != nil {
				return fmt.Errorf("list: %w", err)
			}
			if !header {
				fmt.Fprintln(inv.stdout, "\nVariants of the rules (name them as GAME:VARIANT wherever a game is named; the default rules stay as above):")
				fmt.Fprintln(tw, "GAME\tTITLE\tACTIONS\tRULES")
				header = true
			}
			vs := g.Spec()
			fmt.Fprintf(tw, "%s:%s\t%s\t%d\t%s\n", s.Name, v, vs.Title, vs.Actions, vs.Rules())
		}
	}
	return tw.Flush()
}
