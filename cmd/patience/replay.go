package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/patience-gym/patience/datasets"
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/render/viewer"
)

var replayCmd = &command{
	name:    "replay",
	args:    "PATH [--episode K] [--quiet] [--html FILE]",
	summary: "re-play a recorded episode through the game; exit 1 if a row differs",
	long: `Re-deals episode K of a dataset (a directory, or a steps or episodes file), plays its recorded actions
through the environment, renders every step, and reports every row whose recorded observation, mask,
reward, flags or episode summary differ from the environment's. Exit code 1 on any difference.`,
	run: runReplay,
}

func runReplay(ctx context.Context, inv *invocation, args []string) error {
	fs := inv.flags()
	k := fs.Int64("episode", -1, "the episode_index to replay (default: the first episode of PATH)")
	quiet := fs.Bool("quiet", false, "do not render the steps; report only the differences and the result")
	html := fs.String("html", "", "also write the episode to this HTML file (a viewer with the table at every step)")
	path, err := parseOne(fs, args, "PATH (a dataset directory or a .parquet file)")
	if err != nil {
		return err
	}
	if *k < 0 {
		first, err := firstEpisode(path)
		if err != nil {
			return err
		}
		*k = first
		fmt.Fprintf(inv.stderr, "no --episode given: replaying episode %d, the first of %s\n", first, path)
	}
	rec, err := datasets.LoadEpisode(path, *k)
	if errors.Is(err, datasets.ErrNoEpisode) {
		return usageError{err}
	}
	if err != nil {
		return err
	}
	meta := rec.Meta
	var page *viewer.Recorder
	if *html != "" {
		page = viewer.NewRecorder(fmt.Sprintf("%s, episode %d (deal %d), %s agent", meta.Spec.Title, *k, meta.SeedStart+*k, meta.Agent))
	}
	replayed, err := datasets.Replay(meta, *k, rec.Row, rec.Steps, func(e *env.Env, s *datasets.Step) {
		if !*quiet {
			fmt.Fprintf(inv.stdout, "%s\nstep %d: %s (action %d)\n\n", e.Render(), s.Step, s.ActionName, s.Action)
		}
		if page != nil {
			page.Add(e, int(s.Action))
		}
	})
	if err != nil {
		return err
	}
	if page != nil {
		page.FinishAfterLast()
		if err := page.WriteFile(*html); err != nil {
			return err
		}
		fmt.Fprintf(inv.stdout, "wrote %s\n", *html)
	}
	if !*quiet {
		fmt.Fprintf(inv.stdout, "%s\n", replayed.End.Render())
	}
	summary := fmt.Sprintf("%s episode %d (deal %d): %d steps", meta.Spec.Title, *k, meta.SeedStart+*k, len(rec.Steps))
	if ep := rec.Row; ep != nil {
		outcome := ep.Outcome
		if ep.Class != "" {
			outcome += " (" + ep.Class + ")"
		}
		summary += fmt.Sprintf(", %s, %d/%d cards placed, return %.4f", outcome, ep.Progress, meta.Spec.Cards, ep.Return)
	} else {
		summary += " (no episode row: its episodes file is missing)"
	}
	fmt.Fprintln(inv.stdout, summary)
	if len(replayed.Diffs) == 0 {
		fmt.Fprintln(inv.stdout, "replay: every recorded row matches the environment")
		return nil
	}
	for _, d := range replayed.Diffs {
		fmt.Fprintf(inv.stdout, "DIFFERENCE %s\n", d)
	}
	fmt.Fprintf(inv.stdout, "replay: %d differences\n", len(replayed.Diffs))
	return errFailed
}

// firstEpisode returns the first episode a dataset directory or file holds.
func firstEpisode(path string) (int64, error) {
	if st, err := os.Stat(path); err != nil || !st.IsDir() {
		f, err := datasets.OpenFile(path)
		if err != nil {
			return 0, err
		}
		defer f.Close()
		return f.Meta.PartFirstEpisode, nil
	}
	d, err := datasets.Open(path)
	if err != nil {
		return 0, err
	}
	if len(d.Parts) == 0 {
		return 0, fmt.Errorf("%s holds no part", path)
	}
	return int64(d.Parts[0].Part) * int64(d.Meta.PartSize), nil
}
