package cards

// Cover records, for each card of a double deck laid out in piles, how many
// cards lie on each of its two copies: the fewest and the second fewest,
// for the evaluation terms that ask how buried the next card a foundation
// needs is. The zero value is not ready; call Reset first.
type Cover [NumCodes][2]uint8

// uncovered marks a copy not in the piles.
const uncovered = 255

// Reset forgets every copy.
func (v *Cover) Reset() {
	for c := range v {
		v[c] = [2]uint8{uncovered, uncovered}
	}
}

// Add records a copy of c with above cards lying on it (at most 254).
func (v *Cover) Add(c Card, above int) {
	a := uint8(min(above, uncovered-1))
	switch {
	case a < v[c][0]:
		v[c] = [2]uint8{a, v[c][0]}
	case a < v[c][1]:
		v[c][1] = a
	}
}

// Nearest returns the cards lying on the less covered copy of c, or 0 when
// no copy was added.
func (v *Cover) Nearest(c Card) int { return count(v[c][0]) }

// Both returns the cards lying on both copies of c together (a copy not
// added counts 0).
func (v *Cover) Both(c Card) int { return count(v[c][0]) + count(v[c][1]) }

func count(a uint8) int {
	if a == uncovered {
		return 0
	}
	return int(a)
}
