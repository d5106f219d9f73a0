// Package zobrist provides fixed tables of random 64-bit keys for Zobrist
// hashing of game states. The keys come from a seeded SplitMix64, so hashes are
// the same in every process and on every machine.
package zobrist

import "github.com/patience-gym/patience/env/cards"

// Table returns n keys drawn from a SplitMix64 seeded with seed.
func Table(seed uint64, n int) []uint64 {
	r := cards.NewRand(seed)
	t := make([]uint64, n)
	for i := range t {
		t[i] = r.Uint64()
	}
	return t
}
