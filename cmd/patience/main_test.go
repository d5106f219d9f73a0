package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestListShowsEveryGame(t *testing.T) {
	code, out, _ := runCLI(t, "list")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"cromwell", "1119", "739", "v1", "cromwell:noswap", "v1+noswap", "fourquarters:hub", "v1+hub"} {
		if !strings.Contains(out, want) {
			t.Errorf("list lacks %q:\n%s", want, out)
		}
	}
}

func TestRunPlaysToTheEnd(t *testing.T) {
	code, out, errs := runCLI(t, "run", "cromwell", "--agent", "random", "--seed", "5")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "Cromwell deal 5, random agent:") || !strings.Contains(out, "cards placed") {
		t.Errorf("no result line:\n%s", out)
	}
	// Same seed, same game.
	_, again, _ := runCLI(t, "run", "--seed=5", "cromwell")
	if stripTime(again) != stripTime(out) {
		t.Error("two runs of the same deal differ")
	}
}

// stripTime removes the trailing "(12ms)" timing of the result line.
func stripTime(s string) string {
	if i := strings.LastIndex(s, "("); i >= 0 {
		return s[:i]
	}
	return s
}

func TestErrorsAreClear(t *testing.T) {
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"run", "solitaire"}, 2, "unknown game \"solitaire\"; the known games are: cromwell"},
		{[]string{"run", "cromwell", "--seed", "-4"}, 2, "invalid seed \"-4\": deal numbers run from 0 to 2^63-1"},
		{[]string{"run", "cromwell", "--seed", "9223372036854775808"}, 2, "deal numbers run from 0 to 2^63-1"},
		{[]string{"run", "cromwell", "--seed", "abc"}, 2, "invalid seed \"abc\""},
		{[]string{"run"}, 2, "missing GAME"},
		{[]string{"run", "cromwell", "--agent", "wizard"}, 2, "unknown agent \"wizard\""},
		{[]string{"frobnicate"}, 2, "unknown command \"frobnicate\""},
		{[]string{"check", "all", "--games", "0"}, 2, "must be positive"},
	}
	for _, tc := range tests {
		code, _, errs := runCLI(t, tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, errs, tc.code, tc.want)
		}
	}
}

func TestCheckPasses(t *testing.T) {
	code, out, errs := runCLI(t, "check", "all", "--games", "6")
	if code != 0 || !strings.Contains(out, "ok") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
}

func TestPlayTakesMovesUndoAndBadInput(t *testing.T) {
	input := strings.Join([]string{
		"help",
		"1>F",          // illegal on deal 3: 3♠ is not an ace
		"nonsense",     // not a move name
		"18>F",         // A♥ home
		"undo",         // back
		"swap 1:1 2:2", // both picks at once
		"quit",
	}, "\n")
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"play", "cromwell", "--seed", "3"}, strings.NewReader(input), &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	s := out.String()
	for _, want := range []string{
		"Cromwell, deal 3",
		"undo      take back the last move",
		"rules     the rules of this game",
		"illegal move 1>F",
		"parse move \"nonsense\"",
		"Home: 1/104",
		"Swap: used",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("play output lacks %q", want)
		}
	}
}

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}} {
		code, out, _ := runCLI(t, args...)
		if code != 0 || !strings.HasPrefix(out, "patience 1.0.0 (go") {
			t.Errorf("%v: exit %d, %q", args, code, out)
		}
	}
	if code, _, _ := runCLI(t, "version", "extra"); code != 2 {
		t.Errorf("version with an argument: exit %d, want 2", code)
	}
}
