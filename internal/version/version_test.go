package version

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestEveryFileWritesTheVersion: the Python package, its project file, the
// research project and the citation all give Version, so a release changes
// them together.
func TestEveryFileWritesTheVersion(t *testing.T) {
	root := filepath.Join("..", "..")
	for file, pattern := range map[string]string{
		"pyproject.toml":                  `(?m)^version = "([^"]+)"`,
		"research/pyproject.toml":         `(?m)^version = "([^"]+)"`,
		"CITATION.cff":                    `(?m)^version: "([^"]+)"`,
		"python/patience_gym/__init__.py": `(?m)^__version__ = "([^"]+)"`,
	} {
		data, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(pattern).FindSubmatch(data)
		if m == nil {
			t.Errorf("%s: no version found (pattern %s)", file, pattern)
			continue
		}
		if got := string(m[1]); got != Version {
			t.Errorf("%s says version %s, the build %s", file, got, Version)
		}
	}
}

// TestLicenceDeclared: the licence file is Apache-2.0 and every metadata
// file declares it.
func TestLicenceDeclared(t *testing.T) {
	root := filepath.Join("..", "..")
	lic, err := os.ReadFile(filepath.Join(root, "LICENSE"))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`Apache License\s+Version 2\.0, January 2004`).Match(lic) {
		t.Error("LICENSE is not the Apache License 2.0")
	}
	for file, pattern := range map[string]string{
		"pyproject.toml":          `(?m)^license = "Apache-2\.0"`,
		"research/pyproject.toml": `(?m)^license = "Apache-2\.0"`,
		"CITATION.cff":            `(?m)^license: Apache-2\.0`,
	} {
		data, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			t.Fatal(err)
		}
		if !regexp.MustCompile(pattern).Match(data) {
			t.Errorf("%s does not declare Apache-2.0 (want %s)", file, pattern)
		}
	}
}
