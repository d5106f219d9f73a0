//go:build linux

package memlimit

import "syscall"

// addressSpace returns the process's address-space limit (RLIMIT_AS),
// when it has one.
func addressSpace() (uint64, bool) {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &r); err != nil || r.Cur == ^uint64(0) {
		return 0, false
	}
	return uint64(r.Cur), true
}
