package main

import (
	"context"
	"fmt"

	"github.com/patience-gym/patience/internal/rulebook"
)

var rulesCmd = &command{
	name:    "rules",
	args:    "[GAME]",
	summary: "a game's rules for players: the deal, the moves, the end, the choices made, the move names",
	long: `Prints the rules of a game as a player reads them: the deal, the moves, what happens by itself, how the
game ends, every choice made where the old texts are silent, and the move names ` + "`patience play`" + ` takes.
Without GAME, the index of the games. The same pages are docs/rules/*.md in the repository.`,
	run: runRules,
}

func runRules(ctx context.Context, inv *invocation, args []string) error {
	pos, err := parse(inv.flags(), args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		fmt.Fprint(inv.stdout, rulebook.Index())
		return nil
	}
	game, err := oneArg(pos, "GAME")
	if err != nil {
		return err
	}
	text, err := rulebook.Text(game)
	if err != nil {
		return usageError{err}
	}
	fmt.Fprint(inv.stdout, text)
	return nil
}
