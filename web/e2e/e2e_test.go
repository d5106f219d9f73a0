// Package e2e tests the HTML viewer and the browser game in headless
// Chromium, driven by the node scripts beside this file (playwright-core).
// The tests skip, saying why, when Chromium, node or node_modules are
// missing; setup.sh installs them. Set E2E_SHOTS to a directory to keep the
// screenshots.
package e2e

import (
	"context"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/env"
	_ "github.com/patience-gym/patience/env/all"
	"github.com/patience-gym/patience/render/viewer"
	"github.com/patience-gym/patience/web"
	"github.com/patience-gym/patience/web/webtest"
)

// browserReady skips the test unless Chromium, node and playwright-core are
// installed.
func browserReady(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("browser tests are skipped under -short")
	}
	chromium := os.Getenv("CHROMIUM")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	if _, err := os.Stat(chromium); err != nil {
		t.Skipf("no Chromium at %s (run web/e2e/setup.sh): %v", chromium, err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node on the PATH (run web/e2e/setup.sh)")
	}
	if _, err := os.Stat(filepath.Join("node_modules", "playwright-core", "package.json")); err != nil {
		t.Skip("web/e2e/node_modules is missing (run web/e2e/setup.sh, which runs npm ci)")
	}
	return node
}

// shotPath is where a screenshot goes: E2E_SHOTS if set, else a temporary
// directory.
func shotPath(t *testing.T, name string) string {
	if dir := os.Getenv("E2E_SHOTS"); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		return filepath.Join(dir, name)
	}
	return filepath.Join(t.TempDir(), name)
}

// runNode runs a script and fails t with its output if it fails.
func runNode(t *testing.T, node string, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, args...)
	out, err := cmd.CombinedOutput()
	t.Logf("node %v:\n%s", args, out)
	if err != nil {
		t.Fatalf("node %s: %v", args[0], err)
	}
}

func TestViewerInChromium(t *testing.T) {
	node := browserReady(t)
	e, err := env.Make("limited", env.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := agents.New("heuristic")
	if err != nil {
		t.Fatal(err)
	}
	rec := viewer.NewRecorder("Limited, deal 3, heuristic agent")
	if _, err := agents.Play(e, a, 3, 3, func(e *env.Env, act int) bool { rec.Add(e, act); return true }); err != nil {
		t.Fatal(err)
	}
	rec.Finish(e)
	file := filepath.Join(t.TempDir(), "episode.html")
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.WriteHTML(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	runNode(t, node, "viewer.mjs", file, shotPath(t, "viewer.png"))
}

func TestPlayInChromium(t *testing.T) {
	node := browserReady(t)
	s, err := web.New(webtest.Position())
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	runNode(t, node, "play.mjs", srv.URL+"/", shotPath(t, "play.png"))
}
