package cromwell

import (
	"math/bits"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	rules "github.com/patience-gym/patience/env/cromwell"
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
// (swapMoves); the argument for the swap is Prune's. In the game after a
// hooked swap (hook.go), while the hook is on, the builds on a hook are
// moves of T like the others (closeHook gives their rules).

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
	g     *Position
	found cards.Foundations // g's foundations
	// fanOf[p] and depth[p] give the place of copy p (p = 2·code + i) when
	// it is in the fans, as cnt[c] counts the copies of code c there (the
	// first cnt[c] of the code's two).
	fanOf, depth [maxPhys]int8
	cnt          [cards.NumCodes]uint8
	// copyAt[f][k] is the copy index i of the card at each place.
	copyAt [rules.NumFans][rules.MaxDepth]uint8
	// hs holds the H moves of T (bit p), ms the M moves (bit 2p+j, j the
	// copy of the target).
	hs [(maxPhys + 63) / 64]uint64
	ms [(2*maxPhys + 63) / 64]uint64
	// hk holds the builds on a hook of T (bit 2i+c: hook i, copy c of its
	// queen), while the hook is on (hook.go).
	hk    uint8
	stack [3*maxPhys + 4]int16 // moves to look at: p for H, maxPhys+2p+j for M, 3·maxPhys+2i+c for a build on hook i
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
			if x := g.Fans()[f][k]; x.Rank() == cards.King {
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
func (s *stubborn) index(g *Position) {
	s.g, s.found = g, g.Foundations()
	s.cnt = [cards.NumCodes]uint8{}
	for f := range rules.NumFans {
		for k := range g.FanLen(f) {
			c := g.Fans()[f][k]
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
	return 2*int(s.g.Fans()[f][k]) + int(s.copyAt[f][k])
}

// isTop reports that copy p lies on top of its fan.
func (s *stubborn) isTop(p int) bool {
	f, k := s.at(p)
	return k == s.g.FanLen(f)-1
}

// inRun reports that copy p lies in the run on top of its fan.
func (s *stubborn) inRun(p int) bool {
	f, k := s.at(p)
	return k >= s.g.FanLen(f)-s.g.RunLen(f)
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
	cs := &s.g.Fans()[f]
	for j := k + 1; j < s.g.FanLen(f); j++ {
		if !rules.Follows(cs[j-1], cs[j]) {
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
// one rank above, or onto a hook.
func (s *stubborn) movesOf(w int) {
	s.addH(w)
	c := card(w)
	if c.Rank() == cards.King {
		return
	}
	for j := range int(s.cnt[c+1]) {
		s.addM(w, j)
	}
	s.hookMovesOf(w)
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
	if h := &s.g.hook; h.on {
		for i := range int(h.n) {
			if h.at[i].king-1 == c && !s.inHook(i, w) {
				n++
			}
		}
	}
	return n
}

// closeH adds what H(p) needs to T.
func (s *stubborn) closeH(p int) {
	c := card(p)
	top, ready := s.isTop(p), s.found.Fits(c)
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
		s.hookMovesOf(p)
		if s.g.hook.on && s.atPair(p) {
			s.allHookMoves() // sending a swapped card home ends the hook
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
		if s.g.hook.on {
			s.hookMovesOf(p)
			if s.atPair(y) || s.runHoldsPair(p) {
				s.allHookMoves() // builds on a hook place, or ends the hook
			}
		}
		return
	}
	s.enableRun(p, y, run, top)
}

// close computes T from the goal H(goal) (and, before the swap, the
// swaps and what could get in their way: see swapMoves), and returns the
// number of its moves that can be made now; it stops early, returning at
// least limit, once that number reaches limit.
func (s *stubborn) close(goal, limit int) int {
	s.hs = [len(s.hs)]uint64{}
	s.ms = [len(s.ms)]uint64{}
	s.hk = 0
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
		} else if a >= 3*maxPhys {
			s.closeHook((a-3*maxPhys)/2, (a-3*maxPhys)&1)
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
	kind, x, d := rules.Decode(a)
	switch kind {
	case rules.ActFoundation:
		return s.inH(s.copyOf(x, g.FanLen(x)-1))
	case rules.ActMove:
		if g.hook.on {
			if i, ok := g.hookBuild(x, d); ok {
				return s.inHook(i, s.runCopy(x, g.hook.at[i].king-1))
			}
		}
		y := s.copyOf(d, g.FanLen(d)-1)
		want := card(y) - 1
		n := g.FanLen(x)
		for k := n - 1; k >= n-g.RunLen(x); k-- {
			if g.Fans()[x][k] == want {
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
func (g *Position) pruneStubborn(m *env.Mask) {
	var s stubborn
	s.index(g)
	if g.Stage() == rules.SwapUnused {
		s.pre = true
		s.home = g.allow.homeKings(g)
	}
	best, bestN := -1, m.Count()
	if bestN <= 1 {
		return
	}
	// The swap's first action, where offered, is kept with every set.
	swap := 0
	if m.Has(rules.ActSwapBegin) {
		swap = 1
	}
	// The candidates: the copies of the card each foundation takes next,
	// those on top of a fan first (their sets tend to be small); the first
	// stubbornTries of them are tried.
	var cand [2 * 2 * cards.NumSuits]int
	nc := 0
	for suit := range cards.NumSuits {
		for _, r := range [2]uint8{s.found[2*suit+1], s.found[2*suit]} {
			if r >= uint8(cards.King) {
				continue
			}
			c := cards.New(cards.Suit(suit), cards.Rank(r+1))
			for i := range int(s.cnt[c]) {
				cand[nc] = 2*int(c) + i
				nc++
			}
			if s.found[2*suit+1] == s.found[2*suit] {
				break // the same card for both
			}
		}
	}
	// The smallest set found so far: a computation that ends below its
	// limit is complete, and is kept rather than made again.
	var hs, ms, hk = s.hs, s.ms, s.hk
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
				hs, ms, hk = s.hs, s.ms, s.hk
			}
		}
	}
	if best < 0 {
		return
	}
	s.hs, s.ms, s.hk = hs, ms, hk
	for w, word := range m.Words() {
		for ; word != 0; word &= word - 1 {
			if a := w*64 + bits.TrailingZeros64(word); !s.keeps(a) {
				m.Unset(a)
			}
		}
	}
}

// Builds on a hook in a stubborn set (hook.go). While the hook is on, a
// build on hook i of copy p of its queen is one more move, which T names
// with the others: it moves p's run away (as M(p, ·) and H(p) do), it covers
// the card in the hook's place (as a move onto that card does), and every
// move that involves a swapped place (a move onto its card, or one that
// moves that card or sends it home) ends the hook, so disabling every build
// on a hook. The rules of T are the same as for the other moves: a build
// that can be made now brings in every move that moves p or covers the
// place or involves a swapped place (those that could disable it, or that
// it could disable); one that cannot brings in the moves of the card lying
// on the place's card or of the card breaking p's run, whichever
// condition fails (the smaller set where both do). And the moves already
// named bring in the builds they could disable or not commute with: the
// moves of the queen's copies (movesOf, closeH, closeM), the moves onto a
// hook's place card, and every move that involves a swapped place.

// inHook reports whether T holds the build of copy p on hook i.
func (s *stubborn) inHook(i, p int) bool { return s.hk&(1<<(2*i+p&1)) != 0 }

// addHook adds the build of copy p on hook i to T, to be looked at.
func (s *stubborn) addHook(i, p int) {
	b := 2*i + p&1
	if s.hk&(1<<b) == 0 {
		s.hk |= 1 << b
		s.stack[s.sp] = int16(3*maxPhys + b)
		s.sp++
	}
}

// hookMovesOf adds the builds of copy w on the hooks whose king's queen it
// is (none while the hook is off).
func (s *stubborn) hookMovesOf(w int) {
	h := &s.g.hook
	if !h.on {
		return
	}
	for i := range int(h.n) {
		if h.at[i].king-1 == card(w) {
			s.addHook(i, w)
		}
	}
}

// allHookMoves adds every build on a hook, of either copy of its queen.
func (s *stubborn) allHookMoves() {
	h := &s.g.hook
	for i := range int(h.n) {
		q := h.at[i].king - 1
		for c := range int(s.cnt[q]) {
			s.addHook(i, 2*int(q)+c)
		}
	}
}

// atPair reports whether copy p lies in a swapped place (hook on).
func (s *stubborn) atPair(p int) bool {
	f, k := s.at(p)
	for _, q := range s.g.hook.pair {
		if int(q.f) == f && int(q.k) == k {
			return true
		}
	}
	return false
}

// runHoldsPair reports whether the cards from copy p up in its fan hold a
// swapped place (hook on): moving them ends the hook.
func (s *stubborn) runHoldsPair(p int) bool {
	f, k := s.at(p)
	return s.g.touches(f, k, s.g.FanLen(f)-1)
}

// runCopy returns the copy of card c in the run on top of fan x.
func (s *stubborn) runCopy(x int, c cards.Card) int {
	n := s.g.FanLen(x)
	for k := n - 1; k >= n-s.g.RunLen(x); k-- {
		if s.g.Fans()[x][k] == c {
			return s.copyOf(x, k)
		}
	}
	return 2 * int(c) // not reached for a legal build
}

// closeHook adds what the build of copy c of hook i's queen needs to T.
func (s *stubborn) closeHook(i, c int) {
	g := s.g
	h := g.hook.at[i]
	q := h.king - 1
	p := 2*int(q) + c
	y := s.copyOf(int(h.f), int(h.k)) // the card in the hook's place
	run, top := s.inRun(p), g.FanLen(int(h.f)) == int(h.k)+1
	if run && top {
		s.count()
		s.movesOf(p) // p moved elsewhere or home; its other builds
		if s.cnt[q] == 2 {
			s.addHook(i, p^1)
		}
		s.touchMoves()
		return
	}
	s.enableRun(p, y, run, top)
}

// touchMoves adds every move that involves a swapped place, now or later
// (hook on): one onto its card, one that sends that card home, and one that
// moves a run holding that card (from a card at or below it that a
// descending run of its suit joins to it).
func (s *stubborn) touchMoves() {
	g := s.g
	for _, pl := range g.hook.pair {
		f, k := int(pl.f), int(pl.k)
		w := s.copyOf(f, k)
		b := card(w)
		if b.Rank() != cards.Ace {
			for j := range int(s.cnt[b-1]) {
				s.addM(2*int(b-1)+j, w&1)
			}
		}
		s.addH(w)
		// The cards below w that a run through w would start from: the
		// same whatever lies above w.
		lo := k
		for lo > 0 && rules.Follows(g.Fans()[f][lo-1], g.Fans()[f][lo]) {
			lo--
		}
		for d := lo; d <= k; d++ {
			x := s.copyOf(f, d)
			if c := card(x); c.Rank() != cards.King {
				for j := range int(s.cnt[c+1]) {
					s.addM(x, j)
				}
			}
			s.hookMovesOf(x)
		}
	}
}

// enableRun adds a necessary enabling set of moving the run from copy p
// onto copy y (or onto the hook in y's place), which cannot be made now:
// run says p is in its fan's top run, top that y is on top of its fan.
// The moves of the card lying on y, or of the card breaking p's run,
// whichever condition fails (the smaller set where both do).
func (s *stubborn) enableRun(p, y int, run, top bool) {
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
