package ladder

import rules "github.com/patience-gym/patience/env/ladder"

// SearchEvaluate ranks positions for the solver's search: Evaluate (the
// heuristic agent's evaluation, from what a player sees), plus a card's
// worth for each card that has left the ladder and for each empty row.
// The ladder gives its cards only home or into an empty row, and must be
// spent before the redeal, so a search that digs into it and keeps rows
// free finds wins sooner. Without the technique Ranking it is Evaluate.
func (g *Position) SearchEvaluate() float64 {
	v := g.Evaluate()
	if g.use&Ranking == 0 {
		return v
	}
	v += float64(rules.LadderSize - len(g.Ladder()))
	for r := range rules.NumRows {
		if len(g.Row(r)) == 0 {
			v++
		}
	}
	return v
}
