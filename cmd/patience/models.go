package main

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/patience-gym/patience/agents"
)

// defaultModelPath is the model file of a policy agent named without one
// (no model=FILE, no --model): the repository's committed models, one per
// game; {game} stands for the game's name.
const defaultModelPath = "models/{game}.safetensors"

// modulePath is the module whose checkout defaultModel looks for.
const modulePath = "github.com/patience-gym/patience"

// withDefaultModel gives an agent that needs a model file and names none
// (the policy agent) the default one, defaultModel().
func withDefaultModel(f *agents.Factory) (*agents.Factory, error) {
	if !f.NeedsModel() {
		return f, nil
	}
	return f.WithDefaultModel(defaultModel())
}

// defaultModel returns where the default models are: defaultModelPath as
// it is when the working directory has a models directory, else under the
// root of the patience checkout that holds the working directory (found by
// walking up to its go.mod), so that `go run ./cmd/patience` finds the
// committed models from anywhere in a checkout; else defaultModelPath as it
// is, which the agent then reports missing, saying where it looked.
func defaultModel() string {
	if st, err := os.Stat(filepath.Dir(defaultModelPath)); err == nil && st.IsDir() {
		return defaultModelPath
	}
	if root := repoRoot(); root != "" {
		return filepath.Join(root, defaultModelPath)
	}
	return defaultModelPath
}

// repoRoot returns the directory of the go.mod of the patience module that
// holds the working directory, or "".
func repoRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if data, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil {
			for line := range strings.Lines(string(data)) {
				if f := strings.Fields(line); len(f) == 2 && f[0] == "module" && strings.Trim(f[1], `"`) == modulePath {
					return dir
				}
			}
			return "" // another module
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
}
