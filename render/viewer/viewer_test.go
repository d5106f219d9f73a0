package viewer_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/env"
	_ "github.com/patience-gym/patience/env/all"
	"github.com/patience-gym/patience/render/viewer"
)

// record plays deal seed of game with the heuristic agent into a recorder.
func record(t *testing.T, game string, seed uint64) *viewer.Recorder {
	t.Helper()
	e, err := env.Make(game, env.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := agents.New("heuristic")
	if err != nil {
		t.Fatal(err)
	}
	rec := viewer.NewRecorder(e.Spec().Title + " test")
	if _, err := agents.Play(e, a, seed, seed, func(e *env.Env, act int) bool { rec.Add(e, act); return true }); err != nil {
		t.Fatal(err)
	}
	rec.Finish(e)
	if rec.Len() != e.Steps()+1 {
		t.Fatalf("%d frames for %d steps", rec.Len(), e.Steps())
	}
	return rec
}

func TestViewerPage(t *testing.T) {
	for _, game := range env.Names() {
		rec := record(t, game, 3)
		var b bytes.Buffer
		if err := rec.WriteHTML(&b); err != nil {
			t.Fatal(err)
		}
		page := b.String()
		for _, want := range []string{"<!doctype html>", "const DATA = \"", `id="slider"`, `<g id="pc`, "</html>"} {
			if !strings.Contains(page, want) {
				t.Errorf("%s: the page lacks %q", game, want)
			}
		}
		for _, bad := range []string{"http://", "https://"} {
			for _, line := range strings.Split(page, "\n") {
				if strings.Contains(line, bad) && !strings.Contains(line, "www.w3.org/") {
					t.Errorf("%s: the page refers to the network: %.120s", game, line)
				}
			}
		}
		if strings.Count(page, "<script") != 1 {
			t.Errorf("%s: want exactly one (inline) script", game)
		}
		frames := rec.Frames()
		last := frames[len(frames)-1]
		if last.Move != "" || len(last.Legal) != 0 || strings.HasPrefix(last.Status, "running") {
			t.Errorf("%s: the last frame %+v should be the end", game, last)
		}
		sum := 0.0
		for _, f := range frames[:len(frames)-1] {
			if f.Move == "" || len(f.Legal) == 0 {
				t.Fatalf("%s step %d: no move or no legal moves", game, f.Step)
			}
			sum += f.Reward
		}
		if d := sum - last.Return; d > 1e-9 || d < -1e-9 {
			t.Errorf("%s: rewards sum to %v, the return is %v", game, sum, last.Return)
		}
		t.Logf("%s: %d frames, %d KB", game, len(frames), b.Len()/1024)
	}
}
