package deals

import "fmt"

// DefaultMC is the mc agent of every table: the settings `patience bench`
// measures mc with.
const DefaultMC = "mc"

// defaultSettings are the budgets of each game's table, chosen by
// measurement so that the six tables take about twelve core-hours in all
// (docs/deals-tables.md gives the figures).
var defaultSettings = map[string]Settings{
	"cromwell":     {Nodes: 1_000_000},
	"fifteen":      {Nodes: 1_000_000},
	"limited":      {Nodes: 300_000, Worlds: 8, WorldNodes: 10_000},
	"royalparade":  {Nodes: 200_000, Worlds: 8, WorldNodes: 10_000},
	"ladder":       {Nodes: 50_000, Worlds: 8, WorldNodes: 5_000},
	"fourquarters": {Nodes: 100_000, Worlds: 8, WorldNodes: 10_000},
}

// DefaultSettings returns the budgets and agents of game's shipped table.
func DefaultSettings(game string) (Settings, error) {
	s, ok := defaultSettings[game]
	if !ok {
		return Settings{}, fmt.Errorf("no default budgets for the game %q", game)
	}
	s.Heuristic, s.MC = "heuristic", DefaultMC
	return s, nil
}
