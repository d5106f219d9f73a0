package solver

import (
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/solver/internal/hashmix"
)

// A best-first pass (Pass.BestFirst) keeps every position it has reached
// but not yet expanded, and always expands the one of highest evaluation,
// wherever in the tree it lies. A depth-first pass commits to the subtree
// of its first choice until that is spent; where many positions score
// alike (cards stored in one place or another, runs shifted from row to
// row) it can spend its whole budget there, and a win one early choice
// away is never reached. Best first goes back to that choice as soon as
// the subtree stops looking better than it.
//
// Each position is reached once: the pass remembers the key of every
// position it has listed (the game's Keyer key where it has one, else its
// hash, with its progress as in the table) and never forgets one. It plays
// the game's safe moves and stops at its dead test, as the depth-first
// passes do, but neither prunes nor narrows (Pruner, Narrower): with keys,
// the moves a pruner leaves out mostly lead to positions reached already.
// So when it runs out of positions it has searched everything reachable,
// and proves the deal unsolvable as the unlimited pass does. It holds the
// positions it has listed and not expanded, at most bfMaxStates of them,
// and a small record of every position it has listed (its move and its
// parent, for the line), at most bfMaxNodes; when either would be more,
// the pass ends, proving nothing. It ranks each position by the
// evaluation of the pass (Pass.Plain) and ignores Options.Jitter; in a
// game whose moves take several actions (Staged) it ranks the positions
// inside a move as any other.

// bfMaxStates is the most positions a best-first pass holds at once
// (about 300 bytes each, for the games with hidden cards): 4M, a little
// over a gigabyte. A variable for the tests.
var bfMaxStates = 1 << 22

// bfMaxNodes is the most positions a best-first pass lists, 24 bytes and
// a key each: 16 times bfMaxStates, about 2.5 gigabytes.
func bfMaxNodes() int { return 16 * bfMaxStates }

// bfNode is a position a best-first pass has listed.
type bfNode struct {
	parent int32   // the node it was reached from (-1: the start)
	seg    int32   // its actions in bestFirst.acts: the move, then the safe moves after it
	nseg   int32   // how many
	slot   int32   // its position in bestFirst.states (-1 once expanded)
	depth  int32   // the length of its line
	score  float32 // its evaluation
}

// bestFirst is the storage of a best-first pass, kept by a Solver from one
// search to the next.
type bestFirst struct {
	nodes  []bfNode
	acts   []int32
	heap   []int32    // the nodes not yet expanded, best on top
	states []env.Game // position buffers, by slot
	free   []int32    // the slots not in use
	seen   []uint64   // the keys listed, open addressing (0: empty)
	nseen  int
}

// reset empties the storage for a new pass.
func (b *bestFirst) reset() {
	b.nodes, b.acts, b.heap = b.nodes[:0], b.acts[:0], b.heap[:0]
	b.free = b.free[:0]
	for i := len(b.states) - 1; i >= 0; i-- {
		b.free = append(b.free, int32(i))
	}
	if b.seen == nil {
		b.seen = make([]uint64, 1<<16)
	} else {
		clear(b.seen)
	}
	b.nseen = 0
}

// slot returns a free position buffer (a copy of like's type), or -1 when
// the pass holds bfMaxStates positions already.
func (b *bestFirst) slot(like env.Game) int32 {
	if n := len(b.free); n > 0 {
		i := b.free[n-1]
		b.free = b.free[:n-1]
		return i
	}
	if len(b.states) >= bfMaxStates {
		return -1
	}
	b.states = append(b.states, like.Clone())
	return int32(len(b.states) - 1)
}

// add records key k (never 0) as listed and reports whether it was new.
func (b *bestFirst) add(k uint64) bool {
	if k == 0 {
		k = 1
	}
	if 2*(b.nseen+1) > len(b.seen) {
		old := b.seen
		b.seen = make([]uint64, 2*len(old))
		for _, o := range old {
			if o != 0 {
				b.insert(o)
			}
		}
	}
	if !b.insert(k) {
		return false
	}
	b.nseen++
	return true
}

// insert puts k into the open-addressed set, reporting whether it was new.
func (b *bestFirst) insert(k uint64) bool {
	mask := uint64(len(b.seen) - 1)
	for i := hashmix.Mix(k) & mask; ; i = (i + 1) & mask {
		switch b.seen[i] {
		case 0:
			b.seen[i] = k
			return true
		case k:
			return false
		}
	}
}

// before orders the heap: higher score first, then the node listed first.
func (b *bestFirst) before(i, j int32) bool {
	x, y := &b.nodes[i], &b.nodes[j]
	if x.score != y.score {
		return x.score > y.score
	}
	return i < j
}

// above orders a heap of nodes: with worstTop false the best on top
// (before), with worstTop true the worst (a beam pass's next layer).
func (b *bestFirst) above(i, j int32, worstTop bool) bool {
	if worstTop {
		return b.before(j, i)
	}
	return b.before(i, j)
}

// heapPush adds node n to heap h, ordered by above, and returns h.
func (b *bestFirst) heapPush(h []int32, n int32, worstTop bool) []int32 {
	h = append(h, n)
	for i := len(h) - 1; i > 0; {
		p := (i - 1) / 2
		if !b.above(h[i], h[p], worstTop) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
	return h
}

// heapDown moves h[i] down heap h, ordered by above, to its place.
func (b *bestFirst) heapDown(h []int32, i int, worstTop bool) {
	for {
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(h) && b.above(h[l], h[m], worstTop) {
			m = l
		}
		if r < len(h) && b.above(h[r], h[m], worstTop) {
			m = r
		}
		if m == i {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

// push adds node n to the heap.
func (b *bestFirst) push(n int32) { b.heap = b.heapPush(b.heap, n, false) }

// pop removes and returns the best node of the heap.
func (b *bestFirst) pop() int32 {
	h := b.heap
	top, last := h[0], len(h)-1
	h[0] = h[last]
	b.heap = h[:last]
	b.heapDown(b.heap, 0, false)
	return top
}

// bfKey is the key a best-first pass remembers g by: the table's key and
// progress, mixed.
func (s *Solver) bfKey(g env.Game) uint64 {
	return hashmix.Mix(s.key(g) ^ uint64(g.Progress())*0x9e3779b97f4a7c15)
}

// settle plays g's safe moves (where the search uses them), appending
// them to the node's actions. It reports a win.
func (s *Solver) settle(g env.Game) bool {
	if s.useSafe {
		sm := g.(SafeMover)
		for range 4 * s.spec.Cards { // safe moves make progress; this only guards a faulty game
			m := sm.SafeMove()
			if m < 0 {
				break
			}
			g.Apply(m)
			s.bf.acts = append(s.bf.acts, int32(m))
			s.res.SafeMoves++
		}
	}
	return g.Won()
}

// bfLine sets s.line to the line from the start to node n.
func (s *Solver) bfLine(n int32) {
	s.line = s.line[:0]
	for i := n; i >= 0; i = s.bf.nodes[i].parent {
		nd := &s.bf.nodes[i]
		for j := nd.seg + nd.nseg - 1; j >= nd.seg; j-- {
			s.line = append(s.line, int(s.bf.acts[j]))
		}
	}
	for i, j := 0, len(s.line)-1; i < j; i, j = i+1, j-1 {
		s.line[i], s.line[j] = s.line[j], s.line[i]
	}
}

// listStart begins a pass that lists positions (the best-first pass, a
// beam pass) from g: it empties the pass's storage, plays the start's safe
// moves and lists the start, node 0. It returns errFound for a start won
// by its safe moves (s.line holding them), and dead for a start the dead
// test proves lost (then no node is made).
func (s *Solver) listStart(g env.Game) (dead bool, err error) {
	b := &s.bf
	b.reset()
	root := b.slot(g)
	st := b.states[root]
	st.CopyFrom(g)
	if s.settle(st) {
		s.line = s.line[:0]
		for _, a := range b.acts {
			s.line = append(s.line, int(a))
		}
		return false, errFound
	}
	b.add(s.bfKey(st))
	if s.useDead && s.dead(st) {
		s.res.Dead++
		return true, nil
	}
	b.nodes = append(b.nodes, bfNode{parent: -1, seg: 0, nseg: int32(len(b.acts)), slot: root, depth: int32(len(b.acts)), score: float32(s.score(st))})
	return false, nil
}

// listExpand counts node n of a listing pass as expanded, notes its
// progress and depth, and sets s.mask to its legal moves; it returns its
// position.
func (s *Solver) listExpand(n int32) env.Game {
	s.res.Nodes++
	nd := &s.bf.nodes[n]
	st := s.bf.states[nd.slot]
	if p := st.Progress(); p > s.res.Best {
		s.res.Best = p
	}
	if int(nd.depth) > s.res.MaxDepth {
		s.res.MaxDepth = int(nd.depth)
	}
	st.Legal(&s.mask)
	return st
}

// listChild makes, in s.scratch, the child of node n (position st) by
// action a, with its safe moves, whose actions it appends to the pass's
// (from seg on). It returns errFound for a won child (s.line holding the
// line to it), and listed for a child never listed before that the dead
// test lets through; the actions of a child not listed are dropped.
func (s *Solver) listChild(st env.Game, n int32, a int) (seg int32, listed bool, err error) {
	b, c := &s.bf, s.scratch
	c.CopyFrom(st)
	c.Apply(a)
	seg = int32(len(b.acts))
	b.acts = append(b.acts, int32(a))
	if s.settle(c) {
		b.nodes = append(b.nodes, bfNode{parent: n, seg: seg, nseg: int32(len(b.acts)) - seg, slot: -1})
		s.bfLine(int32(len(b.nodes) - 1))
		return seg, false, errFound
	}
	if !b.add(s.bfKey(c)) {
		b.acts = b.acts[:seg]
		return seg, false, nil
	}
	if s.useDead && s.dead(c) {
		s.res.Dead++
		b.acts = b.acts[:seg]
		return seg, false, nil
	}
	return seg, true, nil
}

// bestFirstPass runs a best-first pass from g. It returns errFound for a
// win (s.line holds its line), nil when it searched every position it can
// reach (s.cut false: the deal is unsolvable), errPassCap when its share
// of the budget or its storage ran out, and another error when a budget
// stopped the search.
func (s *Solver) bestFirstPass(g env.Game) error {
	b := &s.bf
	s.cut = false
	if dead, err := s.listStart(g); dead || err != nil {
		return err
	}
	b.push(0)
	c := s.scratch
	for len(b.heap) > 0 {
		if err := s.budget(); err != nil {
			return err
		}
		n := b.pop()
		nd := b.nodes[n]
		st := s.listExpand(n)
		for a := s.mask.Next(0); a >= 0; a = s.mask.Next(a + 1) {
			seg, listed, err := s.listChild(st, n, a)
			if err != nil {
				return err
			}
			if !listed {
				continue
			}
			i := b.slot(c)
			if i < 0 || len(b.nodes) >= bfMaxNodes() {
				s.cut = true
				return errPassCap
			}
			b.states[i].CopyFrom(c)
			b.nodes = append(b.nodes, bfNode{parent: n, seg: seg, nseg: int32(len(b.acts)) - seg, slot: i,
				depth: nd.depth + int32(len(b.acts)) - seg, score: float32(s.score(c))})
			b.push(int32(len(b.nodes) - 1))
		}
		b.free = append(b.free, nd.slot) // expanded: its buffer is free
		b.nodes[n].slot = -1
	}
	return nil
}
