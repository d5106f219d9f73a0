package policy

import "github.com/patience-gym/patience/env"

// CardInputLen returns the first-layer input width of a card-embedding
// network of spec's game: cardDim per card cell, Max+1 per other cell.
func CardInputLen(spec *env.Spec, cardDim int) int {
	n := 0
	for _, g := range spec.Segments {
		if g.Card {
			n += g.Len * cardDim
		} else {
			n += g.Len * (int(g.Max) + 1)
		}
	}
	return n
}

// expandCards computes a card-embedding model's first-layer weight over
// the one-hot input (w0t, [OneHotLen][width0]) for spec's cell layout: the
// row of card cell c at value v is the compact weight's card_dim columns of
// c times the embedding of v; the row of another cell at value v is the
// compact weight's column for v. Check has approved spec.
func (m *Model) expandCards(spec *env.Spec) {
	d, in, out0 := m.meta.CardDim, m.meta.InputLen, len(m.b0)
	w0t := make([]float32, spec.OneHotLen()*out0)
	row, col := 0, 0
	for _, g := range spec.Segments {
		for range g.Len {
			for v := 0; v <= int(g.Max); v++ {
				dst := w0t[(row+v)*out0 : (row+v+1)*out0]
				for o := range dst {
					w := m.w0c[o*in+col:]
					if g.Card {
						var s float32
						for j, e := range m.cards[v*d : (v+1)*d] {
							s += w[j] * e
						}
						dst[o] = s
					} else {
						dst[o] = w[v]
					}
				}
			}
			row += int(g.Max) + 1
			if g.Card {
				col += d
			} else {
				col += int(g.Max) + 1
			}
		}
	}
	m.w0t = w0t
}
