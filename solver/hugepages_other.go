//go:build !linux

package solver

// adviseHugePages does nothing where the kernel takes no such advice
// (see the Linux version).
func adviseHugePages([]bucket) {}
