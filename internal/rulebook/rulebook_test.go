package rulebook

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/patience-gym/patience/env"
	_ "github.com/patience-gym/patience/env/all"
)

// playCommands are the words `patience play` reads as commands, not moves
// (cmd/patience/play.go).
var playCommands = []string{"help", "moves", "undo", "restart", "rules", "quit"}

// codeSpan matches inline code: text in single backticks on one line.
var codeSpan = regexp.MustCompile("`([^`\n]+)`")

// page is a rules page split into its parts, fenced code blocks left out.
type page struct {
	title    string
	headings []string            // the "## " headings in order
	sections map[string][]string // the lines under each "## " heading
	lines    []string            // every line outside fenced code blocks and variant sections
	variants []string            // the headings of the variant sections, in order
}

func parsePage(text string) page {
	p := page{sections: map[string][]string{}}
	fenced := false
	current := ""
	for i, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		if strings.HasPrefix(line, "## ") {
			current = strings.TrimPrefix(line, "## ")
			if strings.HasPrefix(current, variantHeading) {
				p.variants = append(p.variants, current)
			} else {
				p.headings = append(p.headings, current)
			}
		}
		if !strings.HasPrefix(current, variantHeading) {
			p.lines = append(p.lines, line)
		}
		switch {
		case i == 0 && strings.HasPrefix(line, "# "):
			p.title = strings.TrimPrefix(line, "# ")
		case strings.HasPrefix(line, "## "):
		case current != "":
			p.sections[current] = append(p.sections[current], line)
		}
	}
	return p
}

// moveTable returns the first cells of the body rows of the first table in
// lines whose header's first cell is "You type".
func moveTable(lines []string) (cells []string, ok bool) {
	in := false
	for _, line := range lines {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "|") {
			if in {
				break
			}
			continue
		}
		first := strings.TrimSpace(strings.Split(line, "|")[1])
		switch {
		case !in && first == "You type":
			in, ok = true, true
		case in && strings.Trim(first, "-: ") == "":
			// the separator row
		case in:
			cells = append(cells, first)
		}
	}
	return cells, ok
}

func isCommand(s string) bool {
	return slices.Contains(playCommands, s) || strings.HasPrefix(s, "patience ")
}

func TestEveryGameHasAPage(t *testing.T) {
	games := env.Names()
	if len(games) == 0 {
		t.Fatal("no game is registered")
	}
	if got := Names(); !slices.Equal(got, games) {
		t.Errorf("pages %v, registered games %v: each game needs docs/rules/<name>.md and each page a game", got, games)
	}
	index := Index()
	for _, g := range games {
		if !strings.Contains(index, "("+g+".md)") {
			t.Errorf("README.md does not link %s.md", g)
		}
	}
}

func TestText(t *testing.T) {
	want, err := Text("royalparade")
	if err != nil || !strings.HasPrefix(want, "# Royal Parade\n") {
		t.Fatalf("Text(royalparade) = %.30q, %v", want, err)
	}
	for _, name := range []string{"Royal Parade", "royal-parade", "ROYALPARADE"} {
		if got, err := Text(name); err != nil || got != want {
			t.Errorf("Text(%q) differs from Text(royalparade) (err %v)", name, err)
		}
	}
	for _, name := range []string{"solitaire", "", "README", "readme.md"} {
		_, err := Text(name)
		if err == nil {
			t.Errorf("Text(%q) gave no error", name)
			continue
		}
		for _, g := range Names() {
			if !strings.Contains(err.Error(), g) {
				t.Errorf("Text(%q): the error %q does not list %s", name, err, g)
			}
		}
	}
}

func TestPages(t *testing.T) {
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			text, err := Text(name)
			if err != nil {
				t.Fatal(err)
			}
			e, err := env.Make(name, env.Options{})
			if err != nil {
				t.Fatal(err)
			}
			spec := e.Spec()
			p := parsePage(text)
			if p.title != spec.Title {
				t.Errorf("the first line is %q, want \"# %s\"", p.title, spec.Title)
			}
			if !slices.Equal(p.headings, sections) {
				t.Errorf("sections %q, want %q", p.headings, sections)
			}
			checkVariants(t, name, text, p)

			// Every move in the table parses, and the moves cover every
			// range of the action space.
			play := p.sections["Playing it here"]
			cells, ok := moveTable(play)
			if !ok || len(cells) == 0 {
				t.Fatal(`"Playing it here" has no table headed "You type" with rows`)
			}
			covered := make([]bool, len(spec.ActionRanges))
			for _, cell := range cells {
				spans := codeSpan.FindAllStringSubmatch(cell, -1)
				if len(spans) == 0 {
					t.Errorf("table row %q names no move in backticks", cell)
				}
				for _, m := range spans {
					ids, err := e.ParseMove(m[1])
					if err != nil {
						t.Errorf("table move `%s`: %v", m[1], err)
						continue
					}
					for _, a := range ids {
						for i, r := range spec.ActionRanges {
							if a >= r.First && a <= r.Last {
								covered[i] = true
							}
						}
					}
				}
			}
			for i, r := range spec.ActionRanges {
				if !covered[i] {
					t.Errorf("no move in the table stands for actions %d..%d (%s)", r.First, r.Last, r.Meaning)
				}
			}

			// The step limit is stated where play is explained.
			limit := strconv.Itoa(spec.MaxSteps)
			found := false
			for _, line := range play {
				if strings.Contains(line, limit) {
					found = true
				}
			}
			if !found {
				t.Errorf(`"Playing it here" does not state the step limit, %s`, limit)
			}

			// Everything in backticks anywhere is something to type: a
			// command, or a move this game's parser accepts.
			n := 0
			for _, line := range p.lines {
				for _, m := range codeSpan.FindAllStringSubmatch(line, -1) {
					s := m[1]
					if _, err := e.ParseMove(s); err == nil {
						n++
						continue
					}
					if !isCommand(s) {
						t.Errorf("`%s` is neither a move of %s nor a command", s, name)
					}
					// A command line that names a game names this one.
					if f := strings.Fields(s); len(f) > 2 && f[0] == "patience" && (f[1] == "play" || f[1] == "rules") && f[2] != name {
						t.Errorf("`%s` on the page of %s names another game", s, name)
					}
				}
			}
			if n < len(cells) {
				t.Errorf("found %d moves in the page, fewer than the table's %d rows", n, len(cells))
			}
		})
	}
}

// checkVariants checks a page's variant sections: one for each variant of
// the game, just before "Playing it here", each naming its variant as the
// commands take it (`game:variant`), and everything in backticks something to
// type in that variant or a name of it.
func checkVariants(t *testing.T, name, text string, p page) {
	t.Helper()
	variants, err := env.Variants(name)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.variants) != len(variants) {
		t.Errorf("%d variant sections (%q), the game has %d variants %q", len(p.variants), p.variants, len(variants), variants)
	}
	if len(p.variants) > 0 {
		// The variant sections sit between "Choices we made" and "Playing it here".
		choices := strings.Index(text, "\n## Choices we made\n")
		play := strings.Index(text, "\n## Playing it here\n")
		for _, h := range p.variants {
			if at := strings.Index(text, "\n## "+h+"\n"); at < choices || at > play {
				t.Errorf("section %q is not between \"Choices we made\" and \"Playing it here\"", h)
			}
		}
	}
	for i, h := range p.variants {
		if i >= len(variants) {
			break
		}
		full := name + ":" + variants[i]
		e, err := env.Make(full, env.Options{})
		if err != nil {
			t.Fatal(err)
		}
		accepted := []string{full, e.Spec().Rules(), "patience play " + full, "patience rules " + name}
		named := false
		for _, line := range p.sections[h] {
			for _, m := range codeSpan.FindAllStringSubmatch(line, -1) {
				s := m[1]
				if s == full {
					named = true
				}
				if slices.Contains(accepted, s) {
					continue
				}
				if _, err := e.ParseMove(s); err != nil {
					t.Errorf("section %q: `%s` is neither a move of %s nor one of %q", h, s, full, accepted)
				}
			}
		}
		if !named {
			t.Errorf("section %q does not name its variant as `%s` (the variants, in order: %q)", h, full, variants)
		}
	}
}
