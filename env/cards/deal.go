package cards

// DeckSize is the number of cards in the double deck.
const DeckSize = 104

// Deck is the 104 cards of two standard decks.
type Deck [DeckSize]Card

// NewDeck returns the double deck in its unshuffled order: two copies of the
// 52-card order, each going through the codes 1..52 (clubs A..K, diamonds A..K,
// hearts A..K, spades A..K).
func NewDeck() Deck {
	var d Deck
	for i := range d {
		d[i] = Card(i%52 + 1)
	}
	return d
}

// Deal returns deal number seed: the unshuffled deck of NewDeck shuffled by
// Shuffle with a Rand seeded with seed. Every game takes its cards from this
// order (index 0 is dealt first). The result is a contract: it is the same on
// every machine and in every version.
func Deal(seed uint64) Deck {
	d := NewDeck()
	r := NewRand(seed)
	r.Shuffle(d[:])
	return d
}

// Rand is the SplitMix64 generator (Steele, Lea and Flood, 2014). Its output
// for a given seed is fixed forever: the deal contract depends on it.
//
// The zero value is a valid generator seeded with 0. A Rand is not safe for
// concurrent use.
type Rand struct{ state uint64 }

// NewRand returns a generator seeded with seed.
func NewRand(seed uint64) *Rand { return &Rand{state: seed} }

// Seed resets the generator to seed.
func (r *Rand) Seed(seed uint64) { r.state = seed }

// Uint64 returns the next 64-bit output:
//
//	state += 0x9E3779B97F4A7C15
//	z = state
//	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
//	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
//	return z ^ (z >> 31)
func (r *Rand) Uint64() uint64 {
	r.state += 0x9E3779B97F4A7C15
	z := r.state
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// IntN returns a uniform integer in [0, n) by rejection: with
// t = (2^64 - n) mod n, it draws x = Uint64() until x >= t and returns x mod n.
// It panics if n <= 0.
func (r *Rand) IntN(n int) int {
	if n <= 0 {
		panic("cards: IntN with n <= 0")
	}
	m := uint64(n)
	t := -m % m
	for {
		x := r.Uint64()
		if x >= t {
			return int(x % m)
		}
	}
}

// Float64 returns a uniform float64 in [0, 1) from the top 53 bits of Uint64.
func (r *Rand) Float64() float64 { return float64(r.Uint64()>>11) / (1 << 53) }

// Shuffle permutes s by Fisher–Yates: for i from len(s)-1 down to 1, j =
// IntN(i+1), swap s[i] and s[j].
func (r *Rand) Shuffle(s []Card) {
	for i := len(s) - 1; i > 0; i-- {
		j := r.IntN(i + 1)
		s[i], s[j] = s[j], s[i]
	}
}

// Reshuffle sorts s and then shuffles it, so that the order it leaves
// depends only on which cards s holds and on r, never on their order before:
// the way games determinize their hidden cards.
func (r *Rand) Reshuffle(s []Card) {
	Sort(s)
	r.Shuffle(s)
}

// Sort sorts s by card code (a counting sort; it does not allocate). Games
// call it before shuffling hidden cards so that a determinization depends only
// on which cards are hidden, never on their current order.
func Sort(s []Card) {
	var count [NumCodes]uint8
	for _, c := range s {
		count[c]++
	}
	i := 0
	for c := range count {
		for k := uint8(0); k < count[c]; k++ {
			s[i] = Card(c)
			i++
		}
	}
}
