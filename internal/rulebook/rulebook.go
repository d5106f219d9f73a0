// Package rulebook reads the player's rules of the games, one Markdown page
// per game (docs/rules/<game>.md, embedded beside them by package
// docs/rules as rules.Pages), so that the command line can print them:
// Text("cromwell") returns docs/rules/cromwell.md.
//
// Every page follows one layout, which the package test enforces: a first
// line "# <the game's title>", then the sections "The deal", "Moves",
// "Automatic events", "End of the game", "Choices we made" and "Playing it
// here", in that order. "Playing it here" states the default step limit and
// holds a table whose first column, headed "You type", lists the moves a
// player types, at least one for each range of the game's action space. In a
// page, text in backticks is always
// something to type: a move of that game, a command of `patience play`, or a
// command line starting with "patience". The test parses every move with the
// game's own parser, so the pages cannot drift from the code.
package rulebook

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	rules "github.com/patience-gym/patience/docs/rules"
	"github.com/patience-gym/patience/env"
)

// pages is docs/rules, the directory of the pages.
var pages fs.FS = rules.Pages

// indexPage is the file that indexes the pages; it is not a game.
const indexPage = "README.md"

// sections are the second-level headings ("## ...") every game page has, in
// this order and no others, except that a game with variants of its rules
// has one more section per variant, headed "Variant: ...", just before
// "Playing it here" (variantHeading).
var sections = []string{
	"The deal",
	"Moves",
	"Automatic events",
	"End of the game",
	"Choices we made",
	"Playing it here",
}

// variantHeading starts the heading of a section on a variant of the rules.
const variantHeading = "Variant: "

// Names returns the games that have a page, by registry name ("royalparade"),
// sorted.
func Names() []string {
	entries, err := fs.ReadDir(pages, ".")
	if err != nil {
		panic("rulebook: embedded pages unreadable: " + err.Error()) // cannot happen: the files are compiled in
	}
	var names []string
	for _, e := range entries {
		n := e.Name()
		if n == indexPage || path.Ext(n) != ".md" {
			continue
		}
		names = append(names, strings.TrimSuffix(n, ".md"))
	}
	slices.Sort(names)
	return names
}

// Text returns the rules page of the named game as Markdown. The name is the
// game's registry name ("royalparade"); case, spaces and dashes are ignored,
// as env.Make ignores them ("Royal Parade" works too). An unknown name is an
// error that lists the known ones.
func Text(game string) (string, error) {
	key := env.Normalize(game)
	if key != "" && slices.Contains(Names(), key) {
		b, err := fs.ReadFile(pages, key+".md")
		if err != nil {
			return "", fmt.Errorf("rulebook: %v", err)
		}
		return string(b), nil
	}
	return "", fmt.Errorf("no rules page for game %q; the games are: %s", game, strings.Join(Names(), ", "))
}

// Index returns the page that lists the games and explains what the pages
// have in common (docs/rules/README.md).
func Index() string {
	b, err := fs.ReadFile(pages, indexPage)
	if err != nil {
		panic("rulebook: embedded index unreadable: " + err.Error()) // cannot happen: the file is compiled in
	}
	return string(b)
}
