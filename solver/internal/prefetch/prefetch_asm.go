//go:build amd64 || arm64

package prefetch

import "unsafe"

// Line asks for the cache line holding p to be loaded into every level of
// the cache. It never faults and returns at once; it is a hint, and a
// processor may ignore it.
//
//go:noescape
func Line(p unsafe.Pointer)
