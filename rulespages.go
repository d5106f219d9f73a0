// Package patience is the module's root. It holds no code, only what Go can
// embed from here alone: the rules pages of the games, which are sources of
// the documentation site under docs/ and which the command line prints
// (package internal/rulebook reads them).
package patience

import "embed"

// RulesPages holds docs/rules/*.md: one page per game, <game>.md under the
// game's registry name, and README.md, their index. Go's embed cannot
// reach up a directory, so the pages are embedded here and read through
// this variable.
//
//go:embed docs/rules/*.md
var RulesPages embed.FS
