package cromwell

import (
	"math/bits"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
)

// Stubborn sets: once the swap is spent, Prune keeps only the moves of a
// stubborn set (partial-order reduction, after Valmari's stubborn sets and
// the strong stubborn sets of planning). A search of the game without the
// swap spends most of its nodes on orders of moves that do not matter:
// moves in different fans that neither enable nor disable each other
// reach the same positions in any order, and a search that remembers
// positions still meets every mix of them once. A stubborn set picks one
// card that must still go home and keeps only the moves that lead to that,
// or that could get in its way.
//
// The moves are named by the cards they move, each copy of a code apart
// (the copies are told apart by where they lie now): H(x) sends card x
// home from the top of its fan; M(x, y) moves the run whose lowest card is
// x onto card y, which is on top of its fan and one rank above x in suit.
// A set T of such moves is stubborn when
//
//   - T holds H(x) for some card x still in the fans: every winning line
//     sends x home, with that very move;
//   - for each move of T that cannot be made now, T holds every move that
//     could make one condition of it true (a necessary enabling set): for
//     H(x), the moves of the card lying on x (H(w) and M(w, ·), the only
//     moves that uncover x) or, when no foundation of x's suit shows the
//     rank below x, the H moves of the copies of that card; for M(x, y),
//     the moves of the card lying on y, or, when x is not in the run on top
//     of its fan, the moves of the lowest card above x that breaks that run
//     (only those move it off x's run);
//   - for each move of T that can be made now, T holds every move that
//     could disable it or that it could disable or not commute with: for
//     H(x), M(x, ·), M(w, x) for the copies w of the card below x, and H of
//     x's twin (the two may need the same foundation); for M(x, y), the
//     moves of x onto the other copies of y, the move of x's twin onto y,
//     H(x) and H(y).
//
// Any other move commutes with a move of T that can be made: moving a run
// with x among its cards but not its lowest leaves x on top of a run; a
// card built on the top of x's run joins it; moving y (x not yet on it)
// carries it with its top bare; H of the top of x's run leaves the rest a
// run. Then take any winning line from the position: let a be its first
// move in T (one exists, H(x)). The moves before a are not in T, so none
// of them made a possible (T holds a necessary enabling set of every move
// of T that was not), and each commutes with a; so a, made first, followed
// by the rest of the line, wins too, and a line of the same length reaches
// the win through a move of T. Every winnable position thus keeps a move
// that brings it strictly nearer a win (in moves), and a search that
// remembers positions still finds a win wherever there is one. Where T
// holds no move that can be made now, no winning line exists: the
// position is lost.
//
// Prune tries as goal a card that a foundation takes next (the copies of
// the card one rank above each foundation's top), two of them, those on
// top of a fan first (stubbornTries), and keeps the smaller set of moves.
// Before the swap it does so only in deals whose allowed swaps all
// exchange two intact places, and then counts every swap in T
// (swapMoves); the argument for the swap is Prune's.

// stubbornTries is how many goal cards Prune tries. Each costs a closure;
// on the tuning deals, trying every candidate (up to 16) makes the sets
// smallest (the game after deal 501,543's swap is proved lost in 186,634
// positions; trying 2, in 200,004; 1, in 218,897), but trying 2 searches
// twice as many positions a second (deal 500,805: 947,000 positions in 5 s
// against 472,000), and at 10 s a deal solves one more of the 21 hard
// deals left unknown (501,756).
const stubbornTries = 2

// maxPhys is the number of card copies the sets index: two per code.
const maxPhys = 2 * cards.NumCodes

// stubborn is the working state of one stubborn-set computation.
type stubborn struct {
	g *Game
	// fanOf[p] and depth[p] give the place of copy p (p = 2·code + i) when
	// it is in the fans, as cnt[c] counts the copies of code c there (the
	// first cnt[c] of the code's two).
	fanOf, depth [maxPhys]int8
	cnt          [cards.NumCodes]uint8
	// copyAt[f][k] is the copy index i of the card at each place.
	copyAt [NumFans][MaxDepth]uint8
	// hs holds the H moves of T (bit p), ms the M moves (bit 2p+j, j the
	// copy of the target).
	hs    [(maxPhys + 63) / 64]uint64
	ms    [(2*maxPhys + 63) / 64]uint64
	stack [3 * maxPhys]int16 // moves to look at: p for H, maxPhys+2p+j for M
	sp    int
	// pre is set before the swap (pair-only deals: see swapMoves), with
	// home the kings home.
	pre  bool
	home uint32
	// kept counts the moves of T that can be made now; a computation stops
	// once it reaches limit (a smaller set is known).
	kept, limit int
}

// count counts a move of T that can be made now, and stops the
// computation at the limit.
func (s *stubborn) count() {
	s.kept++
	if s.kept >= s.limit {
		s.sp = 0
	}
}

// swapMoves adds to T, before the swap, the moves that could get in the
// way of a swap, in a deal whose allowed swaps all exchange two intact
// places (swapAllow.pairsOnly). T counts every swap as one of its moves
// (Prune keeps the swap, as its own rule allows); a move that could make
// a swap impossible, or change what it does, must then be in T too. The
// cards in intact places never move before the swap, but a king there may
// take cards on it (M of its queens) or go home, and a king going home
// ends the swaps of the places beneath it: so the H of every king at or
// above a place of a pair still intact, and the M of its suit's queens
// onto a king at such a place. A swap can also make a move possible (a
// card swapped to the top of a fan); as every swap is in T, every
// necessary enabling set may count on it.
func (s *stubborn) swapMoves() {
	g := s.g
	a := g.allow
	for _, pq := range a.pairList {
		if !a.pairIntact(pq, s.home) {
			continue
		}
		for _, pl := range pq {
			f, k := pl.f, pl.k
			if x := g.fans[f][k]; x.Rank() == cards.King {
				p := s.copyOf(f, k)
				s.addH(p)
				for i := range int(s.cnt[x-1]) {
					s.addM(2*int(x-1)+i, p&1)
				}
			}
			for above := uint32(a.above[f][k]) &^ s.home; above != 0; above &= above - 1 {
				i := bits.TrailingZeros32(above)
				s.addH(s.copyOf(int(a.locks.at[i][0]), int(a.locks.at[i][1])))
			}
		}
	}
}

// index fills the places of the cards from g.
func (s *stubborn) index(g *Game) {
	s.g = g
	s.cnt = [cards.NumCodes]uint8{}
	for f := range NumFans {
		for k := range int(g.n[f]) {
			c := g.fans[f][k]
			i := s.cnt[c]
			if i >= 2 {
				continue // not from a real game: at most two copies
			}
			s.cnt[c]++
			s.copyAt[f][k] = i
			s.fanOf[2*int(c)+int(i)] = int8(f)
			s.depth[2*int(c)+int(i)] = int8(k)
		}
	}
}

// card returns the code of copy p.
func card(p int) cards.Card { return cards.Card(p / 2) }

// at returns the fan and depth of copy p (in the fans).
func (s *stubborn) at(p int) (f, k int) { return int(s.fanOf[p]), int(s.depth[p]) }

// copyOf returns the copy at place (f, k).
func (s *stubborn) copyOf(f, k int) int {
	return 2*int(s.g.fans[f][k]) + int(s.copyAt[f][k])
}

// isTop reports that copy p lies on top of its fan.
func (s *stubborn) isTop(p int) bool {
	f, k := s.at(p)
	return k == int(s.g.n[f])-1
}

// inRun reports that copy p lies in the run on top of its fan.
func (s *stubborn) inRun(p int) bool {
	f, k := s.at(p)
	return k >= int(s.g.n[f])-int(s.g.run[f])
}

// onTop returns the copy lying directly on copy p (p not on top).
func (s *stubborn) onTop(p int) int {
	f, k := s.at(p)
	return s.copyOf(f, k+1)
}

// breaker returns the lowest copy above p that breaks the run from p up
// (p not in the top run).
func (s *stubborn) breaker(p int) int {
	f, k := s.at(p)
	cs := &s.g.fans[f]
	for j := k + 1; j < int(s.g.n[f]); j++ {
		if !follows(cs[j-1], cs[j]) {
			return s.copyOf(f, j)
		}
	}
	return p // not reached when p is not in the top run
}

// inH and inM report whether T holds H(p), or the M move with bit b.
func (s *stubborn) inH(p int) bool { return s.hs[p>>6]&(1<<(p&63)) != 0 }
func (s *stubborn) inM(b int) bool { return s.ms[b>>6]&(1<<(b&63)) != 0 }

// addH and addM add a move to T, to be looked at.
func (s *stubborn) addH(p int) {
	if !s.inH(p) {
		s.hs[p>>6] |= 1 << (p & 63)
		s.stack[s.sp] = int16(p)
		s.sp++
	}
}

func (s *stubborn) addM(p, j int) {
	b := 2*p + j
	if !s.inM(b) {
		s.ms[b>>6] |= 1 << (b & 63)
		s.stack[s.sp] = int16(maxPhys + b)
		s.sp++
	}
}

// movesOf adds the moves of copy w: home, or onto any copy of the card
// one rank above.
func (s *stubborn) movesOf(w int) {
	s.addH(w)
	c := card(w)
	if c.Rank() == cards.King {
		return
	}
	for j := range int(s.cnt[c+1]) {
		s.addM(w, j)
	}
}

// newMovesOf counts the moves movesOf(w) would add.
func (s *stubborn) newMovesOf(w int) int {
	n := 0
	if !s.inH(w) {
		n++
	}
	c := card(w)
	if c.Rank() == cards.King {
		return n
	}
	for j := range int(s.cnt[c+1]) {
		if !s.inM(2*w + j) {
			n++
		}
	}
	return n
}

// closeH adds what H(p) needs to T.
func (s *stubborn) closeH(p int) {
	c := card(p)
	top, ready := s.isTop(p), s.g.found.Fits(c)
	if top && ready {
		s.count()
		if c.Rank() != cards.King {
			for j := range int(s.cnt[c+1]) {
				s.addM(p, j)
			}
		}
		if c.Rank() != cards.Ace {
			for i := range int(s.cnt[c-1]) {
				s.addM(2*int(c-1)+i, p&1)
			}
		}
		if s.cnt[c] == 2 {
			s.addH(p ^ 1)
		}
		return
	}
	// Cannot be made now: a necessary enabling set, the smaller one where
	// both conditions fail.
	lower := func() {
		for i := range int(s.cnt[c-1]) {
			s.addH(2*int(c-1) + i)
		}
	}
	switch {
	case top: // not ready (an ace always is)
		lower()
	case ready:
		s.movesOf(s.onTop(p))
	default:
		w := s.onTop(p)
		n := 0
		for i := range int(s.cnt[c-1]) {
			if !s.inH(2*int(c-1) + i) {
				n++
			}
		}
		if n < s.newMovesOf(w) {
			lower()
		} else {
			s.movesOf(w)
		}
	}
}

// closeM adds what M(p, j) needs to T.
func (s *stubborn) closeM(p, j int) {
	c := card(p)
	y := 2*int(c+1) + j
	run, top := s.inRun(p), s.isTop(y)
	if run && top {
		s.count()
		if s.cnt[c+1] == 2 {
			s.addM(p, j^1)
		}
		if s.cnt[c] == 2 {
			s.addM(p^1, j)
		}
		s.addH(p)
		s.addH(y)
		return
	}
	switch {
	case run:
		s.movesOf(s.onTop(y))
	case top:
		s.movesOf(s.breaker(p))
	default:
		w, u := s.onTop(y), s.breaker(p)
		if s.newMovesOf(w) <= s.newMovesOf(u) {
			s.movesOf(w)
		} else {
			s.movesOf(u)
		}
	}
}

// close computes T from the goal H(goal) (and, before the swap, the
// swaps and what could get in their way: see swapMoves), and returns the
// number of its moves that can be made now; it stops early, returning at
// least limit, once that number reaches limit.
func (s *stubborn) close(goal, limit int) int {
	s.hs = [len(s.hs)]uint64{}
	s.ms = [len(s.ms)]uint64{}
	s.sp = 0
	s.kept, s.limit = 0, limit
	s.addH(goal)
	if s.pre {
		s.swapMoves()
	}
	for s.sp > 0 {
		s.sp--
		a := int(s.stack[s.sp])
		if a < maxPhys {
			s.closeH(a)
		} else {
			b := a - maxPhys
			s.closeM(b/2, b&1)
		}
	}
	return s.kept
}

// keeps reports whether the legal action a is in T.
func (s *stubborn) keeps(a int) bool {
	g := s.g
	kind, x, d := decode(a)
	switch kind {
	case ActFoundation:
		return s.inH(s.copyOf(x, int(g.n[x])-1))
	case ActMove:
		y := s.copyOf(d, int(g.n[d])-1)
		want := card(y) - 1
		n := int(g.n[x])
		for k := n - 1; k >= n-int(g.run[x]); k-- {
			if g.fans[x][k] == want {
				return s.inM(2*s.copyOf(x, k) + y&1)
			}
		}
	}
	return true // not a move T speaks of: keep it
}

// pruneStubborn leaves in m, which holds the legal actions of g (the swap
// spent, or unused in a deal whose allowed swaps are pairs only), the
// moves of the smallest stubborn set found, and the swap's first action if
// m holds it; none when a set keeps no move (the position is lost).
func (g *Game) pruneStubborn(m *env.Mask) {
	var s stubborn
	s.index(g)
	if g.swap == swapUnused {
		s.pre = true
		s.home = g.allow.homeKings(g)
	}
	best, bestN := -1, m.Count()
	if bestN <= 1 {
		return
	}
	// The swap's first action, where offered, is kept with every set.
	swap := 0
	if m.Has(ActSwapBegin) {
		swap = 1
	}
	// The candidates: the copies of the card each foundation takes next,
	// those on top of a fan first (their sets tend to be small); the first
	// stubbornTries of them are tried.
	var cand [2 * 2 * cards.NumSuits]int
	nc := 0
	for suit := range cards.NumSuits {
		for _, r := range [2]uint8{g.found[2*suit+1], g.found[2*suit]} {
			if r >= uint8(cards.King) {
				continue
			}
			c := cards.New(cards.Suit(suit), cards.Rank(r+1))
			for i := range int(s.cnt[c]) {
				cand[nc] = 2*int(c) + i
				nc++
			}
			if g.found[2*suit+1] == g.found[2*suit] {
				break // the same card for both
			}
		}
	}
	tried := 0
	for pass := range 2 {
		for _, p := range cand[:nc] {
			if s.isTop(p) != (pass == 0) || tried >= stubbornTries {
				continue
			}
			tried++
			if n := swap + s.close(p, bestN-swap); n < bestN {
				best, bestN = p, n
				if n == 0 {
					m.Clear()
					return
				}
			}
		}
	}
	if best < 0 {
		return
	}
	s.close(best, maxPhys*3)
	for w, word := range m.Words() {
		for ; word != 0; word &= word - 1 {
			if a := w*64 + bits.TrailingZeros64(word); !s.keeps(a) {
				m.Unset(a)
			}
		}
	}
}
