// Package stats holds the few statistics the reports need: a Wilson score
// interval for a proportion, a mean with its Student t interval, and the
// exact McNemar test on paired binary outcomes. Package bench compares
// agents with them; datasets and the patience command use them too. Quantiles and
// distribution functions come from gonum.org/v1/gonum/stat/distuv.
//
// Undefined quantities are NaN: the point estimate of a proportion of 0
// trials, the mean of no values, and the interval of a mean of fewer than
// two values.
package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Interval is a two-sided confidence interval [Lo, Hi].
type Interval struct {
	Lo, Hi float64
}

// Contains reports whether x lies in the closed interval.
func (iv Interval) Contains(x float64) bool { return iv.Lo <= x && x <= iv.Hi }

// Overlaps reports whether the two closed intervals share a point.
func (iv Interval) Overlaps(o Interval) bool { return iv.Lo <= o.Hi && o.Lo <= iv.Hi }

// Defined reports whether both ends are numbers.
func (iv Interval) Defined() bool { return !math.IsNaN(iv.Lo) && !math.IsNaN(iv.Hi) }

// Clamp returns the interval intersected with [lo, hi]: for a quantity
// known to lie in [lo, hi] (a mean of fractions lies in [0, 1]) the
// clamped interval covers the true value whenever the unclamped one does.
// Undefined ends stay NaN.
func (iv Interval) Clamp(lo, hi float64) Interval {
	if !math.IsNaN(iv.Lo) {
		iv.Lo = math.Min(math.Max(iv.Lo, lo), hi)
	}
	if !math.IsNaN(iv.Hi) {
		iv.Hi = math.Min(math.Max(iv.Hi, lo), hi)
	}
	return iv
}

// String formats the interval as "[lo, hi]" with four decimals.
func (iv Interval) String() string { return fmt.Sprintf("[%.4f, %.4f]", iv.Lo, iv.Hi) }

// checkConfidence panics unless 0 < c < 1: a confidence level is chosen by
// the program, and a wrong one is a programming error. Use CheckConfidence
// to validate a level a user typed.
func checkConfidence(c float64) {
	if err := CheckConfidence(c); err != nil {
		panic("stats: " + err.Error())
	}
}

// CheckConfidence returns an error unless 0 < c < 1.
func CheckConfidence(c float64) error {
	if !(c > 0 && c < 1) {
		return fmt.Errorf("confidence level %v is not between 0 and 1 (exclusive)", c)
	}
	return nil
}

// zQuantile returns the two-sided standard normal critical value for
// confidence c (1.959964 for 0.95).
func zQuantile(c float64) float64 {
	return distuv.UnitNormal.Quantile(1 - (1-c)/2)
}

// Proportion is an observed proportion with its Wilson score interval.
type Proportion struct {
	// Successes and N are the counts: Successes of N trials.
	Successes, N int
	// P is Successes/N, NaN when N is 0.
	P float64
	// CI is the Wilson score interval at the level asked for; [0, 1] when
	// N is 0.
	CI Interval
}

// Wilson returns the proportion successes/n with its Wilson score interval
// at confidence level conf (0.95 for 95 %). It panics if conf is not
// strictly between 0 and 1 or the counts are impossible (negative, or more
// successes than trials).
//
// The interval is
//
//	(p + z²/2n ± z·sqrt(p(1−p)/n + z²/4n²)) / (1 + z²/n)
//
// with z the standard normal quantile at 1 − (1−conf)/2. Unlike the normal
// ("Wald") interval it stays inside [0, 1] and keeps its coverage near 0
// and 1, where win rates of patience games live.
func Wilson(successes, n int, conf float64) Proportion {
	checkConfidence(conf)
	if n < 0 || successes < 0 || successes > n {
		panic(fmt.Sprintf("stats: impossible proportion %d of %d", successes, n))
	}
	pr := Proportion{Successes: successes, N: n}
	if n == 0 {
		pr.P = math.NaN()
		pr.CI = Interval{0, 1}
		return pr
	}
	z := zQuantile(conf)
	nf := float64(n)
	p := float64(successes) / nf
	z2 := z * z
	den := 1 + z2/nf
	centre := (p + z2/(2*nf)) / den
	half := z * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf)) / den
	pr.P = p
	pr.CI = Interval{math.Max(0, centre-half), math.Min(1, centre+half)}
	// At 0 and n successes the ends are exactly 0 and 1; make rounding agree.
	if successes == 0 {
		pr.CI.Lo = 0
	}
	if successes == n {
		pr.CI.Hi = 1
	}
	return pr
}

// Mean is a sample mean with its Student t confidence interval.
type Mean struct {
	// N is the number of values.
	N int
	// Mean is the sample mean (NaN when N is 0).
	Mean float64
	// SD is the sample standard deviation with the n−1 denominator (NaN
	// when N < 2).
	SD float64
	// SE is the standard error SD/sqrt(N) (NaN when N < 2).
	SE float64
	// CI is Mean ± t·SE with t the Student t quantile at 1 − (1−conf)/2 on
	// N−1 degrees of freedom; both ends NaN when N < 2.
	CI Interval
}

// MeanCI returns the mean of xs with its two-sided Student t interval at
// confidence level conf (0.95 for 95 %). It panics if conf is not strictly
// between 0 and 1.
func MeanCI(xs []float64, conf float64) Mean {
	checkConfidence(conf)
	m := Mean{N: len(xs), Mean: math.NaN(), SD: math.NaN(), SE: math.NaN(), CI: Interval{math.NaN(), math.NaN()}}
	switch len(xs) {
	case 0:
		return m
	case 1:
		m.Mean = xs[0]
		return m
	}
	m.Mean, m.SD = stat.MeanStdDev(xs, nil)
	n := float64(len(xs))
	m.SE = m.SD / math.Sqrt(n)
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 1}.Quantile(1 - (1-conf)/2)
	m.CI = Interval{m.Mean - t*m.SE, m.Mean + t*m.SE}
	return m
}

// PairedT is a paired comparison of two measurements on the same units:
// the mean of the differences x−y with its t interval, and the two-sided
// p-value of the paired t test that the mean difference is 0.
type PairedT struct {
	// Diff is the mean difference x−y with its interval.
	Diff Mean
	// P is the two-sided p-value; 1 when every difference is 0, 0 when
	// every difference is the same non-zero number, NaN when N < 2.
	P float64
}

// PairedTTest compares x and y, which must have the same length (pairs by
// index), at confidence level conf. It returns an error if the lengths
// differ.
func PairedTTest(x, y []float64, conf float64) (PairedT, error) {
	if len(x) != len(y) {
		return PairedT{}, fmt.Errorf("paired t test: %d values against %d (pairs need equal lengths)", len(x), len(y))
	}
	d := make([]float64, len(x))
	for i := range x {
		d[i] = x[i] - y[i]
	}
	m := MeanCI(d, conf)
	res := PairedT{Diff: m, P: math.NaN()}
	switch {
	case m.N < 2:
	case m.SE == 0 && m.Mean == 0:
		res.P = 1
	case m.SE == 0:
		res.P = 0
	default:
		t := math.Abs(m.Mean / m.SE)
		res.P = math.Min(1, 2*distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(m.N - 1)}.Survival(t))
	}
	return res, nil
}

// McNemar is the exact McNemar test of paired binary outcomes.
type McNemar struct {
	// B counts the pairs where the first outcome is true and the second
	// false; C the pairs where the second is true and the first false.
	// Only these discordant pairs carry information.
	B, C int
	// P is the two-sided exact p-value: twice the smaller binomial tail of
	// B on B+C trials with probability 1/2, at most 1; 1 when B+C is 0.
	P float64
}

// McNemarExact returns the exact (binomial) McNemar test for b and c
// discordant pairs. It panics on negative counts.
//
// Under the null hypothesis that both outcomes are equally likely, each
// discordant pair falls either way with probability 1/2, so
// min(b, c) ~ Binomial(b+c, 1/2) and p = min(1, 2·P(X ≤ min(b, c))).
func McNemarExact(b, c int) McNemar {
	if b < 0 || c < 0 {
		panic(fmt.Sprintf("stats: negative discordant counts %d, %d", b, c))
	}
	res := McNemar{B: b, C: c, P: 1}
	n := b + c
	if n == 0 {
		return res
	}
	k := min(b, c)
	tail := distuv.Binomial{N: float64(n), P: 0.5}.CDF(float64(k))
	res.P = math.Min(1, 2*tail)
	return res
}

// McNemarPaired counts the discordant pairs of x and y (pairs by index)
// and returns the exact McNemar test. It returns an error if the lengths
// differ.
func McNemarPaired(x, y []bool) (McNemar, error) {
	if len(x) != len(y) {
		return McNemar{}, fmt.Errorf("McNemar test: %d outcomes against %d (pairs need equal lengths)", len(x), len(y))
	}
	var b, c int
	for i := range x {
		switch {
		case x[i] && !y[i]:
			b++
		case y[i] && !x[i]:
			c++
		}
	}
	return McNemarExact(b, c), nil
}
