//go:build !linux

package memlimit

// addressSpace: no address-space limit is read on this system.
func addressSpace() (uint64, bool) { return 0, false }
