package solver

import (
	"cmp"
	"errors"
	"slices"
	"time"

	"github.com/patience-gym/patience/env"
)

// The opening pass (Pass.Opening) of a game with a move allowed once
// (OnceMover, Cromwell's swap): every form of that move is made at the
// start (every form that the game's pruning (Pruner) keeps at the start
// of a search), and each position it leads to, a game without the move, is
// searched on its own with a small node budget, by a plain depth-first
// search (no limited passes: with budgets this small it finds these wins in
// the fewest nodes, and it can prove a form lost). The forms are ranked like
// any children, by the evaluation of the positions they lead to; a form
// whose position the game proves lost (DeadTester) is dropped. The pass
// runs in rounds: round r searches the best openingFirst·4^r forms with
// openingBudget·2^r nodes each, so that a form ranked low, or one that needs
// a longer search, is reached once the easier ones have failed; each round
// after the first searches in a new order (openingJitter). A form whose
// search proves it lost is not searched again. Forms that lead to the same
// position (the same two cards picked in either order) are searched once:
// they are told apart by the position's hash.
//
// The forms are made from several roots: the start, and the position
// after each ordinary move from it (best first), since a swap made after
// one move, though it could often be made first, leads the searches after
// it elsewhere. The roots after a move start openingLag rounds behind the
// start.
//
// The pass never proves a deal unsolvable (lines that make the move later,
// or never, are the other passes' work); it ends with a win, with its
// share of the budget (half of what is left), or when every form is proved
// lost. Its constants, its share and its place (after the first,
// greedy, discrepancy pass; the late pass came between them later) were
// chosen on Cromwell's deals 500,000 to 500,299, below the measuring
// range: at 1M nodes they leave 12 of those 300 deals unknown (11 with the
// late pass), and 2 of the first 100, where the search without the pass
// left 7.
const (
	openingFirst  = 16  // forms searched in the first round
	openingBudget = 128 // nodes a form in the first round
	openingDepth  = 8   // the most actions one form may take
)

// opening is one form of the once-allowed move.
type opening struct {
	actions [openingDepth]int16
	n       uint8
	lost    bool
	hash    uint64
	score   float32
}

// openRoot is a position the opening pass makes the move from: the start,
// or the position after one ordinary move from it.
type openRoot struct {
	action int // the ordinary move from the start, -1 for the start itself
	score  float32
	forms  []opening
	listed bool // forms holds its forms
	round  int  // its round under way
	next   int  // the form of that round to search next
}

// openingLag is how many rounds the roots after one ordinary move start
// behind the start: they cost a round of the start's each, many times
// over, and the start's own forms come first.
const openingLag = 1

// openingJitter is the jitter (Options.Jitter, in the evaluation's units:
// cards, for Cromwell) of a form's searches after the first round, each
// round with its own seed. Without it, a round searched each form again
// as the round before had, node for node, then a little further; with it,
// each round tries the moves of nearly equal rank in a new order, a
// restart. The searches after a swap have heavy tails: tuning deal
// 500,807's winning swap is found in 14,040 nodes with it, and not in
// 200,000 without (TestOpeningJitter). Of the 41 deals of 500,000 to
// 501,999 that 1M nodes left unknown, a search of 10 s a deal solved 18
// with it and 4 without; a jitter of 4 cards or 0.5 solved 7 of the first
// 21 where 1 solved 9, and dropping the roots after a move 15 of the 41.
// (A variable only so that tests can compare the pass without it.)
var openingJitter = 1.0

// errOpeningDone ends an opening pass that has nothing left to try.
var errOpeningDone = errors.New("opening pass done")

// usesOpening reports whether g offers the opening pass: its once-allowed
// move is still available.
func usesOpening(g env.Game) bool {
	om, ok := g.(OnceMover)
	return ok && om.OnceAvailable()
}

// openingPass runs the opening pass from g. It returns errFound with s.line
// holding the win, errPassCap or errOpeningDone when the pass ends without
// one, and another error when a budget of the whole search stops it. The
// roots take their rounds in turn: in round R the start takes its round R
// and each root after an ordinary move (best first) its round R−openingLag.
func (s *Solver) openingPass(g env.Game) error {
	s.cut = true // the pass is never exhaustive
	s.line = s.line[:0]
	if !s.openListed {
		s.listRoots(g)
		s.openListed, s.openRound, s.openNext = true, 0, 0
	}
	if s.sub == nil {
		s.sub = &Solver{tt: newTable(openingTableBits), noCache: s.noCache}
	}
	for ; ; s.openRound, s.openNext = s.openRound+1, 0 {
		busy := false
		for ; s.openNext < len(s.openRoots); s.openNext++ {
			rt := &s.openRoots[s.openNext]
			r := s.openRound
			if rt.action >= 0 {
				r -= openingLag
			}
			if r < 0 {
				busy = true
				continue
			}
			base := s.openBase
			base.CopyFrom(g)
			if rt.action >= 0 {
				base.Apply(rt.action)
			}
			if !rt.listed {
				rt.forms = s.listOpenings(base, rt.forms[:0])
				rt.listed, rt.round, rt.next = true, r, 0
			}
			if rt.round < r {
				rt.round, rt.next = r, 0
			}
			left, err := s.rootRound(rt, base)
			if err == errFound {
				// The line found is the root's ordinary move, then the form
				// and the search after it.
				if rt.action >= 0 {
					s.line = append(s.line, 0)
					copy(s.line[1:], s.line)
					s.line[0] = rt.action
				}
				return err
			}
			if err != nil {
				return err
			}
			busy = busy || left
		}
		if !busy {
			return errOpeningDone
		}
	}
}

// rootRound runs the rest of root rt's round from position base (rt's
// position): its best openingFirst·4^r forms, each with openingBudget·2^r
// nodes. It reports whether any form of the root may still win, and
// returns errFound with s.line holding the form and the search's line
// when one does, errPassCap when the pass's share runs out (the round
// resumes there next time), and another error when a budget of the whole
// search stops it.
func (s *Solver) rootRound(rt *openRoot, base env.Game) (bool, error) {
	r := rt.round
	first := min(len(rt.forms), openingFirst<<(2*min(r, 20)))
	budget := int64(openingBudget) << min(r, 30)
	pos := s.look
	for ; rt.next < first; rt.next++ {
		f := &rt.forms[rt.next]
		if f.lost {
			continue
		}
		if err := s.budget(); err != nil {
			return true, err
		}
		sub := Options{Nodes: budget, TableBits: openingTableBits, Passes: []Pass{}}
		if r > 0 {
			// A new order for each round: see openingJitter.
			sub.Jitter, sub.Seed = openingJitter, uint64(r)*0x9e3779b97f4a7c15
		}
		capped := false
		if s.opts.Nodes > 0 && s.opts.Nodes-s.res.Nodes < sub.Nodes {
			sub.Nodes = s.opts.Nodes - s.res.Nodes
		}
		if s.passNodes > 0 && s.passNodes-s.res.Nodes < sub.Nodes {
			sub.Nodes, capped = s.passNodes-s.res.Nodes, true
		}
		if s.opts.Time > 0 {
			sub.Time = max(s.opts.Time-time.Since(s.start), time.Millisecond)
		}
		s.sub.opts = sub
		pos.CopyFrom(base)
		for _, a := range f.actions[:f.n] {
			pos.Apply(int(a))
		}
		res := s.sub.search(s.ctx, pos, pos)
		s.res.Nodes += res.Nodes
		s.res.SafeMoves += res.SafeMoves
		s.res.Dead += res.Dead
		s.res.Best = max(s.res.Best, res.Best)
		s.res.MaxDepth = max(s.res.MaxDepth, int(f.n)+res.MaxDepth)
		switch res.Verdict {
		case Solved:
			s.line = s.line[:0]
			for _, a := range f.actions[:f.n] {
				s.line = append(s.line, int(a))
			}
			s.line = append(s.line, res.Line...)
			return true, errFound
		case Unsolvable:
			f.lost = true
			continue
		}
		if res.Stop == TimeBudget || res.Stop == Cancelled {
			s.res.Stop = res.Stop
			return true, errors.New("opening search stopped: " + res.Stop.String())
		}
		if capped {
			return true, errPassCap // this form again, with its full budget, next time
		}
	}
	// Forms may still win if one of this round's is not proved lost (the
	// round may have begun in an earlier call), or forms are left for
	// later rounds.
	for _, f := range rt.forms[:first] {
		if !f.lost {
			return true, nil
		}
	}
	return first < len(rt.forms), nil
}

// listRoots lists the positions the opening pass makes the move from: the
// start g, then the position after each ordinary move from it (a move
// that is not part of the once-allowed move), best first.
func (s *Solver) listRoots(g env.Game) {
	s.openRoots = s.openRoots[:0]
	s.addRoot(openRoot{action: -1})
	g.Legal(&s.mask)
	c := s.scratch
	for a := s.mask.Next(0); a >= 0; a = s.mask.Next(a + 1) {
		c.CopyFrom(g)
		c.Apply(a)
		if s.midway(c) || !c.(OnceMover).OnceAvailable() {
			continue // the once-allowed move: the start's forms
		}
		s.addRoot(openRoot{action: a, score: float32(s.score(c))})
	}
	slices.SortStableFunc(s.openRoots[1:], func(a, b openRoot) int {
		return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(a.action, b.action))
	})
}

// addRoot appends rt to s.openRoots, giving it the forms buffer of an
// earlier search's root where there is one.
func (s *Solver) addRoot(rt openRoot) {
	if n := len(s.openRoots); n < cap(s.openRoots) {
		rt.forms = s.openRoots[:n+1][n].forms[:0]
	}
	s.openRoots = append(s.openRoots, rt)
}

// openingTableBits sizes the table of an opening's search: small, since
// each search is small, and cheap to start (2^18 entries of 16 bytes: 4
// MiB a Solver, beside its own table of Options.TableBits).
const openingTableBits = 18

// listOpenings appends to dst the forms of g's once-allowed move, best
// first, each once (two forms that reach the same position count once),
// leaving out those that lead to a position the game proves lost, and
// returns it.
func (s *Solver) listOpenings(g env.Game, dst []opening) []opening {
	var f opening
	s.listing = dst
	s.addOpenings(g, &f, 0)
	forms := s.listing
	s.listing = nil
	// One form per position: sort by hash, keep the first of each run
	// (the lowest action ids, as the listing order is by id).
	slices.SortStableFunc(forms, func(a, b opening) int { return cmp.Compare(a.hash, b.hash) })
	forms = slices.CompactFunc(forms, func(a, b opening) bool { return a.hash == b.hash })
	n := len(forms)
	forms = slices.DeleteFunc(forms, func(f opening) bool { return f.lost })
	s.res.Dead += int64(n - len(forms))
	slices.SortStableFunc(forms, func(a, b opening) int {
		return cmp.Or(cmp.Compare(b.score, a.score), slices.Compare(a.actions[:a.n], b.actions[:b.n]))
	})
	return forms
}

// addOpenings appends the forms of the once-allowed move that begin with
// the f.n actions of f, played from position at (which is at those
// actions).
func (s *Solver) addOpenings(at env.Game, f *opening, depth int) {
	if depth >= openingDepth {
		return
	}
	mask := s.openMask(depth)
	at.Legal(mask)
	if s.usePrun {
		// Each root is the start of its own searches: the game prunes
		// there as at the start of a search (no moves before it).
		at.(Pruner).Prune(nil, mask)
	}
	next := s.openState(depth)
	for a := mask.Next(0); a >= 0; a = mask.Next(a + 1) {
		next.CopyFrom(at)
		next.Apply(a)
		f.actions[depth] = int16(a)
		f.n = uint8(depth + 1)
		switch {
		case s.midway(next):
			s.addOpenings(next, f, depth+1)
		case next.(OnceMover).OnceAvailable():
			// an ordinary move: not a form of the once-allowed move
		default:
			o := *f
			o.hash = next.Hash()
			switch {
			case next.Won():
				o.score = float32(1e9)
			case s.useDead && s.dead(next):
				o.lost = true
			default:
				o.score = float32(s.score(next))
			}
			s.listing = append(s.listing, o)
		}
	}
	f.n = uint8(depth)
}

// openMask and openState return the mask and position buffers of depth d
// of the listing of openings.
func (s *Solver) openMask(d int) *env.Mask {
	for len(s.openMasks) <= d {
		s.openMasks = append(s.openMasks, env.NewMask(s.spec.Actions))
	}
	return &s.openMasks[d]
}

func (s *Solver) openState(d int) env.Game {
	for len(s.openStates) <= d {
		s.openStates = append(s.openStates, s.scratch.Clone())
	}
	return s.openStates[d]
}
