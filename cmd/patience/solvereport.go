package main

import (
	"fmt"
	"io"
	"time"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/solver/batch"
)

// writeDeal prints one deal's verdict line (and its winning line with show).
func writeDeal(w io.Writer, d *batch.Deal, spec *env.Spec, show bool) {
	took := fmt.Sprintf("%s nodes, %.2f s", thousands(d.Nodes), d.Seconds)
	switch d.Verdict {
	case "solved":
		note := ""
		if d.Moves > spec.MaxSteps {
			note = fmt.Sprintf("; longer than the step limit %d (play it with --max-steps %d)", spec.MaxSteps, d.Moves)
		}
		fmt.Fprintf(w, "deal %d: solved in %d moves (%s%s)\n", d.Seed, d.Moves, took, note)
		if show {
			for _, m := range d.Line {
				fmt.Fprintf(w, "    %s\n", m)
			}
		}
	case "unsolvable":
		how := "every reachable position searched"
		if d.Passes == 0 {
			how = "proved lost at the start by the game's dead test"
		}
		fmt.Fprintf(w, "deal %d: unsolvable (%s; %s)\n", d.Seed, how, took)
	default:
		why := d.Stop + " budget"
		if d.Stop == "unverified" {
			why = "a line that did not verify: " + d.Error
		}
		fmt.Fprintf(w, "deal %d: unknown (%s; at best %d of %d cards placed; %s)\n", d.Seed, why, d.Best, spec.Cards, took)
	}
}

// writeSummary prints a run's summary.
func writeSummary(w io.Writer, s batch.Summary, spec *env.Spec) {
	if s.Deals == 0 {
		fmt.Fprintln(w, "\nNo deal finished.")
		return
	}
	pct := func(k int) string { return fmt.Sprintf("%.1f %%", 100*float64(k)/float64(s.Deals)) }
	fmt.Fprintf(w, "\n%s: %d deals: solved %d (%s), unsolvable %d (%s), unknown %d (%s)\n",
		spec.ID(), s.Deals, s.Solved, pct(s.Solved), s.Unsolvable, pct(s.Unsolvable), s.Unknown, pct(s.Unknown))
	bound := ""
	if spec.Hidden {
		bound = " (clairvoyant: an upper bound)"
	}
	fmt.Fprintf(w, "Winnable: %.1f %%, 95 %% interval [%.1f %%, %.1f %%] counting the unknown deals as lost and as won%s\n",
		100*s.Winnable, 100*s.Low, 100*s.High, bound)
	fmt.Fprintf(w, "Speed: %s nodes/s; time per deal: median %.2f s, 95th percentile %.2f s; %s nodes a deal on average",
		thousands(int64(s.NodesPerSecond)), s.MedianSeconds, s.P95Seconds, thousands(int64(s.MeanNodes)))
	if s.Solved > 0 {
		fmt.Fprintf(w, "; winning lines of %.1f moves on average", s.MeanMoves)
	}
	fmt.Fprintf(w, "\nElapsed: %s\n", (time.Duration(s.WallSeconds * float64(time.Second))).Round(100*time.Millisecond))
}
