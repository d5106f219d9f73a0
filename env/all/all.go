// Package all registers every game of patience with the env registry:
//
//	import _ "github.com/patience-gym/patience/env/all"
package all

import (
	// Each game registers itself in its init.
	_ "github.com/patience-gym/patience/env/cromwell"
)
