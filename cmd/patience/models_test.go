package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/env"
)

// TestDefaultModel: a policy agent named without a model plays with
// models/<game>.safetensors of the working directory when it has a models
// directory, else of the root of the checkout that holds it (tests run in
// cmd/patience), and outside a checkout says where it looked. The label
// stays "policy": the default is not part of the agent string.
func TestDefaultModel(t *testing.T) {
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	cromwell, _ := env.Lookup("cromwell")
	if got := defaultModel(); got != filepath.Join(root, defaultModelPath) {
		t.Errorf("from cmd/patience: %s, want the root's", got)
	}
	f, err := parseAgent("policy", "")
	if err != nil {
		t.Fatal(err)
	}
	if err := agents.Prepare(f.New(), cromwell); err != nil || f.Label() != "policy" {
		t.Errorf("the default cromwell model from cmd/patience: %v (label %q)", err, f.Label())
	}

	t.Chdir(root)
	if got := defaultModel(); got != defaultModelPath {
		t.Errorf("from the root: %s, want %s", got, defaultModelPath)
	}

	t.Chdir(t.TempDir())
	if got := defaultModel(); got != defaultModelPath {
		t.Errorf("outside a checkout: %s, want %s", got, defaultModelPath)
	}
	f, err = parseAgent("policy", "")
	if err != nil {
		t.Fatal(err)
	}
	if err := agents.Prepare(f.New(), cromwell); err == nil || !strings.Contains(err.Error(), "models/cromwell.safetensors not found (looked for ") {
		t.Errorf("outside a checkout: %v", err)
	}
}
