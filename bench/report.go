package bench

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/patience-gym/patience/stats"
)

// pct formats a fraction as a percentage with one decimal, or "—".
func pct(x float64) string {
	if math.IsNaN(x) {
		return "—"
	}
	return strconv.FormatFloat(100*x, 'f', 1, 64)
}

// pctCI formats a fraction with its interval as percentages:
// "12.0 [7.0, 19.8]".
func pctCI(x float64, iv stats.Interval) string {
	if !iv.Defined() {
		return pct(x)
	}
	return fmt.Sprintf("%s [%s, %s]", pct(x), pct(iv.Lo), pct(iv.Hi))
}

// signedPctCI is pctCI for a difference, with its sign.
func signedPctCI(x float64, iv stats.Interval) string {
	sp := func(v float64) string {
		s := pct(v)
		if v > 0 && s != "0.0" {
			s = "+" + s
		}
		return s
	}
	if !iv.Defined() {
		return sp(x)
	}
	return fmt.Sprintf("%s [%s, %s]", sp(x), sp(iv.Lo), sp(iv.Hi))
}

// FormatP formats a p-value for people: three decimals down to 0.001,
// then scientific notation ("3.2e-07"), "—" when undefined.
func FormatP(p float64) string {
	switch {
	case math.IsNaN(p):
		return "—"
	case p == 0:
		return "0"
	case p >= 0.001:
		return strconv.FormatFloat(p, 'f', 3, 64)
	}
	return strconv.FormatFloat(p, 'e', 1, 64)
}

// level formats the confidence level as a percentage ("95 %").
func level(c float64) string {
	return strconv.FormatFloat(100*c, 'f', -1, 64) + " %"
}

// WriteMarkdown writes the result as one markdown table per game, after a
// line saying which deals were played by which agents.
func (r *Result) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Deals %d to %d (%d per game), the same for every agent; each agent is seeded with the deal number.\n",
		r.SeedStart, r.SeedStart+uint64(r.Deals-1), r.Deals)
	var set []string
	for _, a := range r.Agents {
		if s := r.Settings[a]; s != "" {
			set = append(set, fmt.Sprintf("%s: %s", a, s))
		}
	}
	if len(set) > 0 {
		fmt.Fprintf(&b, "Agent settings: %s.\n", strings.Join(set, "; "))
	}
	if r.MaxSteps > 0 {
		fmt.Fprintf(&b, "Step limit: %d.\n", r.MaxSteps)
	}
	lv := level(r.Confidence)
	hasBase := false
	for _, a := range r.Agents {
		hasBase = hasBase || a == r.Baseline
	}
	for _, g := range r.Games {
		fmt.Fprintf(&b, "\n### %s (`%s`)\n\n", r.Titles[g], g)
		fmt.Fprintf(&b, "| agent | games | wins | win %% [%s CI] | progress %% [%s CI] | steps | truncated %% | ms/game |", lv, lv)
		if hasBase {
			fmt.Fprintf(&b, " vs %s: won/lost | McNemar p | Δ progress pp [%s CI] |", r.Baseline, lv)
		}
		b.WriteString("\n|---|--:|--:|--:|--:|--:|--:|--:|")
		if hasBase {
			b.WriteString("--:|--:|--:|")
		}
		b.WriteString("\n")
		for _, s := range r.Summaries {
			if s.Game != g {
				continue
			}
			name := s.Agent
			if s.Ceiling {
				name += " (ceiling: sees the hidden cards)"
			}
			fmt.Fprintf(&b, "| %s | %d | %d | %s | %s | %.1f | %s | %s |", name, s.Games, s.Wins.Successes,
				pctCI(s.Wins.P, s.Wins.CI), pctCI(s.Progress.Mean, s.Progress.CI), s.MeanSteps,
				pct(s.TruncatedRate()), formatMs(s.MsPerGame))
			if hasBase {
				if c := s.VsBaseline; c != nil {
					fmt.Fprintf(&b, " %d/%d | %s | %s |", c.Wins.B, c.Wins.C, FormatP(c.Wins.P),
						signedPctCI(c.Progress.Diff.Mean, c.Progress.Diff.CI))
				} else {
					b.WriteString(" — | — | — |")
				}
			}
			b.WriteString("\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// formatMs formats milliseconds with about three significant digits.
func formatMs(ms float64) string {
	switch {
	case ms >= 100:
		return strconv.FormatFloat(ms, 'f', 0, 64)
	case ms >= 10:
		return strconv.FormatFloat(ms, 'f', 1, 64)
	}
	return strconv.FormatFloat(ms, 'f', 2, 64)
}

// jfloat is a float64 that JSON writes as null when it is NaN or infinite
// (and reads back from null as NaN).
type jfloat float64

// MarshalJSON writes the number, or null.
func (f jfloat) MarshalJSON() ([]byte, error) {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, v, 'g', -1, 64), nil
}

// UnmarshalJSON reads a number, or null as NaN.
func (f *jfloat) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*f = jfloat(math.NaN())
		return nil
	}
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return fmt.Errorf("bad number %s: %w", b, err)
	}
	*f = jfloat(v)
	return nil
}

// csvString formats f for CSV: shortest exact decimal, "" when undefined.
func (f jfloat) csvString() string {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// Row is a Summary flattened into the columns of the CSV file and the
// objects of the JSON file's "summaries". Fractions are in [0, 1]; the
// vs-baseline columns are empty (null) for the baseline itself.
type Row struct {
	Game             string `json:"game"`
	Agent            string `json:"agent"`
	Settings         string `json:"settings"`
	Games            int    `json:"games"`
	Wins             int    `json:"wins"`
	WinRate          jfloat `json:"win_rate"`
	WinLo            jfloat `json:"win_lo"`
	WinHi            jfloat `json:"win_hi"`
	ProgressMean     jfloat `json:"progress_mean"`
	ProgressLo       jfloat `json:"progress_lo"`
	ProgressHi       jfloat `json:"progress_hi"`
	ProgressSD       jfloat `json:"progress_sd"`
	MeanSteps        jfloat `json:"mean_steps"`
	Truncated        int    `json:"truncated"`
	TruncatedRate    jfloat `json:"truncated_rate"`
	MsPerGame        jfloat `json:"ms_per_game"`
	Baseline         string `json:"baseline"`
	AgentOnlyWins    *int   `json:"agent_only_wins"`
	BaselineOnlyWins *int   `json:"baseline_only_wins"`
	McNemarP         jfloat `json:"mcnemar_p"`
	ProgressDiff     jfloat `json:"progress_diff"`
	ProgressDiffLo   jfloat `json:"progress_diff_lo"`
	ProgressDiffHi   jfloat `json:"progress_diff_hi"`
	ProgressDiffP    jfloat `json:"progress_diff_p"`
}

// rowOf flattens s.
func rowOf(s Summary) Row {
	nan := jfloat(math.NaN())
	r := Row{
		Game: s.Game, Agent: s.Agent, Settings: s.Settings, Games: s.Games, Wins: s.Wins.Successes,
		WinRate: jfloat(s.Wins.P), WinLo: jfloat(s.Wins.CI.Lo), WinHi: jfloat(s.Wins.CI.Hi),
		ProgressMean: jfloat(s.Progress.Mean), ProgressLo: jfloat(s.Progress.CI.Lo), ProgressHi: jfloat(s.Progress.CI.Hi),
		ProgressSD: jfloat(s.Progress.SD), MeanSteps: jfloat(s.MeanSteps), Truncated: s.Truncated,
		TruncatedRate: jfloat(s.TruncatedRate()), MsPerGame: jfloat(s.MsPerGame),
		McNemarP: nan, ProgressDiff: nan, ProgressDiffLo: nan, ProgressDiffHi: nan, ProgressDiffP: nan,
	}
	if c := s.VsBaseline; c != nil {
		b, cc := c.Wins.B, c.Wins.C
		r.Baseline, r.AgentOnlyWins, r.BaselineOnlyWins = c.Baseline, &b, &cc
		r.McNemarP = jfloat(c.Wins.P)
		r.ProgressDiff = jfloat(c.Progress.Diff.Mean)
		r.ProgressDiffLo, r.ProgressDiffHi = jfloat(c.Progress.Diff.CI.Lo), jfloat(c.Progress.Diff.CI.Hi)
		r.ProgressDiffP = jfloat(c.Progress.P)
	}
	return r
}

// Rows returns the summaries flattened, in order.
func (r *Result) Rows() []Row {
	out := make([]Row, len(r.Summaries))
	for i, s := range r.Summaries {
		out[i] = rowOf(s)
	}
	return out
}

// CSVHeader is the header line of WriteCSV, the same names as the JSON
// keys of a summary.
var CSVHeader = []string{
	"game", "agent", "settings", "games", "wins", "win_rate", "win_lo", "win_hi",
	"progress_mean", "progress_lo", "progress_hi", "progress_sd", "mean_steps",
	"truncated", "truncated_rate", "ms_per_game", "baseline", "agent_only_wins",
	"baseline_only_wins", "mcnemar_p", "progress_diff", "progress_diff_lo",
	"progress_diff_hi", "progress_diff_p",
}

// record returns the CSV fields of row, in CSVHeader order.
func (row Row) record() []string {
	optInt := func(p *int) string {
		if p == nil {
			return ""
		}
		return strconv.Itoa(*p)
	}
	return []string{
		row.Game, row.Agent, row.Settings, strconv.Itoa(row.Games), strconv.Itoa(row.Wins),
		row.WinRate.csvString(), row.WinLo.csvString(), row.WinHi.csvString(),
		row.ProgressMean.csvString(), row.ProgressLo.csvString(), row.ProgressHi.csvString(),
		row.ProgressSD.csvString(), row.MeanSteps.csvString(), strconv.Itoa(row.Truncated),
		row.TruncatedRate.csvString(), row.MsPerGame.csvString(), row.Baseline,
		optInt(row.AgentOnlyWins), optInt(row.BaselineOnlyWins), row.McNemarP.csvString(),
		row.ProgressDiff.csvString(), row.ProgressDiffLo.csvString(), row.ProgressDiffHi.csvString(),
		row.ProgressDiffP.csvString(),
	}
}

// WriteCSV writes one line per game and agent with the columns of
// CSVHeader. Undefined numbers are empty fields.
func (r *Result) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader); err != nil {
		return fmt.Errorf("writing CSV: %w", err)
	}
	for _, row := range r.Rows() {
		if err := cw.Write(row.record()); err != nil {
			return fmt.Errorf("writing CSV: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("writing CSV: %w", err)
	}
	return nil
}

// document is the JSON file.
type document struct {
	Games      []string          `json:"games"`
	Titles     map[string]string `json:"titles"`
	Agents     []string          `json:"agents"`
	Settings   map[string]string `json:"settings"`
	Deals      int               `json:"deals"`
	SeedStart  uint64            `json:"seed_start"`
	MaxSteps   int               `json:"max_steps"`
	Confidence float64           `json:"confidence"`
	Baseline   string            `json:"baseline"`
	Workers    int               `json:"workers"`
	ElapsedMs  int64             `json:"elapsed_ms"`
	Summaries  []Row             `json:"summaries"`
	Episodes   []Episode         `json:"episodes"`
	// Clairvoyant and Hidden mark the agents that see hidden cards and
	// the games that have them (a ceiling's rows).
	Clairvoyant map[string]bool `json:"clairvoyant,omitempty"`
	Hidden      map[string]bool `json:"hidden,omitempty"`
}

// WriteJSON writes the whole result: the settings, the summaries (as Rows,
// undefined numbers null) and every episode.
func (r *Result) WriteJSON(w io.Writer) error {
	doc := document{
		Games: r.Games, Titles: r.Titles, Agents: r.Agents, Settings: r.Settings,
		Deals: r.Deals, SeedStart: r.SeedStart, MaxSteps: r.MaxSteps, Confidence: r.Confidence,
		Baseline: r.Baseline, Workers: r.Workers, ElapsedMs: r.Elapsed.Milliseconds(),
		Summaries: r.Rows(), Episodes: r.Episodes, Clairvoyant: r.Clairvoyant, Hidden: r.Hidden,
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("writing JSON: %w", err)
	}
	return nil
}

// ReadJSON reads a file WriteJSON wrote and rebuilds the Result, its
// summaries recomputed from the episodes.
func ReadJSON(rd io.Reader) (*Result, error) {
	var doc document
	dec := json.NewDecoder(rd)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("reading benchmark JSON: %w", err)
	}
	if doc.Deals <= 0 || len(doc.Episodes) != len(doc.Games)*len(doc.Agents)*doc.Deals {
		return nil, fmt.Errorf("reading benchmark JSON: %d episodes for %d games × %d agents × %d deals",
			len(doc.Episodes), len(doc.Games), len(doc.Agents), doc.Deals)
	}
	if err := stats.CheckConfidence(doc.Confidence); err != nil {
		return nil, fmt.Errorf("reading benchmark JSON: %w", err)
	}
	for i, e := range doc.Episodes {
		if e.Cards <= 0 {
			return nil, fmt.Errorf("reading benchmark JSON: episode %d has %d cards", i, e.Cards)
		}
	}
	r := &Result{
		Games: doc.Games, Titles: doc.Titles, Agents: doc.Agents, Settings: doc.Settings,
		Deals: doc.Deals, SeedStart: doc.SeedStart, MaxSteps: doc.MaxSteps, Confidence: doc.Confidence,
		Baseline: doc.Baseline, Workers: doc.Workers, Elapsed: time.Duration(doc.ElapsedMs) * time.Millisecond,
		Episodes: doc.Episodes, Clairvoyant: doc.Clairvoyant, Hidden: doc.Hidden,
	}
	r.Summaries = summarize(r)
	return r, nil
}
