// Package all registers every game of patience with the env registry:
//
//	import _ "github.com/patience-gym/patience/env/all"
package all

import (
	// Each game registers itself in its init.
	_ "github.com/patience-gym/patience/env/cromwell"
	_ "github.com/patience-gym/patience/env/fifteen"
	_ "github.com/patience-gym/patience/env/fourquarters"
	_ "github.com/patience-gym/patience/env/ladder"
	_ "github.com/patience-gym/patience/env/limited"
	_ "github.com/patience-gym/patience/env/royalparade"
)
