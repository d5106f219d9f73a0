package bench

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/env"
	_ "github.com/patience-gym/patience/env/all"
	_ "github.com/patience-gym/patience/env/limited" // a second fast game while env/all lists only one
	_ "github.com/patience-gym/patience/solver/all"  // the search knowledge the tables were made with, for the solver agent
)

const testSeeds = 500 // tests play deals far below the measuring range

// testGames returns two registered games.
func testGames(t *testing.T) []*env.Spec {
	t.Helper()
	specs := env.Specs()
	if len(specs) < 2 {
		t.Skipf("need two registered games, have %v", env.Names())
	}
	return specs[:2]
}

// parseAll reads each of names with parse, failing t on an error.
func parseAll[T any](t *testing.T, parse func(string) (T, error), names []string) []T {
	t.Helper()
	var out []T
	for _, n := range names {
		v, err := parse(n)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

// lookup returns the specs of the named games.
func lookup(t *testing.T, names ...string) []*env.Spec {
	t.Helper()
	return parseAll(t, env.Lookup, names)
}

// testAgents returns random, and heuristic when it exists.
func testAgents() []string {
	out := []string{"random"}
	if _, err := agents.New("heuristic"); err == nil {
		out = append(out, "heuristic")
	}
	return out
}

// parseAgents parses agent strings.
func parseAgents(t *testing.T, list ...string) []*agents.Factory {
	t.Helper()
	return parseAll(t, agents.Parse, list)
}

// withoutTimes returns the episodes with their wall times cleared.
func withoutTimes(eps []Episode) []Episode {
	out := append([]Episode(nil), eps...)
	for i := range out {
		out[i].Wall = 0
	}
	return out
}

// rowsWithoutTimes returns r's rows as JSON with the timing cleared.
func rowsWithoutTimes(t *testing.T, r *Result) string {
	t.Helper()
	rows := r.Rows()
	for i := range rows {
		rows[i].MsPerGame = 0
	}
	b, err := json.Marshal(rows)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var shared struct {
	once sync.Once
	r    *Result
	err  error
}

// sharedResult is one small benchmark the writer tests share: two games,
// random (and heuristic when it exists), four deals.
func sharedResult(t *testing.T) *Result {
	t.Helper()
	games := testGames(t)
	shared.once.Do(func() {
		shared.r, shared.err = Run(context.Background(), Config{Games: games, Agents: parseAgents(t, testAgents()...), Deals: 4, SeedStart: testSeeds})
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.r
}

func runBench(t *testing.T, cfg Config) *Result {
	t.Helper()
	r, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestEveryAgentPlaysTheSameDeals(t *testing.T) {
	games, ags := testGames(t), testAgents()
	const deals = 4
	r := runBench(t, Config{Games: games, Agents: parseAgents(t, ags...), Deals: deals, SeedStart: testSeeds, Workers: 3})
	if len(r.Episodes) != len(games)*len(ags)*deals || len(r.Summaries) != len(games)*len(ags) {
		t.Fatalf("%d episodes and %d summaries for %d games × %d agents × %d deals",
			len(r.Episodes), len(r.Summaries), len(games), len(ags), deals)
	}
	for _, spec := range games {
		g := spec.ID()
		for _, a := range ags {
			eps := r.EpisodesOf(g, a)
			for i, ep := range eps {
				if ep.Game != g || ep.Agent != a || ep.Seed != testSeeds+uint64(i) {
					t.Fatalf("%s/%s episode %d is %s/%s deal %d", g, a, i, ep.Game, ep.Agent, ep.Seed)
				}
				// The episode is the agent's game on that deal, seeded with it.
				e, _ := env.Make(g, env.Options{})
				ag, _ := agents.New(a)
				res, err := agents.Play(e, ag, ep.Seed, ep.Seed, nil)
				if err != nil {
					t.Fatal(err)
				}
				if res.Steps != ep.Steps || res.Progress != ep.Progress || (res.Outcome == env.Won) != ep.Won ||
					res.Outcome.String() != ep.Outcome || ep.Cards != e.Spec().Cards {
					t.Errorf("%s/%s deal %d: bench recorded %+v, a direct game gives %+v", g, a, ep.Seed, ep, res)
				}
			}
		}
		// The comparisons pair the deals.
		base := r.EpisodesOf(g, "random")
		for _, a := range ags {
			s, ok := r.Summary(g, a)
			if !ok {
				t.Fatalf("no summary for %s/%s", g, a)
			}
			if a == "random" {
				if s.VsBaseline != nil {
					t.Errorf("random is compared with itself")
				}
				continue
			}
			eps := r.EpisodesOf(g, a)
			b, c, diff := 0, 0, 0.0
			for i := range eps {
				if eps[i].Won && !base[i].Won {
					b++
				}
				if base[i].Won && !eps[i].Won {
					c++
				}
				diff += eps[i].Fraction() - base[i].Fraction()
			}
			v := s.VsBaseline
			if v == nil || v.Baseline != "random" || v.Wins.B != b || v.Wins.C != c ||
				math.Abs(v.Progress.Diff.Mean-diff/deals) > 1e-12 {
				t.Errorf("%s/%s vs random: %+v, want b %d, c %d, mean diff %v", g, a, v, b, c, diff/deals)
			}
		}
	}
}

func TestSummariesCountTheEpisodes(t *testing.T) {
	games := testGames(t)
	r := runBench(t, Config{Games: games, Agents: parseAgents(t, "random"), Deals: 8, SeedStart: testSeeds})
	for _, s := range r.Summaries {
		eps := r.EpisodesOf(s.Game, s.Agent)
		wins, trunc, steps, frac := 0, 0, 0, 0.0
		for _, e := range eps {
			if e.Won {
				wins++
			}
			if e.Truncated {
				trunc++
			}
			steps += e.Steps
			frac += e.Fraction()
		}
		if s.Games != 8 || s.Wins.Successes != wins || s.Truncated != trunc ||
			s.MeanSteps != float64(steps)/8 || math.Abs(s.Progress.Mean-frac/8) > 1e-12 {
			t.Errorf("%s/%s summary %+v does not match its episodes", s.Game, s.Agent, s)
		}
		if !s.Wins.CI.Contains(s.Wins.P) || (s.Progress.SD > 0 && !(s.Progress.CI.Lo < s.Progress.Mean && s.Progress.Mean < s.Progress.CI.Hi)) {
			t.Errorf("%s/%s intervals do not contain their estimates: %+v", s.Game, s.Agent, s)
		}
		if s.MsPerGame < 0 || math.IsNaN(s.MsPerGame) {
			t.Errorf("ms per game %v", s.MsPerGame)
		}
	}
}

func TestSameNumbersTwice(t *testing.T) {
	games, ags := testGames(t), testAgents()
	cfg := Config{Games: games, Agents: parseAgents(t, ags...), Deals: 5, SeedStart: testSeeds + 100, Workers: 1}
	a := runBench(t, cfg)
	cfg.Workers = 4
	b := runBench(t, cfg)
	if !reflect.DeepEqual(withoutTimes(a.Episodes), withoutTimes(b.Episodes)) {
		t.Error("two runs of the same deals differ")
	}
	if ra, rb := rowsWithoutTimes(t, a), rowsWithoutTimes(t, b); ra != rb {
		t.Errorf("summaries differ:\n%s\n%s", ra, rb)
	}
}

func TestProgressCallback(t *testing.T) {
	games := testGames(t)
	var got []int
	total := 0
	runBench(t, Config{Games: games, Agents: parseAgents(t, "random"), Deals: 4, SeedStart: testSeeds, Workers: 2,
		Progress: func(done, n int) { got = append(got, done); total = n }})
	if total != 2*4 || len(got) != total {
		t.Fatalf("progress calls %v, total %d", got, total)
	}
	for i, d := range got {
		if d != i+1 {
			t.Fatalf("progress calls %v are not 1, 2, 3, ...", got)
		}
	}
}

func TestCancel(t *testing.T) {
	games := testGames(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, Config{Games: games, Agents: parseAgents(t, "random"), Deals: 50, SeedStart: testSeeds}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled before the start: %v", err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	_, err := Run(ctx, Config{Games: games, Agents: parseAgents(t, "random"), Deals: 200, SeedStart: testSeeds, Workers: 2,
		Progress: func(done, _ int) {
			if done == 3 {
				cancel()
			}
		}})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled midway: %v", err)
	}
}

func TestConfigErrors(t *testing.T) {
	games := testGames(t)
	tests := []struct {
		cfg  Config
		want string
	}{
		{Config{Games: games, Agents: parseAgents(t, "random")}, "deals must be positive"},
		{Config{Games: []*env.Spec{nil}, Agents: parseAgents(t, "random"), Deals: 1}, "game 0 of the list is nil"},
		{Config{Games: games, Agents: []*agents.Factory{nil}, Deals: 1}, "agent 0 of the list is nil"},
		{Config{Games: games, Agents: parseAgents(t, "random", "Random"), Deals: 1}, "agent random is listed twice"},
		{Config{Games: []*env.Spec{games[0], games[0]}, Agents: parseAgents(t, "random"), Deals: 1}, "listed twice"},
		{Config{Games: games, Agents: parseAgents(t, "random"), Deals: 1, Confidence: 95}, "confidence level 95"},
		{Config{Games: games, Agents: parseAgents(t, "random"), Deals: 1, Workers: -1}, "workers"},
		{Config{Games: games, Agents: parseAgents(t, "random"), Deals: 2, SeedStart: math.MaxUint64}, "last deal number"},
	}
	for _, tt := range tests {
		_, err := Run(context.Background(), tt.cfg)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: error %v, want one containing %q", tt.cfg, err, tt.want)
		}
	}
}

func TestCSVParsesBack(t *testing.T) {
	r := sharedResult(t)
	var buf bytes.Buffer
	if err := r.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(recs[0], CSVHeader) || len(recs) != 1+len(r.Summaries) {
		t.Fatalf("header %v and %d lines", recs[0], len(recs))
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	for i, s := range r.Summaries {
		rec := recs[i+1]
		num := func(name string) float64 {
			v, err := strconv.ParseFloat(rec[col[name]], 64)
			if err != nil {
				t.Fatalf("line %d column %s: %v", i+2, name, err)
			}
			return v
		}
		if rec[col["game"]] != s.Game || rec[col["agent"]] != s.Agent || num("games") != float64(s.Games) ||
			num("wins") != float64(s.Wins.Successes) || num("win_lo") != s.Wins.CI.Lo || num("win_hi") != s.Wins.CI.Hi ||
			num("progress_mean") != s.Progress.Mean || num("progress_lo") != s.Progress.CI.Lo || num("mean_steps") != s.MeanSteps {
			t.Errorf("line %d %v does not read back as %+v", i+2, rec, s)
		}
		if s.VsBaseline == nil {
			if rec[col["mcnemar_p"]] != "" || rec[col["agent_only_wins"]] != "" {
				t.Errorf("line %d: the baseline has comparison fields %v", i+2, rec)
			}
		} else if num("mcnemar_p") != s.VsBaseline.Wins.P || num("progress_diff") != s.VsBaseline.Progress.Diff.Mean ||
			num("agent_only_wins") != float64(s.VsBaseline.Wins.B) {
			t.Errorf("line %d comparison %v does not read back as %+v", i+2, rec, s.VsBaseline)
		}
	}
}

func TestJSONParsesBack(t *testing.T) {
	r := sharedResult(t)
	var buf bytes.Buffer
	if err := r.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	// Plain JSON any reader takes.
	var generic map[string]any
	if err := json.Unmarshal(buf.Bytes(), &generic); err != nil {
		t.Fatal(err)
	}
	if generic["deals"] != 4.0 || len(generic["summaries"].([]any)) != len(r.Summaries) {
		t.Errorf("generic decode: deals %v, %d summaries", generic["deals"], len(generic["summaries"].([]any)))
	}
	back, err := ReadJSON(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Episodes, r.Episodes) {
		t.Error("episodes differ after a round trip")
	}
	// The summaries recomputed from the episodes are the ones written.
	wrote, _ := json.Marshal(r.Rows())
	read, _ := json.Marshal(back.Rows())
	if string(wrote) != string(read) {
		t.Errorf("summaries differ after a round trip:\n%s\n%s", wrote, read)
	}
	if back.SeedStart != r.SeedStart || back.Baseline != r.Baseline || !reflect.DeepEqual(back.Agents, r.Agents) {
		t.Errorf("settings differ after a round trip: %+v", back)
	}
	if _, err := ReadJSON(strings.NewReader(`{"deals": 3}`)); err == nil {
		t.Error("a file without episodes was accepted")
	}
}

// With one deal the intervals of the means are undefined: the writers say
// so instead of failing.
func TestOneDeal(t *testing.T) {
	games := testGames(t)
	r := runBench(t, Config{Games: games, Agents: parseAgents(t, testAgents()...), Deals: 1, SeedStart: testSeeds})
	var md, js, cs bytes.Buffer
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteJSON(&js); err != nil {
		t.Fatalf("JSON with undefined intervals: %v", err)
	}
	if err := r.WriteCSV(&cs); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), `"progress_lo": null`) {
		t.Error("undefined interval not written as null")
	}
	if err := r.WritePlot(&bytes.Buffer{}, "png"); err != nil {
		t.Errorf("chart with undefined intervals: %v", err)
	}
}

func TestMarkdown(t *testing.T) {
	r := sharedResult(t)
	var buf bytes.Buffer
	if err := r.WriteMarkdown(&buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, g := range r.Games {
		if !strings.Contains(out, "(`"+g+"`)") {
			t.Errorf("no table for %s:\n%s", g, out)
		}
	}
	for _, want := range []string{"Deals 500 to 503", "win % [95 % CI]", "McNemar p", "| random | 4 |"} {
		if !strings.Contains(out, want) {
			t.Errorf("markdown lacks %q:\n%s", want, out)
		}
	}
	// Every table line has the header's number of cells.
	for line := range strings.SplitSeq(out, "\n") {
		if strings.HasPrefix(line, "|") && strings.Count(line, "|") != 12 {
			t.Errorf("line with %d bars: %s", strings.Count(line, "|"), line)
		}
	}
}

func TestPlotIsAPNG(t *testing.T) {
	r := sharedResult(t)
	path := filepath.Join(t.TempDir(), "chart.png")
	if err := r.SavePlot(path); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() < 400 || b.Dy() < 400 {
		t.Errorf("chart is only %v", b)
	}
	var svg bytes.Buffer
	if err := r.WritePlot(&svg, "svg"); err != nil || !strings.Contains(svg.String(), "<svg") {
		t.Errorf("SVG chart: %v", err)
	}
	if err := r.SavePlot(filepath.Join(t.TempDir(), "chart.txt")); err == nil || !strings.Contains(err.Error(), "png") {
		t.Errorf("chart.txt: %v", err)
	}
	matches, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*tmp*"))
	if len(matches) > 0 {
		t.Errorf("temporary files left: %v", matches)
	}
}

// TestTwoSettingsOfOneAgent measures one agent with two settings side by
// side: each is its own row, labelled by its settings, and plays as an
// agent made from that string does.
func TestTwoSettingsOfOneAgent(t *testing.T) {
	games := testGames(t)[:1]
	r := runBench(t, Config{Games: games, Agents: parseAgents(t, "uct:iterations=4", "UCT: iterations=8", "random"), Deals: 2, SeedStart: testSeeds, MaxSteps: 30})
	want := []string{"uct:iterations=4", "uct:iterations=8", "random"}
	if !slices.Equal(r.Agents, want) {
		t.Fatalf("agents %v, want %v", r.Agents, want)
	}
	for _, label := range want[:2] {
		s, ok := r.Summary(games[0].ID(), label)
		if !ok || !strings.HasPrefix(s.Settings, "iterations="+strings.TrimPrefix(label, "uct:iterations=")+" ") || s.VsBaseline == nil {
			t.Errorf("%s: summary %+v", label, s)
		}
		ag, _ := agents.New(label)
		e, _ := env.Make(games[0].ID(), env.Options{MaxSteps: 30})
		res, err := agents.Play(e, ag, testSeeds, testSeeds, nil)
		if err != nil {
			t.Fatal(err)
		}
		if ep := r.EpisodesOf(games[0].ID(), label)[0]; ep.Progress != res.Progress || ep.Steps != res.Steps {
			t.Errorf("%s: bench episode %+v, direct play %+v", label, ep, res)
		}
	}
	if _, err := Run(context.Background(), Config{Games: games, Agents: parseAgents(t, "uct:iterations=4", "uct:iterations=4"), Deals: 1}); err == nil {
		t.Error("the same settings twice were accepted")
	}
}

// TestClairvoyantAgentIsACeiling: in a game with hidden cards the solver
// agent (which sees them) is marked a ceiling and compared with no one; in
// a game of perfect information it is an agent like the others.
func TestClairvoyantAgentIsACeiling(t *testing.T) {
	r := runBench(t, Config{Games: lookup(t, "fourquarters", "fifteen"), Agents: parseAgents(t, "random", "solver:nodes=3000"), Deals: 2, SeedStart: testSeeds, MaxSteps: 60})
	hidden, _ := r.Summary("fourquarters", "solver:nodes=3000")
	open, _ := r.Summary("fifteen", "solver:nodes=3000")
	if !hidden.Ceiling || hidden.VsBaseline != nil {
		t.Errorf("four quarters: ceiling %v, comparison %v", hidden.Ceiling, hidden.VsBaseline)
	}
	if open.Ceiling || open.VsBaseline == nil {
		t.Errorf("the fifteen: ceiling %v, comparison %v", open.Ceiling, open.VsBaseline)
	}
	var md strings.Builder
	r.WriteMarkdown(&md)
	if strings.Count(md.String(), "(ceiling: sees the hidden cards)") != 1 {
		t.Errorf("markdown:\n%s", md.String())
	}
	var js bytes.Buffer
	r.WriteJSON(&js)
	back, err := ReadJSON(&js)
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := back.Summary("fourquarters", "solver:nodes=3000"); !s.Ceiling {
		t.Error("the ceiling is lost in JSON")
	}
}
