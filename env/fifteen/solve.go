package fifteen

// SafeMove returns a column-to-pile move that never costs a win, or -1:
// the available card c of rank r goes to its suit's up pile (which shows
// r−1) when the down pile already holds r and r−1, or to the down pile
// (which shows r+1) when the up pile already holds r and r+1.
//
// Why it is safe, for the up pile (the down pile is the mirror image):
// every card of c's suit of rank r−1 up to the down pile's top is home, so
// the suit's cards still in play split into those waiting for the up pile
// (ranks r and above, one copy each) and those waiting for the down pile
// (ranks below the down pile's top, at most r−2). A marriage joins ranks one
// apart, so the two groups never touch, and the only cards that can ever be
// married onto c, or onto what lies on it, are later cards of the up pile.
// Take a winning line from the position and play it with c home at once:
// each of those cards goes home, on the up pile, at the moment the line
// would marry it into c's stack, and a move of any card of that stack is
// skipped. Every other move stays legal (a card c covered is uncovered
// sooner, and the up pile takes a card when it did before or holds it
// already), so the line still wins. The emergency rule plays no part: it
// needs every foundation empty, and the up pile already holds r−1.
func (g *Game) SafeMove() int {
	for c := range NumCols {
		n := g.n[c]
		if n == 0 {
			continue
		}
		x := g.cols[c][n-1]
		s, r := suitOf[x], rankOf[x]
		up, down := g.up[s], g.down[s]
		if r == upNext(up) && down != 0 && down <= r-1 {
			return ActUp + c
		}
		if r == downNext(down) && up >= r+1 {
			return ActDown + c
		}
	}
	return -1
}
