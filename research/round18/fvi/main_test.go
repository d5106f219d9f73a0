package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/policy"
	"github.com/patience-gym/patience/research/internal/cli"
)

// TestRunWritesPlayableFiles: two rounds on a few deals write the first
// round's file and the last, each a value file of the game that weighs
// every one of its terms, looks ahead on the copies asked for, names its
// training deals (the second round's follow the first's), and plays.
func TestRunWritesPlayableFiles(t *testing.T) {
	c := config{Deals: cli.Deals{Game: "fourquarters", Start: 1000, N: 30, Workers: 2}, samples: 4, iterations: 2, lambda: 1e-6,
		out: filepath.Join(t.TempDir(), "fq.safetensors"), command: "test"}
	if err := c.run(); err != nil {
		t.Fatal(err)
	}
	spec, _ := env.Lookup("fourquarters")
	for i, path := range []string{c.out + ".round1", c.out} {
		m, err := policy.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		meta := m.Meta()
		if err := m.Check(spec); err != nil || meta.LookaheadSamples != 4 || meta.EvalWeight != float64(spec.Cards) || len(meta.EvalTerms) != len(spec.Terms) {
			t.Fatalf("%s: check %v, %d copies, eval_weight %g, %d terms", path, err, meta.LookaheadSamples, meta.EvalWeight, len(meta.EvalTerms))
		}
		var params map[string]float64
		if err := json.Unmarshal([]byte(meta.Extra["cem_parameters"]), &params); err != nil || len(params) != len(spec.Terms) ||
			params["term.removed"] != meta.EvalTerms["removed"] || meta.Extra["cem_features"] != "terms" {
			t.Fatalf("%s: cem_parameters %q (%v), cem_features %q", path, meta.Extra["cem_parameters"], err, meta.Extra["cem_features"])
		}
		var td struct{ First, Deals, Positions int }
		if err := json.Unmarshal([]byte(meta.Extra["training_deals"]), &td); err != nil || td.First != 1000+30*i || td.Deals != 30 || td.Positions < 30 {
			t.Fatalf("%s: training_deals %q (%v)", path, meta.Extra["training_deals"], err)
		}
		a, err := agents.New("policy:model=" + path)
		if err != nil {
			t.Fatal(err)
		}
		e, _ := env.Make("fourquarters", env.Options{})
		if _, err := agents.Play(e, a, 5, 5, nil); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRunRefuses: copies of a game without hidden cards, and a game
// without named terms, are errors that say so.
func TestRunRefuses(t *testing.T) {
	for _, c := range []struct {
		game    string
		samples int
		want    string
	}{
		{"fifteen", 4, "fifteen has no hidden cards: -samples must be 1"},
		{"limited", 1, "limited's evaluation has no named terms"},
	} {
		cfg := config{Deals: cli.Deals{Game: c.game, N: 1}, samples: c.samples, iterations: 1, out: filepath.Join(t.TempDir(), "x")}
		if err := cfg.run(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.game, err, c.want)
		}
	}
}
