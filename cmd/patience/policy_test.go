package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/patience-gym/patience/agents"
)

// goldenModel is the small random Four Quarters policy of the agents tests,
// named relative to the working directory of the tests, cmd/patience.
const goldenModel = "../../policy/testdata/golden_policy.safetensors"

// TestPolicyAgentInRunBenchGenerate: --agent policy with --model (or the
// model setting) plays in run, bench and generate.
func TestPolicyAgentInRunBenchGenerate(t *testing.T) {
	code, out, errs := runCLI(t, "run", "fourquarters", "--agent", "policy", "--model", goldenModel, "--seed", "3")
	if code != 0 || !strings.Contains(out, "Four Quarters deal 3, policy [model="+goldenModel+" sample=0 temperature=1 repeats=avoid] agent:") {
		t.Fatalf("run: exit %d\n%s\n%s", code, out, errs)
	}
	code, out, errs = runCLI(t, "bench", "--games", "fourquarters", "--agents", "random,policy:model="+goldenModel+",mc:rollouts=2,width=2,model="+goldenModel,
		"--deals", "3", "--seed-start", "0")
	if code != 0 || !strings.Contains(out, "| policy:model="+goldenModel+" | 3 |") {
		t.Fatalf("bench: exit %d\n%s\n%s", code, out, errs)
	}
	code, out, errs = runCLI(t, "bench", "--games", "fourquarters", "--agents", "all", "--model", goldenModel, "--deals", "2", "--seed-start", "0")
	if code != 0 || !strings.Contains(out, "| policy:model="+goldenModel+" | 2 |") {
		t.Fatalf("bench --agents all --model: exit %d\n%s\n%s", code, out, errs)
	}
	code, out, errs = runCLI(t, "bench", "--games", "fourquarters", "--agents", "random,policy:sample=1", "--model", goldenModel, "--deals", "2", "--seed-start", "0")
	if code != 0 || !strings.Contains(out, "| policy:sample=1,model="+goldenModel+" | 2 |") {
		t.Fatalf("bench --model: exit %d\n%s\n%s", code, out, errs)
	}
	dir := filepath.Join(t.TempDir(), "ds")
	code, out, errs = runCLI(t, "generate", "fourquarters", "--agent", "policy:sample=1", "--model", goldenModel, "--episodes", "4", "--out", dir)
	if code != 0 || !strings.Contains(out, "policy agent: wrote 1 of 1 parts") {
		t.Fatalf("generate: exit %d\n%s\n%s", code, out, errs)
	}
	info, err := os.ReadFile(filepath.Join(dir, "meta", "info.json"))
	if err != nil || !strings.Contains(string(info), "model="+goldenModel+" sample=1 temperature=1") {
		t.Errorf("the dataset does not record the model: %v\n%s", err, info)
	}
}

// TestPolicyModelErrors: a missing or mismatched model stops run, bench
// and generate before any game, with a message naming the file and both
// games.
func TestPolicyModelErrors(t *testing.T) {
	dir := t.TempDir()
	abs, _ := filepath.Abs(goldenModel)
	other := "model " + abs + " was trained for fourquarters, not limited"
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"run", "limited", "--agent", "policy", "--model", goldenModel}, 2, other},
		{[]string{"run", "limited", "--agent", "policy:model=" + filepath.Join(dir, "{game}.safetensors")}, 2,
			"policy agent cannot play limited: model file " + filepath.Join(dir, "limited.safetensors") + ": "},
		{[]string{"run", "limited", "--agent", "policy", "--model", "nowhere.safetensors"}, 2, "agent policy: model=nowhere.safetensors: model file nowhere.safetensors not found"},
		{[]string{"run", "limited", "--agent", "random", "--model", goldenModel}, 2, `unknown setting "model": random takes no settings`},
		{[]string{"run", "limited", "--agent", "policy:model=" + goldenModel, "--model", goldenModel}, 2, "setting model is given twice"},
		{[]string{"bench", "--games", "fourquarters,limited", "--agents", "random,policy:model=" + goldenModel, "--deals", "2"}, 1, other},
		{[]string{"bench", "--agents", "random,mc", "--model", goldenModel}, 2, "--model " + goldenModel + ": no policy agent in --agents goes without a model of its own"},
		{[]string{"generate", "limited", "--agent", "mc", "--model", goldenModel, "--out", filepath.Join(dir, "ds")}, 2, "mc agent cannot play limited: " + other},
	} {
		code, out, errs := runCLI(t, tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.want) || out != "" {
			t.Errorf("%q: exit %d, stderr %q, stdout %q; want exit %d and %q", tc.args, code, errs, out, tc.code, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "ds")); err == nil {
		t.Error("generate created the dataset directory of an agent that cannot play")
	}
}

// TestAllAgentsAreThoseThatCanPlay: --agents all lists the policy agent only
// when every game has its model in the default place, so that a fresh clone
// benches "all" without models.
func TestAllAgentsAreThoseThatCanPlay(t *testing.T) {
	games, err := gameList("limited,fifteen")
	if err != nil {
		t.Fatal(err)
	}
	list, err := agentList("all", games, "")
	if err != nil {
		t.Fatal(err)
	}
	ready := true
	policy, err := parseAgent("policy", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, spec := range games {
		ready = ready && agents.Prepare(policy.New(), spec) == nil
	}
	var names []string
	for _, f := range list {
		names = append(names, f.Label())
	}
	for _, name := range agents.Names() {
		want := name != "policy" || ready
		if slices.Contains(names, name) != want {
			t.Errorf("agents all = %v: %s listed %v, want %v", names, name, !want, want)
		}
	}
}
