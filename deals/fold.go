package deals

import (
	"fmt"
	"slices"
	"sort"

	"github.com/patience-gym/patience/internal/textlist"
)

// RunSearch is the search a solver run made, as a table records it: the
// command, and what a search must be given to decide the run's deals again.
type RunSearch struct {
	// Command is the command that made the run.
	Command string `json:"command"`
	// Nodes is the run's node budget a deal.
	Nodes int64 `json:"nodes"`
	// BestFirst is the run's best-first pass (solver.Options.BestFirst:
	// the pass used 1/BestFirst of the budget before the game's passes;
	// 0 for none).
	BestFirst int `json:"best_first,omitempty"`
	// Beam is the width of the run's beam pass (solver.Options.Beam; 0
	// for none).
	Beam int `json:"beam,omitempty"`
	// Knowledge is the run's set of search knowledge
	// (solver.Options.Knowledge; "" for the game's default).
	Knowledge string `json:"knowledge,omitempty"`
	// TableBits is the size of the run's transposition table
	// (solver.Options.TableBits; 0 for runs that did not record it): a
	// proof of loss made with a large table may not finish, within the
	// same budget, with a smaller one, which forgets positions.
	TableBits int `json:"table_bits,omitempty"`
}

// Run is what a table takes from a solver run (`patience solve --json`)
// folded into it (Fold): the game and rules version the run searched, its
// search, and its verdicts.
type Run struct {
	// Game and RulesVersion are those of the run's game (default rules).
	Game         string
	RulesVersion int
	RunSearch
	// Deals are the run's verdicts; deals outside the table are ignored.
	Deals []RunDeal
}

// RunDeal is one deal's verdict in a Run. A won deal's winning line must
// have been replayed to a win before it is folded in (`patience deals
// fold` replays every one).
type RunDeal struct {
	Seed    uint64
	Verdict Verdict
	// Nodes, LineLength and BestProgress are the run's figures, as Deal
	// holds them; DeadAtStart that the dead test proved the deal lost
	// before any search.
	Nodes        int64
	LineLength   int
	BestProgress int
	DeadAtStart  bool
}

// FoldedRun records a solver run folded into a table (Meta.Folded): its
// search (in JSON, its fields beside Deals) and the deals the table took.
type FoldedRun struct {
	RunSearch
	// Deals are the deals whose verdict the table took from the run: those
	// it left unknown and the run decided, in order.
	Deals []uint64 `json:"deals"`
	// Searched are the deals the run left unknown, searched with more
	// nodes than any search before it: the table took the run's nodes
	// for them (and its best progress where it got further), so that an
	// open deal says how far it has been searched. In order.
	Searched []uint64 `json:"searched,omitempty"`
}

// Fold gives each deal that t leaves unknown and a run decided that run's
// verdict, nodes, line length and progress (from the first run, in the
// order given, that decided it), records each run that gave a verdict in
// t.Meta.Folded, and scores and counts t again: the table then holds
// every verdict known, whatever budget found it. A deal that stays
// unknown takes the nodes of the largest search that left it so, when
// that is more than the table's (FoldedRun.Searched; its BestProgress
// becomes the most any of those searches placed). First it takes as won
// the deals its search left unknown that an agent of the table won
// (Meta.WonInPlay), as a build does. It returns the number of deals
// folded in and taken so. When a run is of another game or rules version,
// or a run decided a deal the other way from t (an agent's win included)
// or from another run, t is left as it was and the error names the first
// such deals: a search or a proof is wrong.
func Fold(t *Table, runs ...Run) (int, error) {
	for _, r := range runs {
		if r.Game != t.Meta.Game || r.RulesVersion != t.Meta.RulesVersion {
			return 0, fmt.Errorf("a run of %s (rules v%d) cannot be folded into the table of %s (rules v%d)",
				r.Game, r.RulesVersion, t.Meta.Game, t.Meta.RulesVersion)
		}
	}
	played, err := playedWins(t)
	if err != nil {
		return 0, err
	}
	wonInPlay := map[uint64]bool{}
	for _, i := range played {
		wonInPlay[t.Deals[i].Seed] = true
	}
	type source struct {
		d   RunDeal
		run int
	}
	take := map[uint64]source{}
	searched := map[uint64]source{} // deals a run left unknown: the largest search
	var clash []string
	for i, r := range runs {
		for _, d := range r.Deals {
			if d.Verdict == Unknown {
				// The largest search (the first of equals), with the most
				// cards any of them placed.
				s := source{d, i}
				if prev, seen := searched[d.Seed]; seen {
					if prev.d.Nodes >= d.Nodes {
						s = prev
					}
					s.d.BestProgress = max(prev.d.BestProgress, d.BestProgress)
				}
				searched[d.Seed] = s
				continue
			}
			old, ok := t.Deal(d.Seed)
			if wonInPlay[d.Seed] && d.Verdict != Won {
				// A run's line is taken over an agent's win (its length
				// is known); a proof of loss contradicts the win.
				old.Verdict = Won
			}
			switch {
			case !ok:
				continue
			case old.Verdict != Unknown && old.Verdict != d.Verdict:
				clash = append(clash, fmt.Sprintf("deal %d is %s in the table, %s in run %d", d.Seed, old.Verdict, d.Verdict, i+1))
			case old.Verdict != Unknown:
				// Decided alike already.
			default:
				prev, seen := take[d.Seed]
				switch {
				case !seen:
					take[d.Seed] = source{d, i}
				case prev.d.Verdict != d.Verdict:
					clash = append(clash, fmt.Sprintf("deal %d is %s in run %d, %s in run %d", d.Seed, prev.d.Verdict, prev.run+1, d.Verdict, i+1))
				}
			}
		}
	}
	if len(clash) > 0 {
		sort.Strings(clash)
		return 0, fmt.Errorf("%s: the runs contradict the table or one another (%s): a search or a proof is wrong, so nothing was folded",
			t.Meta.Game, textlist.Short(clash, 5, "; "))
	}
	played = slices.DeleteFunc(played, func(i int) bool { _, ok := take[t.Deals[i].Seed]; return ok })
	takePlayed(t, played)
	folds := make([]FoldedRun, len(runs))
	n := len(played)
	for i := range t.Deals {
		d := &t.Deals[i]
		s, ok := take[d.Seed]
		if !ok {
			if s, ok := searched[d.Seed]; ok && d.Verdict == Unknown && s.d.Nodes > d.Nodes {
				d.Nodes, d.BestProgress = s.d.Nodes, max(d.BestProgress, s.d.BestProgress)
				folds[s.run].Searched = append(folds[s.run].Searched, d.Seed)
			}
			continue
		}
		d.Verdict, d.Nodes, d.LineLength, d.BestProgress, d.DeadAtStart = s.d.Verdict, s.d.Nodes, s.d.LineLength, s.d.BestProgress, s.d.DeadAtStart
		folds[s.run].Deals = append(folds[s.run].Deals, d.Seed)
		n++
	}
	raised := map[uint64]bool{}
	for _, f := range folds {
		for _, seed := range f.Searched {
			raised[seed] = true
		}
	}
	for i := range t.Meta.Folded {
		// A deal searched further now is the new run's to answer for.
		f := &t.Meta.Folded[i]
		f.Searched = slices.DeleteFunc(f.Searched, func(seed uint64) bool { return raised[seed] })
	}
	for i, r := range runs {
		if len(folds[i].Deals) == 0 && len(folds[i].Searched) == 0 {
			continue
		}
		folds[i].RunSearch = r.RunSearch
		if j := slices.IndexFunc(t.Meta.Folded, func(f FoldedRun) bool { return f.RunSearch == r.RunSearch }); j >= 0 {
			// The same run folded again: one record.
			f := &t.Meta.Folded[j]
			f.Deals = sortedUnion(f.Deals, folds[i].Deals)
			f.Searched = sortedUnion(f.Searched, folds[i].Searched)
			continue
		}
		t.Meta.Folded = append(t.Meta.Folded, folds[i])
	}
	t.Meta.Folded = slices.DeleteFunc(t.Meta.Folded, func(f FoldedRun) bool { return len(f.Deals) == 0 && len(f.Searched) == 0 })
	if n > 0 {
		t.rescore()
	}
	return n, nil
}

// sortedUnion returns the seeds of a and b, each once, in order.
func sortedUnion(a, b []uint64) []uint64 {
	out := slices.Concat(a, b)
	slices.Sort(out)
	return slices.Compact(out)
}

// DecidedElsewhere returns the deals whose verdicts came from a search
// other than the table's own, in order: those kept from the table before
// (Meta.Kept), those taken from solver runs (Meta.Folded) and those an
// agent won (Meta.WonInPlay). A search at the table's budget need not
// decide them.
func (m *Meta) DecidedElsewhere() []uint64 {
	out := slices.Concat(m.Kept, m.WonInPlay)
	for _, f := range m.Folded {
		out = append(out, f.Deals...)
	}
	slices.Sort(out)
	return out
}
