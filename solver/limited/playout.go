package limited

import (
	"github.com/patience-gym/patience/env/cards"
	rules "github.com/patience-gym/patience/env/limited"
)

// playout plays the rest of g's game by a fixed greedy policy on a scratch
// copy of its cards and returns the cards it gets home. The policy: send
// home every card that can go (a column's top, the waste top, a privileged
// card); otherwise pair the waste top, or a privileged card, onto a column
// where it fits; otherwise turn the stock, start the second deal, or turn
// the fifth card, which is played home or paired if it can be and ends the
// playout if not.
func playout(g *Position) int {
	var p lsim
	p.load(g)
	for {
		if p.home() || p.pairReserve() {
			continue
		}
		switch {
		case !p.second && p.np > 0:
			p.nw++
			p.waste[p.nw-1] = p.pack[p.np-1]
			p.np--
		case !p.second:
			if p.nw == 0 {
				return p.homeCount
			}
			p.deal()
		case p.np > 0:
			k := p.pack[p.np-1]
			p.np--
			if !p.place(k) {
				return p.homeCount
			}
		default:
			return p.homeCount
		}
	}
}

// lsim is the state of a playout.
type lsim struct {
	cols      [rules.NumCols][rules.Height + 1]cards.Card
	n         [rules.NumCols]uint8
	paired    uint16
	found     cards.Foundations
	pack      [rules.StockSize]cards.Card // the next card last
	np        int
	waste     [rules.StockSize]cards.Card
	nw        int
	priv      [rules.Privileged]cards.Card
	second    bool
	homeCount int
}

func (p *lsim) load(g *Position) {
	for c := range rules.NumCols {
		col := g.Column(c)
		copy(p.cols[c][:], col)
		p.n[c] = uint8(len(col))
		if g.Paired(c) {
			p.paired |= 1 << c
		}
	}
	p.found = g.Foundations()
	p.homeCount = g.Progress()
	p.np = copy(p.pack[:], g.Pack())
	p.nw = copy(p.waste[:], g.Waste())
	p.priv = g.PrivilegedRow()
	p.second = g.SecondDeal()
	if f := g.Fifth(); f != cards.None {
		p.place(f)
	}
}

// home sends one card home and reports whether it did.
func (p *lsim) home() bool {
	for c := range rules.NumCols {
		if n := p.n[c]; n > 0 && p.found.Fits(p.cols[c][n-1]) {
			p.found.Put(p.cols[c][n-1])
			p.n[c]--
			p.paired &^= 1 << c
			p.homeCount++
			return true
		}
	}
	if !p.second {
		if p.nw > 0 && p.found.Fits(p.waste[p.nw-1]) {
			p.found.Put(p.waste[p.nw-1])
			p.nw--
			p.homeCount++
			return true
		}
		return false
	}
	for i, k := range p.priv {
		if k != cards.None && p.found.Fits(k) {
			p.found.Put(k)
			p.homeCount++
			p.refill(i)
			return true
		}
	}
	return false
}

// pairAt returns a column whose top card k pairs onto, or −1.
func (p *lsim) pairAt(k cards.Card) int {
	for c := range rules.NumCols {
		if n := p.n[c]; n > 0 && p.paired&(1<<c) == 0 {
			if t := p.cols[c][n-1]; t.Suit() == k.Suit() && t.Rank() == k.Rank()+1 {
				return c
			}
		}
	}
	return -1
}

// pairReserve pairs the waste top or a privileged card onto a column and
// reports whether it did.
func (p *lsim) pairReserve() bool {
	if !p.second {
		if p.nw > 0 {
			if c := p.pairAt(p.waste[p.nw-1]); c >= 0 {
				p.push(c, p.waste[p.nw-1])
				p.nw--
				return true
			}
		}
		return false
	}
	for i, k := range p.priv {
		if k == cards.None {
			continue
		}
		if c := p.pairAt(k); c >= 0 {
			p.push(c, k)
			p.refill(i)
			return true
		}
	}
	return false
}

// push puts k on column c: a pair where the column has cards, a card in a
// space otherwise.
func (p *lsim) push(c int, k cards.Card) {
	if p.n[c] > 0 {
		p.paired |= 1 << c
	}
	p.cols[c][p.n[c]] = k
	p.n[c]++
}

// refill fills privileged slot i from the pile.
func (p *lsim) refill(i int) {
	p.priv[i] = cards.None
	if p.np > 0 {
		p.priv[i] = p.pack[p.np-1]
		p.np--
	}
}

// deal starts the second deal.
func (p *lsim) deal() {
	for i := range p.nw {
		p.pack[p.nw-1-i] = p.waste[i]
	}
	p.np, p.nw = p.nw, 0
	p.second = true
	for i := range rules.Privileged {
		p.refill(i)
	}
}

// place plays a fifth card k home, onto a pair or into a space, and
// reports whether it could.
func (p *lsim) place(k cards.Card) bool {
	if p.found.Fits(k) {
		p.found.Put(k)
		p.homeCount++
		return true
	}
	if c := p.pairAt(k); c >= 0 {
		p.push(c, k)
		return true
	}
	for c := range rules.NumCols {
		if p.n[c] == 0 {
			p.push(c, k)
			return true
		}
	}
	return false
}
