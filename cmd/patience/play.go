package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/internal/rulebook"
	"github.com/patience-gym/patience/web"
)

const playHelp = `Type a move by its name, as listed under "Moves" (for example 7>F or 7>12).
Commands:
  moves     list the legal moves again
  undo      take back the last move
  restart   start the deal again
  rules     the rules of this game
  actions   the action ids and what they mean
  help      this text
  quit      leave the game (also Ctrl-D)`

var playCmd = &command{
	name:    "play",
	args:    "GAME [--seed N] [--winnable] [--web [--port P]]",
	summary: "play a game yourself in the terminal, or in the browser with --web",
	long: "Play a deal yourself in the terminal: type moves by name; `help` lists the commands, `rules` the rules.\n" +
		"With --web, play it in the browser instead: click a card, then one of the places that light up.\n" +
		"With --winnable, the deal is one the solver won (from the game's verdict table), chosen by --seed.",
	run: runPlay,
}

// lines reads in line by line in a goroutine, so that the reader can stop
// waiting for input when ctx is cancelled.
func lines(ctx context.Context, in io.Reader) <-chan string {
	out := make(chan string)
	go func() {
		defer close(out)
		sc := bufio.NewScanner(in)
		for sc.Scan() {
			select {
			case out <- sc.Text():
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}

func runPlay(ctx context.Context, inv *invocation, args []string) error {
	stdout := inv.stdout
	fs := inv.flags()
	var seed seedFlag
	fs.Var(&seed, "seed", "the deal number ("+seedRange+")")
	maxSteps := fs.Int("max-steps", 0, "step limit (0 = the game's default)")
	inBrowser := fs.Bool("web", false, "play in the browser: serve the game on 127.0.0.1 and print its address")
	port := fs.Int("port", 0, "with --web, the port to serve on (0 = any free port)")
	winnable := fs.Bool("winnable", false, "deal a deal the solver has won, chosen by --seed among the won deals of the training block")
	e, err := parseEnv(fs, args, maxSteps)
	if err != nil {
		return err
	}
	if *winnable {
		d, err := pickWinnable(e.Spec(), seed.v)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, d)
		seed.v = d.seed
	}
	e.Reset(seed.v)
	if *inBrowser {
		return web.Run(ctx, e, *port, stdout)
	}
	var history []*env.Env
	input := lines(ctx, inv.stdin)
	fmt.Fprintf(stdout, "%s, deal %d. Type `help` for the commands.\n", e.Spec().Title, seed.v)
	show := true
	for {
		if show {
			fmt.Fprintf(stdout, "\n%s\n", e.Render())
			info := e.Info()
			fmt.Fprintf(stdout, "Step %d/%d   placed %d/%d\n", info.Steps, e.MaxSteps(), info.Progress, info.Cards)
			if e.Done() {
				fmt.Fprintln(stdout, e.EndMessage())
				fmt.Fprintln(stdout, "Type `undo`, `restart` or `quit`.")
			} else {
				fmt.Fprintf(stdout, "Moves: %s\n", strings.Join(moveList(e), "  "))
			}
		}
		show = false
		fmt.Fprint(stdout, "> ")
		var line string
		select {
		case l, ok := <-input:
			if !ok {
				fmt.Fprintln(stdout)
				return nil
			}
			line = strings.TrimSpace(l)
		case <-ctx.Done():
			fmt.Fprintln(stdout)
			return ctx.Err()
		}
		switch strings.ToLower(line) {
		case "":
			continue
		case "quit", "exit", "q":
			return nil
		case "help", "?":
			fmt.Fprintln(stdout, playHelp)
			continue
		case "moves":
			fmt.Fprintf(stdout, "Moves: %s\n", strings.Join(moveList(e), "  "))
			continue
		case "rules":
			text, err := rulebook.Text(e.Spec().Name)
			if err != nil {
				fmt.Fprintln(stdout, err)
			}
			fmt.Fprint(stdout, text)
			continue
		case "actions":
			for _, r := range e.Spec().ActionRanges {
				fmt.Fprintf(stdout, "  %4d..%-4d %s\n", r.First, r.Last, r.Meaning)
			}
			continue
		case "undo":
			if len(history) == 0 {
				fmt.Fprintln(stdout, "Nothing to undo.")
				continue
			}
			e = history[len(history)-1]
			history = history[:len(history)-1]
			show = true
			continue
		case "restart":
			history = append(history, e.Clone())
			e.Reset(seed.v)
			show = true
			continue
		}
		if e.Done() {
			fmt.Fprintln(stdout, "The game is over: type `undo`, `restart` or `quit`.")
			continue
		}
		ids, err := e.ParseMove(line)
		if err != nil {
			fmt.Fprintf(stdout, "%v\nType `moves` for the legal moves or `help` for the commands.\n", err)
			continue
		}
		// Try the whole move on a copy first, so a move of several actions
		// is played entirely or not at all.
		trial := e.Clone()
		ok := true
		for _, a := range ids {
			if _, _, _, err := trial.Advance(a); err != nil {
				fmt.Fprintln(stdout, err)
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		history = append(history, e)
		e = trial
		show = true
	}
}

// moveList names the legal moves; when many share a first word (Cromwell's
// swap picks) they are shown as one entry with a count.
func moveList(e *env.Env) []string {
	groups := map[string][]string{}
	var order []string
	m := e.Mask()
	for a := m.Next(0); a >= 0; a = m.Next(a + 1) {
		name := e.ActionString(a)
		key := name
		if head, _, ok := strings.Cut(name, " "); ok {
			key = head + " …"
		}
		if _, seen := groups[key]; !seen {
			order = append(order, key)
		}
		groups[key] = append(groups[key], name)
	}
	var out []string
	for _, k := range order {
		g := groups[k]
		if len(g) > 12 {
			out = append(out, fmt.Sprintf("%s (%d choices, e.g. %s)", k, len(g), g[0]))
			continue
		}
		out = append(out, g...)
	}
	return out
}
