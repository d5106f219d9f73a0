// Package zobrist provides fixed tables of random 64-bit keys for Zobrist
// hashing of game states. The keys come from a seeded SplitMix64, so hashes are
// the same in every process and on every machine.
//
// A game hashes a state as the XOR of one key per fact: a card in a place
// (CardKeys), a foundation's height, a flag (Table). Each table of a game
// has a seed of its own; games choose theirs as 0xGAME_000n. A pile of
// cards whose every position is a place keeps its part of the hash with
// CardKeys.Push and Pop.
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

// Push lays card c on top of a pile and returns c's key there, for the
// caller to XOR into its hash. The pile holds *n cards, pile[0] at the
// bottom, and its positions are the places base, base+1, ... of k.
func (k CardKeys) Push(pile []cards.Card, n *uint8, base int, c cards.Card) uint64 {
	i := int(*n)
	pile[i] = c
	*n = uint8(i + 1)
	return k.Key(base+i, c)
}

// Pile returns the XOR of the keys of the cards of a pile whose positions
// are the places base, base+1, ... of k (pile[0] at base, as for Push):
// the pile's part of a hash computed from scratch.
func (k CardKeys) Pile(pile []cards.Card, base int) uint64 {
	var h uint64
	for i, c := range pile {
		h ^= k.Key(base+i, c)
	}
	return h
}

// Pop takes the top card off a pile (as for Push), leaving None in its
// place, and returns it with its key there, for the caller to XOR into its
// hash.
func (k CardKeys) Pop(pile []cards.Card, n *uint8, base int) (cards.Card, uint64) {
	i := int(*n) - 1
	c := pile[i]
	pile[i] = cards.None
	*n = uint8(i)
	return c, k.Key(base+i, c)
}
