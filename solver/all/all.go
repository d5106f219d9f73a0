// Package all gives the solver every game's search knowledge: importing it
// makes each game's safe moves, dead tests and pruning known to package
// solver, which otherwise searches the plain rules.
//
//	import _ "github.com/patience-gym/patience/solver/all"
//
// For now the knowledge lives in the game packages themselves, so this
// imports every game.
package all

import (
	// Each game package holds its search knowledge for now.
	_ "github.com/patience-gym/patience/env/all"
)
