package deals

import (
	"fmt"
	"slices"

	"github.com/patience-gym/patience/internal/textlist"
)

// playedWins returns the deals of t (by index) that its search left
// unknown and an agent of the table won (Deal.Heuristic or Deal.MC). An
// agent's game is a line of legal moves played through an environment to
// a win, without seeing the hidden cards: a proof that the deal can be
// won, as good as a solver's line, so a table that calls such a deal
// unknown says less than it knows. A deal the table holds as lost and an
// agent won is an error naming the first such deals: a proof is wrong,
// or the game is. It changes nothing.
func playedWins(t *Table) ([]int, error) {
	var take []int
	var clash []string
	for i, d := range t.Deals {
		if !d.Heuristic.Won && !d.MC.Won {
			continue
		}
		switch d.Verdict {
		case Lost:
			clash = append(clash, fmt.Sprintf("deal %d is lost in the table and %s won it", d.Seed, d.Winner()))
		case Unknown:
			take = append(take, i)
		}
	}
	if len(clash) > 0 {
		return nil, fmt.Errorf("%s: agents won deals the table holds as lost (%s): a proof or the game is wrong",
			t.Meta.Game, textlist.Short(clash, 5, "; "))
	}
	return take, nil
}

// takePlayed gives the deals of t at the indices take (from playedWins)
// the verdict Won and lists them in t.Meta.WonInPlay. Such a deal keeps
// its nodes (the search's, which did not find the win) and has no line
// length (0): the agent's game is not recorded.
func takePlayed(t *Table, take []int) {
	for _, i := range take {
		d := &t.Deals[i]
		d.Verdict, d.BestProgress = Won, t.Meta.Cards
		if !slices.Contains(t.Meta.WonInPlay, d.Seed) {
			t.Meta.WonInPlay = append(t.Meta.WonInPlay, d.Seed)
		}
	}
	slices.Sort(t.Meta.WonInPlay)
}

// Winner names the first of the table's agents that won the deal
// ("heuristic" or "mc"), or "" when neither did.
func (d Deal) Winner() string {
	switch {
	case d.Heuristic.Won:
		return "heuristic"
	case d.MC.Won:
		return "mc"
	}
	return ""
}
