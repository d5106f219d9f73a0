package datasets

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/policy"
)

// writeModel writes a one-layer policy model for game whose weights are
// all w, and returns its path and the hex SHA-256 of the file.
func writeModel(t *testing.T, dir, game string, w float32) (string, string) {
	t.Helper()
	spec, err := env.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	weights := make([]float32, spec.Actions*spec.OneHotLen())
	for i := range weights {
		weights[i] = w * float32(i%5)
	}
	m, err := policy.NewModel(policy.Meta{Game: spec.Name, RulesVersion: spec.RulesVersion, ObsLen: spec.ObsLen,
		OneHotLen: spec.OneHotLen(), Actions: spec.Actions, Command: "datasets test"}, [][]float32{weights}, [][]float32{make([]float32, spec.Actions)})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "m.safetensors")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.WriteTo(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.Sum256(data)
	return path, hex.EncodeToString(h[:])
}

func TestDatasetRecordsTheModelItWasPlayedWith(t *testing.T) {
	dir := t.TempDir()
	model, sum := writeModel(t, dir, "limited", 0.01)
	cfg := Config{Game: gameSpec("limited"), Agent: agentOf("policy:model=" + model), Episodes: 6, SeedStart: 100, PartSize: 3, Workers: 2, Out: filepath.Join(dir, "data")}
	generate(t, cfg)
	ds := openDataset(t, cfg.Out)
	if ds.Meta.AgentModelSHA256 != sum {
		t.Fatalf("agent_model_sha256 %q, want %q", ds.Meta.AgentModelSHA256, sum)
	}
	// The same path with other weights is another dataset (read by the
	// next run, which parses its agent string again).
	os.Remove(filepath.Join(cfg.Out, TableEpisodes, partName(1)))
	writeModel(t, dir, "limited", 0.02)
	cfg.Agent = agentOf("policy:model=" + model)
	if _, err := Generate(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "agent_model_sha256") {
		t.Fatalf("a changed model: err %v, want one naming agent_model_sha256", err)
	}
	// Agents without a model record none.
	plain := small(filepath.Join(dir, "plain"))
	generate(t, plain)
	if ds, err := Open(plain.Out); err != nil || ds.Meta.AgentModelSHA256 != "" {
		t.Fatalf("random agent: %+v, %v", ds, err)
	}
}
