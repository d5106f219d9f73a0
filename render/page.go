package render

import _ "embed" // PageStyle

// PageStyle is the style sheet of the HTML pages that show the tables: the
// episode viewer (package render/viewer) and the browser game (package
// web). It is page.css, embedded.
//
//go:embed page.css
var PageStyle string
