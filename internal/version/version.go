// Package version holds the release of patience this build is: one number
// for the Go module (its tag), the command, the C library and the Python
// package, which a test keeps equal to every file that writes it.
package version

// Version is the release, a semantic version: within 1.x nothing the
// Stability page (docs/stability.md) lists changes incompatibly.
const Version = "1.0.0"
