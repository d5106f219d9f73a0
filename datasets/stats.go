package datasets

import (
	"math"
	"sort"

	"github.com/patience-gym/patience/stats"
)

// Describe sums up a sample of numbers.
type Describe struct {
	N                        int
	Mean, Std                float64
	Min, Q1, Median, Q3, Max float64
}

// describe computes the summary of xs, which it sorts. Std is the sample
// standard deviation (0 for fewer than two values); quartiles interpolate
// linearly between order statistics.
func describe(xs []float64) Describe {
	d := Describe{N: len(xs)}
	if len(xs) == 0 {
		return d
	}
	sort.Float64s(xs)
	var sum float64
	for _, x := range xs {
		sum += x
	}
	d.Mean = sum / float64(len(xs))
	if len(xs) > 1 {
		var ss float64
		for _, x := range xs {
			ss += (x - d.Mean) * (x - d.Mean)
		}
		d.Std = math.Sqrt(ss / float64(len(xs)-1))
	}
	q := func(p float64) float64 {
		h := p * float64(len(xs)-1)
		lo := math.Floor(h)
		i := int(lo)
		if i+1 >= len(xs) {
			return xs[i]
		}
		return xs[i] + (h-lo)*(xs[i+1]-xs[i])
	}
	d.Min, d.Q1, d.Median, d.Q3, d.Max = xs[0], q(0.25), q(0.5), q(0.75), xs[len(xs)-1]
	return d
}

// Stats sums up the episodes of a dataset.
type Stats struct {
	// Episodes and Steps count the rows read.
	Episodes, Steps int64
	// Outcomes counts the episodes by outcome, Classes by class (episodes
	// without a class are not counted).
	Outcomes map[string]int64
	Classes  map[string]int64
	// Return, Length and Progress describe the episodes.
	Return, Length, Progress Describe
	// WinRate is the fraction of episodes won, with the bounds of its 95 %
	// Wilson score interval.
	WinRate, WinLow, WinHigh float64
}

// EpisodeStats reads the episodes with read (Dataset.ReadEpisodes or
// File.ReadEpisodes) and sums them up.
func EpisodeStats(read func(func([]Episode) error) error) (*Stats, error) {
	st := &Stats{Outcomes: map[string]int64{}, Classes: map[string]int64{}}
	var ret, length, prog []float64
	err := read(func(rows []Episode) error {
		for i := range rows {
			e := &rows[i]
			st.Episodes++
			st.Steps += int64(e.Length)
			st.Outcomes[e.Outcome]++
			if e.Class != "" {
				st.Classes[e.Class]++
			}
			ret = append(ret, e.Return)
			length = append(length, float64(e.Length))
			prog = append(prog, float64(e.Progress))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	st.Return, st.Length, st.Progress = describe(ret), describe(length), describe(prog)
	st.WinRate, st.WinLow, st.WinHigh = winRate(st.Outcomes["won"], st.Episodes)
	return st, nil
}

// winRate returns won/episodes and its 95 % Wilson score interval (0 and
// [0, 1] without episodes).
func winRate(won, episodes int64) (p, lo, hi float64) {
	if episodes == 0 {
		return 0, 0, 1
	}
	w := stats.Wilson(int(won), int(episodes), 0.95)
	return w.P, w.CI.Lo, w.CI.Hi
}
