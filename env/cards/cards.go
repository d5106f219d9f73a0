// Package cards holds the playing cards of the two-deck patience games: suits,
// ranks, cards and their short names, the 104-card double deck, and the seeded
// deal every game starts from.
//
// A Card is stored as its observation code: 0 is no card, 1..52 is a card
// (suit*13 + rank, ranks 1..13 for ace..king) and 53 is a face-down or unknown
// card. The two copies of a card in the double deck have the same code.
package cards

import (
	"fmt"
	"strings"
	"unsafe"
)

// Suit is one of the four suits, numbered in bridge order.
type Suit uint8

// The four suits, in the order used by card codes.
const (
	Clubs Suit = iota
	Diamonds
	Hearts
	Spades
)

// NumSuits is the number of suits.
const NumSuits = 4

// Symbol returns the suit's symbol (♣ ♦ ♥ ♠).
func (s Suit) Symbol() string {
	switch s {
	case Clubs:
		return "♣"
	case Diamonds:
		return "♦"
	case Hearts:
		return "♥"
	case Spades:
		return "♠"
	}
	return "?"
}

// Letter returns the suit's ASCII letter (C D H S).
func (s Suit) Letter() byte { return "CDHS?"[min(int(s), 4)] }

// String returns the suit's symbol.
func (s Suit) String() string { return s.Symbol() }

// Red reports whether the suit is hearts or diamonds.
func (s Suit) Red() bool { return s == Hearts || s == Diamonds }

// Rank is a card's rank, 1 (ace) to 13 (king).
type Rank uint8

// Named ranks.
const (
	Ace   Rank = 1
	Jack  Rank = 11
	Queen Rank = 12
	King  Rank = 13
)

// String returns the rank as it is written in card names: A, 2..10, J, Q, K.
func (r Rank) String() string {
	switch {
	case r == Ace:
		return "A"
	case r >= 2 && r <= 10:
		return [...]string{"2", "3", "4", "5", "6", "7", "8", "9", "10"}[r-2]
	case r == Jack:
		return "J"
	case r == Queen:
		return "Q"
	case r == King:
		return "K"
	}
	return "?"
}

// Card is a card's observation code: 0 for no card, 1..52 for a card and
// FaceDown (53) for a card whose face is not visible.
type Card uint8

// Special card codes.
const (
	None     Card = 0
	FaceDown Card = 53
)

// NumCodes is the number of distinct codes a card cell of an observation can
// take (0..53).
const NumCodes = 54

// New returns the card of the given suit and rank.
func New(s Suit, r Rank) Card { return Card(uint8(s)*13 + uint8(r)) }

// Valid reports whether c is a real card (not None, not FaceDown).
func (c Card) Valid() bool { return c >= 1 && c <= 52 }

// suitOf and rankOf tabulate Suit and Rank for every byte value, so the hot
// paths of the games look them up instead of dividing.
var suitOf, rankOf = func() (s, r [256]uint8) {
	for c := 1; c < 256; c++ {
		s[c], r[c] = uint8((c-1)/13), uint8((c-1)%13+1)
	}
	s[0], r[0] = 255, 0
	return
}()

// Suit returns the card's suit. It is meaningless for None and FaceDown.
func (c Card) Suit() Suit { return Suit(suitOf[c]) }

// Rank returns the card's rank. It is meaningless for None and FaceDown.
func (c Card) Rank() Rank { return Rank(rankOf[c]) }

// Red reports whether the card is a heart or a diamond.
func (c Card) Red() bool { return c.Suit().Red() }

// String returns the card's name with a suit symbol ("Q♠", "10♥"), "--" for
// None and "##" for FaceDown.
func (c Card) String() string {
	if name, ok := c.notACard(); ok {
		return name
	}
	return c.Rank().String() + c.Suit().Symbol()
}

// ASCII returns the card's name with a suit letter ("QS", "10H"), and the
// same names as String for the codes that are not cards.
func (c Card) ASCII() string {
	if name, ok := c.notACard(); ok {
		return name
	}
	return c.Rank().String() + string(c.Suit().Letter())
}

// notACard returns the name of a code that is not a card: "--" for None,
// "##" for FaceDown and "??" for any other invalid code; ok is false for a
// card.
func (c Card) notACard() (name string, ok bool) {
	switch {
	case c == None:
		return "--", true
	case c == FaceDown:
		return "##", true
	case !c.Valid():
		return "??", true
	}
	return "", false
}

// Parse reads a card name: a rank (A, 1..10, J, Q, K, or T for ten) followed by
// a suit given as a symbol (♣ ♦ ♥ ♠, also the hollow ♧ ♢ ♡ ♤) or a letter
// (C D H S), in any letter case: "Q♠", "QS", "10h", "ad".
func Parse(s string) (Card, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return None, fmt.Errorf("parse card %q: empty name", s)
	}
	var suit Suit
	found := false
	for _, p := range []struct {
		suffix string
		suit   Suit
	}{
		{"♣", Clubs}, {"♧", Clubs}, {"♦", Diamonds}, {"♢", Diamonds},
		{"♥", Hearts}, {"♡", Hearts}, {"♠", Spades}, {"♤", Spades},
		{"c", Clubs}, {"d", Diamonds}, {"h", Hearts}, {"s", Spades},
		{"C", Clubs}, {"D", Diamonds}, {"H", Hearts}, {"S", Spades},
	} {
		if strings.HasSuffix(t, p.suffix) {
			suit, found = p.suit, true
			t = t[:len(t)-len(p.suffix)]
			break
		}
	}
	if !found {
		return None, fmt.Errorf("parse card %q: no suit (use ♣♦♥♠ or C D H S)", s)
	}
	var rank Rank
	switch strings.ToUpper(t) {
	case "A", "1":
		rank = Ace
	case "2", "3", "4", "5", "6", "7", "8", "9":
		rank = Rank(t[0] - '0')
	case "10", "T":
		rank = 10
	case "J":
		rank = Jack
	case "Q":
		rank = Queen
	case "K":
		rank = King
	default:
		return None, fmt.Errorf("parse card %q: unknown rank %q (use A, 2..10, J, Q, K)", s, t)
	}
	return New(suit, rank), nil
}

// MustParse is Parse for card names written in code and tests; it panics on a
// bad name. Never call it on user input.
func MustParse(s string) Card {
	c, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return c
}

// MustParseList reads space-separated card names (see MustParse); "--" stands
// for None.
func MustParseList(s string) []Card {
	var out []Card
	for _, f := range strings.Fields(s) {
		if f == "--" {
			out = append(out, None)
			continue
		}
		out = append(out, MustParse(f))
	}
	return out
}

// Bytes returns s viewed as card codes, without copying: observations copy
// card arrays into their byte cells through it.
func Bytes(s []Card) []uint8 {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*uint8)(unsafe.Pointer(&s[0])), len(s))
}
