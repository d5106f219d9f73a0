// Package all gives the solver every game's search knowledge: importing it
// registers each search package beside the solver with package solver,
// which otherwise searches a game's plain rules.
//
//	import _ "github.com/patience-gym/patience/solver/all"
//
// A search package imports its game, so this registers those games too;
// import env/all for every game.
package all

import (
	// Each search package registers itself in its init.
	_ "github.com/patience-gym/patience/solver/cromwell"
	_ "github.com/patience-gym/patience/solver/fifteen"
	_ "github.com/patience-gym/patience/solver/fourquarters"
	_ "github.com/patience-gym/patience/solver/ladder"
	_ "github.com/patience-gym/patience/solver/limited"
	_ "github.com/patience-gym/patience/solver/royalparade"
)
