package e2e

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// mkdocs finds the mkdocs command: $MKDOCS, then the one `make docs`
// installs into the repository's .venv, then one on the PATH. The test
// skips without it.
func mkdocs(t *testing.T) string {
	t.Helper()
	if m := os.Getenv("MKDOCS"); m != "" {
		return m
	}
	if m, err := filepath.Abs(filepath.Join("..", "..", ".venv", "bin", "mkdocs")); err == nil {
		if _, err := os.Stat(m); err == nil {
			return m
		}
	}
	m, err := exec.LookPath("mkdocs")
	if err != nil {
		t.Skip("no mkdocs (run make docs, which installs docs/requirements.txt into .venv)")
	}
	return m
}

// TestSiteInChromium builds the documentation site with mkdocs --strict,
// serves it on a loopback port and opens it in headless Chromium: the front
// page and the pictures page show every game's picture (each image loaded,
// with a width), a rules page has its sections, the Python API reference is
// generated, and nothing is fetched from elsewhere. With E2E_SHOTS=docs/img
// it writes the front page's screenshot there as site.png.
func TestSiteInChromium(t *testing.T) {
	node := browserReady(t)
	mk := mkdocs(t)
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	site := filepath.Join(t.TempDir(), "site")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	build := exec.CommandContext(ctx, mk, "build", "--strict", "--quiet", "--site-dir", site)
	build.Dir = root
	build.Env = append(os.Environ(), "NO_MKDOCS_2_WARNING=1")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("mkdocs build --strict: %v\n%s", err, out)
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(site)))
	defer srv.Close()
	runNode(t, node, "site.mjs", srv.URL+"/", shotPath(t, "site.png"))
}
