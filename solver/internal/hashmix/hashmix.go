// Package hashmix holds the 64-bit finalizer that the solver and the game
// search packages beside it use to spread hashes and keys.
package hashmix

// Mix is MurmurHash3's 64-bit finalizer: it maps h to a number whose bits
// each depend on every bit of h, so that nearby inputs give unrelated
// outputs. It is small enough for the compiler to inline.
func Mix(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}
