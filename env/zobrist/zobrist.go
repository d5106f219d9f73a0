// Package zobrist provides fixed tables of random 64-bit keys for Zobrist
// hashing of game states. The keys come from a seeded SplitMix64, so hashes are
// the same in every process and on every machine.
//
// A game hashes a state as the XOR of one key per fact: a card in a place
// (CardKeys), a foundation's height, a flag (Table). Each table of a game
// has a seed of its own; games choose theirs as 0xGAME_000n.
package zobrist

import "github.com/patience-gym/patience/env/cards"

// Faces is the number of card faces a place can hold (codes 1..52).
const Faces = 52

// Table returns n keys drawn from a SplitMix64 seeded with seed.
func Table(seed uint64, n int) []uint64 {
	r := cards.NewRand(seed)
	t := make([]uint64, n)
	for i := range t {
		t[i] = r.Uint64()
	}
	return t
}

// CardKeys holds one key for each card face in each of a number of places:
// the table every game uses for its cards.
type CardKeys []uint64

// NewCardKeys returns the keys of places places, drawn from a SplitMix64
// seeded with seed.
func NewCardKeys(seed uint64, places int) CardKeys { return Table(seed, places*Faces) }

// Key returns the key of card c (1..52) in place p.
func (k CardKeys) Key(p int, c cards.Card) uint64 { return k[p*Faces+int(c)-1] }
