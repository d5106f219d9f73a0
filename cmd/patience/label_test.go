package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/patience-gym/patience/labels"
)

// TestLabelWritesPartsAndResumes: patience label writes its parts, says
// what it wrote, skips finished parts when run again, and refuses bad
// flags with a usage error.
func TestLabelWritesPartsAndResumes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "moves")
	args := []string{"label", "limited", "--deals", "3", "--per-deal", "2", "--part-deals", "2", "--rollouts", "2",
		"--rollout-steps", "5", "--seed-start", "10", "--out", dir}
	code, out, errs := runCLI(t, args...)
	if code != 0 || !strings.Contains(out, "Limited, heuristic agent: wrote 2 parts (") || !strings.Contains(out, dir) {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, out, errs)
	}
	m, err := labels.ReadMeta(labels.PartPath(dir, 1))
	if err != nil || m.Game != "limited" || m.PartFirstDeal != 12 || m.Rollouts != 2 || m.RolloutSteps != 5 {
		t.Fatalf("metadata %+v, %v", m, err)
	}
	code, out, _ = runCLI(t, args...)
	if code != 0 || !strings.Contains(out, "wrote 0 parts") || !strings.Contains(out, "skipped 2 parts already finished") {
		t.Errorf("rerun: exit %d, %s", code, out)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"label", "limited", "--per-deal", "0"}, "--per-deal must be positive"},
		{[]string{"label", "limited", "--rollouts", "-1"}, "--rollouts must not be negative"},
		{[]string{"label", "limited", "--rollout-steps", "-1"}, "--rollout-steps must not be negative"},
		{[]string{"label", "klondike"}, "unknown game"},
		{[]string{"label", "limited", "--agent", "wizard"}, "unknown agent"},
	} {
		code, _, errs := runCLI(t, tc.args...)
		if code != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, errs, tc.want)
		}
	}
}

// TestLabelShardsMerge: two shards' part files, copied into one directory,
// are the parts one run writes, byte for byte.
func TestLabelShardsMerge(t *testing.T) {
	root := t.TempDir()
	base := []string{"label", "limited", "--deals", "7", "--per-deal", "2", "--part-deals", "2", "--rollouts", "1",
		"--rollout-steps", "5", "--seed-start", "10"}
	if code, out, errs := runCLI(t, append(base, "--out", filepath.Join(root, "one"))...); code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	for _, sh := range []string{"0/2", "1/2"} {
		if code, out, errs := runCLI(t, append(base, "--out", filepath.Join(root, "shard"), "--shard", sh)...); code != 0 {
			t.Fatalf("shard %s: exit %d: %s\n%s", sh, code, errs, out)
		}
	}
	for p := range 4 {
		a, err1 := os.ReadFile(labels.PartPath(filepath.Join(root, "one"), p))
		b, err2 := os.ReadFile(labels.PartPath(filepath.Join(root, "shard"), p))
		if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
			t.Errorf("part %d: one run's and the shards' differ (%v, %v)", p, err1, err2)
		}
	}
	if shardDeals(7, 2, shardFlag{1, 2}) != 3 || shardDeals(7, 2, shardFlag{0, 2}) != 4 {
		t.Errorf("shardDeals: %d and %d deals, want 4 and 3", shardDeals(7, 2, shardFlag{0, 2}), shardDeals(7, 2, shardFlag{1, 2}))
	}
}
