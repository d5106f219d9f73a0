package cromwell

import (
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	rules "github.com/patience-gym/patience/env/cromwell"
	"github.com/patience-gym/patience/solver/internal/solvertest"
)

// TestWholeFanMovesAreNeverOnAShortestWin checks the reason Prune may drop
// a move that takes every card of its fan: no shortest winning line makes
// one. On random small positions with the swap spent, it lays out every
// position reachable by the rules, works out each one's distance to a win
// backwards from the won ones, and checks that every such move leads to a
// position no nearer a win than the one it leaves.
func TestWholeFanMovesAreNeverOnAShortestWin(t *testing.T) {
	n := solvertest.N(1500, 300)
	rng := cards.NewRand(41)
	checked, onWinnable := 0, 0
	for range n {
		g := tinyPosition(rng, 10, 4, true)
		gr := reachable(g, 200000)
		if gr == nil {
			continue
		}
		dist := gr.distances()
		for p, node := range gr.nodes {
			for _, e := range node.out {
				if !e.wholeFan {
					continue
				}
				checked++
				if dist[p] < 0 {
					continue
				}
				onWinnable++
				if dist[e.to] >= 0 && dist[e.to] < dist[p] {
					t.Fatalf("a whole-fan move (%s) is on a shortest win: %d moves to win before it, %d after\n%s",
						rules.ActionName(e.a), dist[p], dist[e.to], node.g.Render())
				}
			}
		}
	}
	t.Logf("%d positions: %d whole-fan moves checked, %d of them from positions that can be won", n, checked, onWinnable)
	if onWinnable < 1000 {
		t.Errorf("only %d whole-fan moves from positions that can be won: the test proves too little", onWinnable)
	}
}

// stateGraph is every position reachable from a start by the rules.
type stateGraph struct {
	nodes []stateNode
}

type stateNode struct {
	g   *Position
	won bool
	out []stateEdge
}

type stateEdge struct {
	a, to    int
	wholeFan bool
}

// reachable lays out the positions reachable from g (nil beyond limit).
func reachable(g *Position, limit int) *stateGraph {
	gr := &stateGraph{}
	index := map[uint64]int{}
	add := func(p *Position) int {
		if i, ok := index[p.Hash()]; ok {
			return i
		}
		index[p.Hash()] = len(gr.nodes)
		gr.nodes = append(gr.nodes, stateNode{g: p, won: p.Won()})
		return len(gr.nodes) - 1
	}
	add(g.Clone().(*Position))
	m := env.NewMask(rules.NumActions)
	whole := env.NewMask(rules.NumActions)
	for i := 0; i < len(gr.nodes); i++ {
		if len(gr.nodes) > limit {
			return nil
		}
		p := gr.nodes[i].g
		p.Legal(&m)
		whole.CopyFrom(&m)
		p.pruneWholeFans(&whole)
		for a := m.Next(0); a >= 0; a = m.Next(a + 1) {
			q := p.Clone().(*Position)
			q.Apply(a)
			j := add(q)
			gr.nodes[i].out = append(gr.nodes[i].out, stateEdge{a: a, to: j, wholeFan: !whole.Has(a)})
		}
	}
	return gr
}

// distances returns each position's fewest moves to a win (-1: lost).
func (gr *stateGraph) distances() []int {
	dist := make([]int, len(gr.nodes))
	in := make([][]int, len(gr.nodes))
	var queue []int
	for i, node := range gr.nodes {
		dist[i] = -1
		if node.won {
			dist[i] = 0
			queue = append(queue, i)
		}
		for _, e := range node.out {
			in[e.to] = append(in[e.to], i)
		}
	}
	for len(queue) > 0 {
		j := queue[0]
		queue = queue[1:]
		for _, i := range in[j] {
			if dist[i] < 0 {
				dist[i] = dist[j] + 1
				queue = append(queue, i)
			}
		}
	}
	return dist
}
