package zobrist

import (
	"testing"

	"github.com/patience-gym/patience/env/cards"
)

// TestPushPop: a card pushed on a pile lands on top at its place's key,
// and popping it gives the card and the same key back, leaving the pile
// as it was; neither allocates.
func TestPushPop(t *testing.T) {
	k := NewCardKeys(7, 3*4)
	var piles [3][4]cards.Card
	var n [3]uint8
	c1, c2 := cards.MustParse("7S"), cards.MustParse("QH")
	h := k.Push(piles[1][:], &n[1], 1*4, c1)
	h ^= k.Push(piles[1][:], &n[1], 1*4, c2)
	if n[1] != 2 || piles[1][0] != c1 || piles[1][1] != c2 || h != k.Key(4, c1)^k.Key(5, c2) {
		t.Fatalf("after two pushes: %d cards %v, key %x", n[1], piles[1], h)
	}
	c, key := k.Pop(piles[1][:], &n[1], 1*4)
	if c != c2 || key != k.Key(5, c2) || n[1] != 1 || piles[1][1] != cards.None {
		t.Fatalf("pop gave %v, key %x; %d cards %v", c, key, n[1], piles[1])
	}
	if a := testing.AllocsPerRun(100, func() {
		k.Push(piles[2][:], &n[2], 2*4, c1)
		k.Pop(piles[2][:], &n[2], 2*4)
	}); a != 0 {
		t.Errorf("Push and Pop allocate %v times", a)
	}
}

// TestPile: a pile's key from scratch is the XOR of the keys its cards got
// when pushed there.
func TestPile(t *testing.T) {
	k := NewCardKeys(9, 2*5)
	var pile [5]cards.Card
	var n uint8
	var h uint64
	for _, c := range cards.MustParseList("KS 7H 2C") {
		h ^= k.Push(pile[:], &n, 5, c)
	}
	if got := k.Pile(pile[:n], 5); got != h {
		t.Errorf("Pile %x, pushes %x", got, h)
	}
}
