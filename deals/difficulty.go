package deals

import (
	"math"
	"slices"
)

// Score computes the difficulty score of every won deal of t and its class,
// and sets t.Meta.Cuts; other deals get NaN and Unrated. A won deal's
// score is the mean, each from 0 (easy) to 1 (hard), of:
//
//   - effort: the solver's nodes on a log scale, log(1+nodes) over
//     log(1+budget);
//   - length: the share of the table's won deals whose winning line is
//     shorter (ties count half), so the longest lines score near 1; a deal
//     won in play (Meta.WonInPlay), whose line is not known (LineLength
//     0), is scored without it, and its length is not among the others';
//   - play: the share of the cards the heuristic agent left unplaced (0
//     when it won);
//   - worlds, in games with hidden cards only: the share of determinized
//     worlds the solver did not win.
//
// The mc agent plays only some blocks, so it is left out of the score, so
// that deals of every block are scored alike. The classes cut the won deals
// into thirds by score: easy up to the first third, medium up to the
// second, hard above.
func Score(t *Table) {
	var lengths []int
	for _, d := range t.Deals {
		if d.Verdict == Won && d.LineLength > 0 {
			lengths = append(lengths, d.LineLength)
		}
	}
	slices.Sort(lengths)
	cards := float64(max(t.Meta.Cards, 1))
	budget := math.Log1p(float64(max(t.Meta.Settings.Nodes, 1)))
	var scores []float64
	for i := range t.Deals {
		d := &t.Deals[i]
		d.Score, d.Difficulty = math.NaN(), Unrated
		if d.Verdict != Won {
			continue
		}
		effort := min(math.Log1p(float64(d.Nodes))/budget, 1)
		play := 1 - min(float64(d.Heuristic.Progress)/cards, 1)
		if d.Heuristic.Won {
			play = 0
		}
		sum, n := effort+play, 2.0
		if d.LineLength > 0 {
			below, _ := slices.BinarySearch(lengths, d.LineLength)
			above, _ := slices.BinarySearch(lengths, d.LineLength+1)
			sum += (float64(below) + float64(above-below)/2) / float64(len(lengths))
			n++
		}
		if d.Worlds.Tried > 0 {
			sum += 1 - d.Worlds.Share()
			n++
		}
		// Rounded to float32, as stored, so that a table read back
		// classifies its deals as the one written.
		d.Score = float64(float32(sum / n))
		scores = append(scores, d.Score)
	}
	t.Meta.Cuts = [2]float64{}
	if len(scores) == 0 {
		return
	}
	slices.Sort(scores)
	t.Meta.Cuts = [2]float64{nearest(scores, 1.0/3), nearest(scores, 2.0/3)}
	for i := range t.Deals {
		d := &t.Deals[i]
		if d.Verdict == Won {
			d.Difficulty = t.Meta.Class(d.Score)
		}
	}
}

// Class returns the difficulty class of a won deal's score under the
// table's cuts.
func (m *Meta) Class(score float64) Difficulty {
	switch {
	case score <= m.Cuts[0]:
		return Easy
	case score <= m.Cuts[1]:
		return Medium
	}
	return Hard
}

// nearest returns the q-quantile of sorted xs (nearest rank).
func nearest(xs []float64, q float64) float64 {
	i := int(math.Ceil(q*float64(len(xs)))) - 1
	return xs[max(0, min(i, len(xs)-1))]
}
