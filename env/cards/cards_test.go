package cards

import (
	"testing"
)

func TestCodesAndNames(t *testing.T) {
	tests := []struct {
		suit  Suit
		rank  Rank
		code  Card
		name  string
		ascii string
	}{
		{Clubs, Ace, 1, "A♣", "AC"},
		{Clubs, King, 13, "K♣", "KC"},
		{Diamonds, 10, 23, "10♦", "10D"},
		{Hearts, Queen, 38, "Q♥", "QH"},
		{Spades, Ace, 40, "A♠", "AS"},
		{Spades, King, 52, "K♠", "KS"},
	}
	for _, tc := range tests {
		c := New(tc.suit, tc.rank)
		if c != tc.code {
			t.Errorf("New(%v,%v) = %d, want %d", tc.suit, tc.rank, c, tc.code)
		}
		if c.Suit() != tc.suit || c.Rank() != tc.rank {
			t.Errorf("code %d: suit %v rank %v, want %v %v", c, c.Suit(), c.Rank(), tc.suit, tc.rank)
		}
		if c.String() != tc.name || c.ASCII() != tc.ascii {
			t.Errorf("code %d: names %q %q, want %q %q", c, c.String(), c.ASCII(), tc.name, tc.ascii)
		}
		for _, s := range []string{tc.name, tc.ascii} {
			p, err := Parse(s)
			if err != nil || p != c {
				t.Errorf("Parse(%q) = %v, %v; want %v", s, p, err, c)
			}
		}
	}
	if None.String() != "--" || FaceDown.String() != "##" {
		t.Errorf("special names: %q %q", None.String(), FaceDown.String())
	}
}

func TestParseForms(t *testing.T) {
	good := map[string]Card{
		"Q♠": New(Spades, Queen), "QS": New(Spades, Queen), "qs": New(Spades, Queen),
		"10h": New(Hearts, 10), "Th": New(Hearts, 10), "ad": New(Diamonds, Ace),
		"1c": New(Clubs, Ace), " 7♦ ": New(Diamonds, 7), "K♤": New(Spades, King),
	}
	for s, want := range good {
		got, err := Parse(s)
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	for _, s := range []string{"", "Q", "11S", "0H", "QX", "♠", "ZZ", "10"} {
		if c, err := Parse(s); err == nil {
			t.Errorf("Parse(%q) = %v, want an error", s, c)
		}
	}
}

func TestColours(t *testing.T) {
	for c := Card(1); c <= 52; c++ {
		want := c.Suit() == Hearts || c.Suit() == Diamonds
		if c.Red() != want {
			t.Errorf("%v.Red() = %v", c, c.Red())
		}
	}
}

func TestDeckHasTwoOfEach(t *testing.T) {
	for _, seed := range []uint64{0, 1, 42, 1 << 40} {
		d := Deal(seed)
		var n [NumCodes]int
		for _, c := range d {
			n[c]++
		}
		for c := 1; c <= 52; c++ {
			if n[c] != 2 {
				t.Fatalf("deal %d: %d copies of %v", seed, n[c], Card(c))
			}
		}
	}
}

// TestSplitMix64Golden pins the generator to the published SplitMix64
// reference values for seed 0 and seed 1234567.
func TestSplitMix64Golden(t *testing.T) {
	r := NewRand(0)
	want0 := []uint64{0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f}
	for i, w := range want0 {
		if g := r.Uint64(); g != w {
			t.Errorf("seed 0 output %d = %#x, want %#x", i, g, w)
		}
	}
	r = NewRand(1234567)
	want := []uint64{6457827717110365317, 3203168211198807973, 9817491932198370423, 4593380528125082431, 16408922859458223821}
	for i, w := range want {
		if g := r.Uint64(); g != w {
			t.Errorf("seed 1234567 output %d = %d, want %d", i, g, w)
		}
	}
}

func TestIntNRange(t *testing.T) {
	r := NewRand(7)
	var hist [7]int
	for range 70000 {
		v := r.IntN(7)
		if v < 0 || v >= 7 {
			t.Fatalf("IntN(7) = %d", v)
		}
		hist[v]++
	}
	for v, n := range hist {
		if n < 9000 || n > 11000 {
			t.Errorf("IntN(7): value %d drawn %d times of 70000", v, n)
		}
	}
}

func TestSort(t *testing.T) {
	d := Deal(3)
	Sort(d[:])
	want := NewDeck()
	Sort(want[:])
	if d != want {
		t.Fatalf("sorted deal differs from sorted deck")
	}
	for i := 1; i < len(d); i++ {
		if d[i] < d[i-1] {
			t.Fatalf("not sorted at %d", i)
		}
	}
}

// TestDealGolden pins the deal contract: these deals must never change.
func TestDealGolden(t *testing.T) {
	golden := []struct {
		seed        uint64
		first, last string
	}{
		{0, "3D 8S JC 6C 4D 2H 10C 7D AH 8D 10D 6C", "KC 5S QD 10H"},
		{1, "6H 7H JC 8C KS 7D 6S 8C 6C 9C 5C 10H", "JD AC 4H 7S"},
		{2, "10D AH 6H JS 2D QS 5H 3D 7C AC AS 4S", "10D 10C KH 9H"},
		{1000000, "8C 3D 9C 8S QS AH 9D QS 6S 8D 2C 2D", "AD 9H 5H 7D"},
	}
	for _, g := range golden {
		d := Deal(g.seed)
		first, last := MustParseList(g.first), MustParseList(g.last)
		for i, c := range first {
			if d[i] != c {
				t.Errorf("deal %d card %d = %v, want %v", g.seed, i, d[i], c)
			}
		}
		for i, c := range last {
			if d[DeckSize-len(last)+i] != c {
				t.Errorf("deal %d card %d = %v, want %v", g.seed, DeckSize-len(last)+i, d[DeckSize-len(last)+i], c)
			}
		}
	}
}
