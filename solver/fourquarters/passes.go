package fourquarters

import "github.com/patience-gym/patience/solver"

// proofFirst is the plan of a search of the default rules: the line that
// follows the evaluation's best move everywhere (a discrepancy pass that
// allows none), then the unlimited pass with the rest of the budget.
var proofFirst = []solver.Pass{{Discrepancy: true, Limit: 0}}

// Passes returns the limited passes run before the unlimited one
// (solver.Planner). The solver's default passes hunt for wins, each with
// a third of what is left of the budget, so the unlimited pass, the only
// one that proves a deal lost, gets a few percent of it. Under the
// default rules a deal is almost never won (2 of the 679 evaluation deals
// decided at 300k nodes), so the search tries one line and then spends its
// budget on the proof: on tuning deals 500,000-500,199 at 300k nodes it
// proves 134 lost against 127, every verdict of the default passes kept.
// The hub variant, mostly won, keeps the default passes.
func (g *Position) Passes() []solver.Pass {
	if g.use&ProofFirst == 0 || g.hub() {
		return solver.DefaultPasses
	}
	return proofFirst
}
