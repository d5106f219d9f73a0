// Package rules embeds the games' rules pages, which are sources of the
// documentation site (docs/rules/*.md, built by MkDocs, which leaves this
// file out) and which the command line prints through package
// internal/rulebook. Go's embed reads only files at or below the embedding
// package, so the package lives beside the pages.
package rules

import "embed"

// Pages holds this folder's pages: <game>.md under each game's registry
// name, and README.md, their index.
//
//go:embed *.md
var Pages embed.FS
