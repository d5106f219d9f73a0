package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/internal/atomicfile"
	"github.com/patience-gym/patience/stats"
)

// writeDeal prints one deal's verdict line (and its winning line with show).
func writeDeal(w io.Writer, d *dealResult, spec *env.Spec, show bool) {
	took := fmt.Sprintf("%s nodes, %.2f s", formatThousands(d.Nodes), d.Seconds)
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

// formatThousands writes n with thousands separators.
func formatThousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	var sb strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			sb.WriteByte(',')
		}
		sb.WriteRune(c)
	}
	return sb.String()
}

// solveSummaryStats sums up a run.
type solveSummaryStats struct {
	Deals      int     `json:"deals"`
	Solved     int     `json:"solved"`
	Unsolvable int     `json:"unsolvable"`
	Unknown    int     `json:"unknown"`
	Winnable   float64 `json:"winnable"`
	// Low and High are the ends of the 95 % interval of the winnable share
	// counting the unknown deals as lost (Low) and as won (High).
	Low            float64 `json:"winnable_low"`
	High           float64 `json:"winnable_high"`
	NodesPerSecond float64 `json:"nodes_per_second"`
	MedianSeconds  float64 `json:"median_seconds"`
	P95Seconds     float64 `json:"p95_seconds"`
	MeanNodes      float64 `json:"mean_nodes"`
	SolveSeconds   float64 `json:"solve_seconds"`
	WallSeconds    float64 `json:"wall_seconds"`
	MeanMoves      float64 `json:"mean_moves"`
}

func summarize(results []dealResult, wall time.Duration) solveSummaryStats {
	s := solveSummaryStats{Deals: len(results), WallSeconds: wall.Seconds()}
	var nodes int64
	var secs []float64
	moves := 0
	for _, d := range results {
		switch d.Verdict {
		case "solved":
			s.Solved++
			moves += d.Moves
		case "unsolvable":
			s.Unsolvable++
		default:
			s.Unknown++
		}
		nodes += d.Nodes
		secs = append(secs, d.Seconds)
		s.SolveSeconds += d.Seconds
	}
	if s.Deals == 0 {
		return s
	}
	s.Winnable = float64(s.Solved) / float64(s.Deals)
	s.Low = stats.Wilson(s.Solved, s.Deals, 0.95).CI.Lo
	s.High = stats.Wilson(s.Solved+s.Unknown, s.Deals, 0.95).CI.Hi
	if s.SolveSeconds > 0 {
		s.NodesPerSecond = float64(nodes) / s.SolveSeconds
	}
	slices.Sort(secs)
	s.MedianSeconds = quantile(secs, 0.5)
	s.P95Seconds = quantile(secs, 0.95)
	s.MeanNodes = float64(nodes) / float64(s.Deals)
	if s.Solved > 0 {
		s.MeanMoves = float64(moves) / float64(s.Solved)
	}
	return s
}

// quantile returns the q-quantile of sorted xs (nearest rank).
func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	i := int(math.Ceil(q*float64(len(xs)))) - 1
	return xs[max(0, min(i, len(xs)-1))]
}

func (s solveSummaryStats) write(w io.Writer, spec *env.Spec) {
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
		formatThousands(int64(s.NodesPerSecond)), s.MedianSeconds, s.P95Seconds, formatThousands(int64(s.MeanNodes)))
	if s.Solved > 0 {
		fmt.Fprintf(w, "; winning lines of %.1f moves on average", s.MeanMoves)
	}
	fmt.Fprintf(w, "\nElapsed: %s\n", (time.Duration(s.WallSeconds * float64(time.Second))).Round(100*time.Millisecond))
}

// solveJSON is what --json writes.
type solveJSON struct {
	Command     string            `json:"command"`
	Game        string            `json:"game"`
	Variant     string            `json:"variant,omitempty"`
	Rules       string            `json:"rules"`
	Clairvoyant bool              `json:"clairvoyant"`
	SeedStart   uint64            `json:"seed_start"`
	Deals       int               `json:"deals_asked"`
	Budget      string            `json:"budget"`
	Workers     int               `json:"workers"`
	Interrupted bool              `json:"interrupted,omitempty"`
	GoVersion   string            `json:"go_version"`
	CPUs        int               `json:"cpus"`
	Summary     solveSummaryStats `json:"summary"`
	Results     []dealResult      `json:"results"`
}

// marshalSolveJSON lays the document out for people and diffs: the fields
// indented, each deal's result on one line.
func marshalSolveJSON(doc solveJSON) ([]byte, error) {
	results := doc.Results
	doc.Results = nil
	var head bytes.Buffer
	enc := json.NewEncoder(&head)
	enc.SetEscapeHTML(false) // move names hold ">"
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	// Replace the empty results with one line per deal.
	h := bytes.TrimSuffix(head.Bytes(), []byte("\n}\n"))
	h = bytes.TrimSuffix(h, []byte(",\n  \"results\": null"))
	var b bytes.Buffer
	b.Write(h)
	b.WriteString(",\n  \"results\": [")
	line := json.NewEncoder(&b)
	line.SetEscapeHTML(false)
	for i, r := range results {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n    ")
		if err := line.Encode(r); err != nil {
			return nil, err
		}
		b.Truncate(b.Len() - 1) // Encode ends with a newline
	}
	b.WriteString("\n  ]\n}\n")
	return b.Bytes(), nil
}

// saveJSON writes the run to path atomically.
func (r *solveRun) saveJSON(path string, results []dealResult, sum solveSummaryStats, interrupted bool, cmd string) error {
	doc := solveJSON{
		Command: cmd, Game: r.spec.Name, Variant: r.spec.Variant, Rules: r.spec.Rules(), Clairvoyant: r.spec.Hidden,
		SeedStart: r.seedStart, Deals: r.deals, Budget: r.budget, Workers: r.workers, Interrupted: interrupted,
		GoVersion: runtime.Version(), CPUs: runtime.NumCPU(), Summary: sum, Results: results,
	}
	data, err := marshalSolveJSON(doc)
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(path, data); err != nil {
		return fmt.Errorf("--json: %w", err)
	}
	return nil
}
