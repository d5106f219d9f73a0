// Package render draws the tables of the games: one renderer for all, over
// the placements each game describes (Layouter). A game says where its
// cards lie, which are face down, its empty slots and its own marks; this
// package says how they look, as SVG (WriteSVG, GameSVG, Defs for pages of
// many pictures) or as an RGBA image (Canvas), the same picture in both.
//
// Cards are drawn legibly at small sizes: the rank and a suit pip in red or
// black in the corner that stays visible in a fan, a big pip, patterned
// backs, outlined empty slots. A Highlight lights up the cards the last
// action moved (Moved finds them), the legal destinations of a selected
// card and the selected card.
//
// Every picture of one game has one size (Size, GameSize), rounded up to a
// multiple of 16 pixels, so that video recorders get frames of a constant
// shape; Canvas.RGB writes a frame as height × width × 3 bytes for
// Gymnasium's render_mode "rgb_array". The output is deterministic: the same
// table gives the same bytes. Letters are outlines of the Go fonts, so no
// installed font is needed.
//
// The pages that show tables are built on it: the HTML episode viewer
// (package render/viewer) and the browser game (package web), both styled
// by one style sheet, PageStyle.
package render
