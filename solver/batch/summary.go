package batch

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"runtime"
	"slices"
	"time"

	"github.com/patience-gym/patience/internal/atomicfile"
	"github.com/patience-gym/patience/stats"
)

// Summary sums up a run's deals.
type Summary struct {
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

// Summarize sums up deals decided in wall time.
func Summarize(deals []Deal, wall time.Duration) Summary {
	s := Summary{Deals: len(deals), WallSeconds: wall.Seconds()}
	var nodes int64
	var secs []float64
	moves := 0
	for _, d := range deals {
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

// File is a run's result file (`patience solve --json`).
type File struct {
	Command     string   `json:"command"`
	Game        string   `json:"game"`
	Variant     string   `json:"variant,omitempty"`
	Rules       string   `json:"rules"`
	Clairvoyant bool     `json:"clairvoyant"`
	SeedStart   uint64   `json:"seed_start"`
	Deals       int      `json:"deals_asked"`
	Seeds       []uint64 `json:"seeds,omitempty"` // Config.Seeds: the deals asked, when not SeedStart on

	Budget      string  `json:"budget"`
	BestFirst   int     `json:"best_first,omitempty"` // solver.Options.BestFirst: a best-first pass before the others
	Beam        int     `json:"beam,omitempty"`       // solver.Options.Beam: a beam pass before the others
	Knowledge   string  `json:"knowledge,omitempty"`  // solver.Options.Knowledge: a set of search knowledge other than the default
	TableBits   int     `json:"table_bits,omitempty"` // solver.Options.TableBits: the transposition table's size (0: the default), which a proof may need
	Workers     int     `json:"workers"`
	Interrupted bool    `json:"interrupted,omitempty"`
	GoVersion   string  `json:"go_version"`
	CPUs        int     `json:"cpus"`
	Summary     Summary `json:"summary"`
	Results     []Deal  `json:"results"`
}

// NewFile returns the result file of a run of cfg that decided res,
// summed up as sum, made by command.
func NewFile(cfg Config, res *Result, sum Summary, interrupted bool, command string) File {
	spec := cfg.Game.Spec()
	return File{
		Command: command, Game: spec.Name, Variant: spec.Variant, Rules: spec.Rules(), Clairvoyant: spec.Hidden,
		SeedStart: cfg.SeedStart, Deals: cfg.Deals, Seeds: cfg.Seeds, Budget: cfg.Budget, BestFirst: cfg.Options.BestFirst, Beam: cfg.Options.Beam, Knowledge: cfg.Options.Knowledge, TableBits: cfg.Options.TableBits, Workers: res.Workers, Interrupted: interrupted,
		GoVersion: runtime.Version(), CPUs: runtime.NumCPU(), Summary: sum, Results: res.Deals,
	}
}

// Marshal lays the file out for people and diffs: the fields indented,
// each deal's result on one line.
func (f File) Marshal() ([]byte, error) {
	results := f.Results
	f.Results = nil
	var head bytes.Buffer
	enc := json.NewEncoder(&head)
	enc.SetEscapeHTML(false) // move names hold ">"
	enc.SetIndent("", "  ")
	if err := enc.Encode(f); err != nil {
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

// Save writes the file to path, whole or not at all.
func (f File) Save(path string) error {
	data, err := f.Marshal()
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(path, data); err != nil {
		return fmt.Errorf("the result file: %w", err)
	}
	return nil
}
