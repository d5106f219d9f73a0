package labelcsv

import (
	"context"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/solver"
)

// Player is what a worker plays a deal with and judges its positions by:
// the agent, the game's environment, and the solver's verdict.
type Player struct {
	Agent agents.Agent
	Env   *env.Env
	// Won reports whether the solver wins g within its node budget; a
	// verdict other than won counts as not won (as LastWon wants).
	Won func(g env.Game) bool
}

// NewPlayer makes the agent (an agent string, as agents.New reads it),
// the environment of game with its default options, and a solver of nodes
// nodes a search with a table of 2^20 entries.
func NewPlayer(game, agent string, nodes int64) (*Player, error) {
	a, err := agents.New(agent)
	if err != nil {
		return nil, err
	}
	s, err := solver.New(solver.Options{Nodes: nodes, TableBits: 20})
	if err != nil {
		return nil, err
	}
	e, err := env.Make(game, env.Options{})
	if err != nil {
		return nil, err
	}
	won := func(g env.Game) bool { return s.Solve(context.Background(), g).Verdict == solver.Solved }
	return &Player{Agent: a, Env: e, Won: won}, nil
}
