package fourquarters

import "math/bits"

// Evaluate scores the position for the heuristic agent, in cards, from what a
// player sees: the cards removed, plus 0.75 for each card that can pair now,
// plus 0.25 for each other card that would touch a card of its rank once the
// files slid toward the hub (closing up brings them together), plus 0.1 for each
// card with a card of its rank two steps away in its arm; once the stock is
// empty, minus 0.5 for each card with no card of its rank left in its arm
// (it can never leave the cross).
func (g *Game) Evaluate() float64 {
	now, later, near, lonely := g.tally()
	score := float64(g.removed)
	score += 0.75 * float64(now)
	score += 0.25 * float64(later)
	score += 0.1 * float64(near)
	if g.next == StockSize {
		score -= 0.5 * float64(lonely)
	}
	return score
}

// tally counts what Evaluate weighs: the cards that pair now, the other
// cards that would touch a card of their rank once the files slid, the
// cards with a card of their rank two steps away in their arm, and the
// cards with no card of their rank left in their arm.
func (g *Game) tally() (now, later, near, lonely int) {
	// Cards that pair now.
	var nowSet uint64
	for a := range NumArms {
		for b := g.armPairMask(a); b != 0; b &= b - 1 {
			pc := armPairs[bits.TrailingZeros64(b)]
			nowSet |= (1<<pc[0] | 1<<pc[1]) << (a * ArmCells)
		}
	}
	// The cross after sliding every file toward the hub (without refills).
	// from[w] is the cell whose card slides to w.
	var slid, from [NumCells]uint8
	for a := range NumArms {
		for f := range 2 {
			w := a*ArmCells + f
			for d := range ArmLen {
				i := a*ArmCells + 2*d + f
				if r := rankOf[g.cells[i]]; r != 0 {
					slid[w], from[w] = r, uint8(i)
					w += 2
				}
			}
		}
	}
	var laterSet uint64
	for p := range NumPairs {
		i, j := pairCells[p][0], pairCells[p][1]
		if slid[i] != 0 && slid[i] == slid[j] {
			laterSet |= 1<<from[i] | 1<<from[j]
		}
	}
	// Cards two steps apart along an arm, and cards with no partner left in
	// their arm.
	for a := range NumArms {
		var count [14]uint8
		base := a * ArmCells
		for k := range ArmCells {
			count[rankOf[g.cells[base+k]]]++
		}
		for k := range ArmCells {
			r := rankOf[g.cells[base+k]]
			if r == 0 {
				continue
			}
			if count[r] == 1 {
				lonely++
			}
			d := k / 2
			for _, e := range [...]int{d - 2, d + 2} {
				if e >= 0 && e < ArmLen && (rankOf[g.cells[base+2*e]] == r || rankOf[g.cells[base+2*e+1]] == r) {
					near++
					break
				}
			}
		}
	}
	return bits.OnesCount64(nowSet), bits.OnesCount64(laterSet &^ nowSet), near, lonely
}
