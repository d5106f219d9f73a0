// Package all gives the solver every game's search knowledge: importing it
// registers each search package beside the solver with package solver,
// which otherwise searches a game's plain rules.
//
//	import _ "github.com/patience-gym/patience/solver/all"
//
// It also registers the games those packages know (a search package
// imports its game); import env/all for every game.
package all

import (
	// Each search package registers itself in its init. The other games'
	// knowledge still lives in their rules packages, which env/all
	// registers.
	_ "github.com/patience-gym/patience/env/all"
	_ "github.com/patience-gym/patience/solver/cromwell"
)
