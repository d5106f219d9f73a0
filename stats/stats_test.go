package stats

import (
	"math"
	"testing"
)

func near(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol
}

// Reference values of the Wilson interval at 95 %: the 3 of 50, and
// Newcombe (1998), "Two-sided confidence intervals for the single
// proportion", Statistics in Medicine 17:857–872, Table II, method 3.
func TestWilsonKnownValues(t *testing.T) {
	tests := []struct {
		k, n   int
		lo, hi float64
	}{
		{3, 50, 0.0206, 0.1622},
		{81, 263, 0.2553, 0.3662},
		{15, 148, 0.0624, 0.1605},
		{0, 20, 0, 0.1611},
		{1, 29, 0.0061, 0.1718},
	}
	for _, tt := range tests {
		got := Wilson(tt.k, tt.n, 0.95)
		if !near(got.CI.Lo, tt.lo, 5e-5) || !near(got.CI.Hi, tt.hi, 5e-5) {
			t.Errorf("Wilson(%d, %d) = %v, want [%.4f, %.4f]", tt.k, tt.n, got.CI, tt.lo, tt.hi)
		}
		if got.P != float64(tt.k)/float64(tt.n) {
			t.Errorf("Wilson(%d, %d).P = %v", tt.k, tt.n, got.P)
		}
	}
}

func TestWilsonEdges(t *testing.T) {
	z2 := 1.959963984540054 * 1.959963984540054
	// 0 of n: [0, z²/(n+z²)]; n of n: [n/(n+z²), 1].
	zero := Wilson(0, 10, 0.95)
	if zero.CI.Lo != 0 || !near(zero.CI.Hi, z2/(10+z2), 1e-9) || zero.P != 0 {
		t.Errorf("0 of 10: %+v", zero)
	}
	all := Wilson(10, 10, 0.95)
	if all.CI.Hi != 1 || !near(all.CI.Lo, 10/(10+z2), 1e-9) || all.P != 1 {
		t.Errorf("10 of 10: %+v", all)
	}
	one := Wilson(1, 1, 0.95)
	if one.CI.Hi != 1 || !near(one.CI.Lo, 0.2065, 5e-5) {
		t.Errorf("1 of 1: %+v", one)
	}
	none := Wilson(0, 0, 0.95)
	if !math.IsNaN(none.P) || none.CI != (Interval{0, 1}) {
		t.Errorf("0 of 0: %+v", none)
	}
	// A wider level gives a wider interval around the same point.
	a, b := Wilson(3, 50, 0.95), Wilson(3, 50, 0.99)
	if !(b.CI.Lo < a.CI.Lo && b.CI.Hi > a.CI.Hi) {
		t.Errorf("99 %% %v is not wider than 95 %% %v", b.CI, a.CI)
	}
}

func TestMeanCIKnownValues(t *testing.T) {
	// 1..5: mean 3, s = sqrt(2.5), t(0.975, 4) = 2.776445105.
	m := MeanCI([]float64{1, 2, 3, 4, 5}, 0.95)
	half := 2.776445105 * math.Sqrt(2.5) / math.Sqrt(5)
	if m.N != 5 || m.Mean != 3 || !near(m.SD, math.Sqrt(2.5), 1e-12) ||
		!near(m.CI.Lo, 3-half, 1e-6) || !near(m.CI.Hi, 3+half, 1e-6) {
		t.Errorf("1..5 at 95 %%: %+v, want 3 ± %.6f", m, half)
	}
	// At 99 %: t(0.995, 4) = 4.604094871.
	m = MeanCI([]float64{1, 2, 3, 4, 5}, 0.99)
	half = 4.604094871 * math.Sqrt(0.5)
	if !near(m.CI.Lo, 3-half, 1e-6) || !near(m.CI.Hi, 3+half, 1e-6) {
		t.Errorf("1..5 at 99 %%: %v, want 3 ± %.6f", m.CI, half)
	}
	// Two values 0 and 1: se 0.5, t(0.975, 1) = 12.70620474.
	m = MeanCI([]float64{0, 1}, 0.95)
	if !near(m.CI.Lo, 0.5-6.35310237, 1e-6) || !near(m.CI.Hi, 0.5+6.35310237, 1e-6) {
		t.Errorf("{0, 1}: %v", m.CI)
	}
}

func TestMeanCIEdges(t *testing.T) {
	m := MeanCI(nil, 0.95)
	if m.N != 0 || !math.IsNaN(m.Mean) || m.CI.Defined() {
		t.Errorf("no values: %+v", m)
	}
	m = MeanCI([]float64{0.25}, 0.95)
	if m.N != 1 || m.Mean != 0.25 || !math.IsNaN(m.SD) || m.CI.Defined() {
		t.Errorf("one value: %+v", m)
	}
	m = MeanCI([]float64{0.5, 0.5, 0.5}, 0.95)
	if m.Mean != 0.5 || m.SD != 0 || m.CI != (Interval{0.5, 0.5}) {
		t.Errorf("constant values: %+v", m)
	}
}

// Student's sleep data (Cushny and Peebles, as in R's datasets::sleep):
// t.test(extra ~ group, data = sleep, paired = TRUE) gives mean difference
// −1.58, t = −4.0621, df = 9, p = 0.002833, 95 % CI [−2.4598858, −0.7001142].
func TestPairedTTestSleep(t *testing.T) {
	g1 := []float64{0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0}
	g2 := []float64{1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4}
	r, err := PairedTTest(g1, g2, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	if !near(r.Diff.Mean, -1.58, 1e-12) || !near(r.Diff.CI.Lo, -2.4598858, 1e-6) ||
		!near(r.Diff.CI.Hi, -0.7001142, 1e-6) || !near(r.P, 0.002833, 5e-7) {
		t.Errorf("sleep: %+v, p %v", r.Diff, r.P)
	}
	// Differences 1..5: t = 3/sqrt(0.5), df 4, p = 0.0132356.
	r, _ = PairedTTest([]float64{2, 4, 6, 8, 10}, []float64{1, 2, 3, 4, 5}, 0.95)
	if !near(r.P, 0.0132356, 1e-6) {
		t.Errorf("1..5: p = %v", r.P)
	}
}

func TestPairedTTestEdges(t *testing.T) {
	if _, err := PairedTTest([]float64{1}, nil, 0.95); err == nil {
		t.Error("unequal lengths accepted")
	}
	r, _ := PairedTTest([]float64{1, 2, 3}, []float64{1, 2, 3}, 0.95)
	if r.P != 1 || r.Diff.Mean != 0 {
		t.Errorf("equal samples: %+v", r)
	}
	r, _ = PairedTTest([]float64{2, 3, 4}, []float64{1, 2, 3}, 0.95)
	if r.P != 0 || r.Diff.Mean != 1 {
		t.Errorf("constant shift: %+v", r)
	}
	r, _ = PairedTTest([]float64{2}, []float64{1}, 0.95)
	if !math.IsNaN(r.P) || r.Diff.Mean != 1 {
		t.Errorf("one pair: %+v", r)
	}
}

// Exact values 2·Σ_{i≤min(b,c)} C(b+c, i) / 2^(b+c), capped at 1, worked
// with integers.
func TestMcNemarExactKnownValues(t *testing.T) {
	tests := []struct {
		b, c int
		p    float64
	}{
		{10, 2, 0.03857421875}, // 2·79/4096
		{2, 10, 0.03857421875},
		{0, 5, 0.0625},   // 2/32
		{7, 0, 0.015625}, // 2/128
		{25, 10, 0.0166738478},
		{100, 60, 0.0019537280},
		{3, 3, 1},
		{1, 0, 1},
		{0, 0, 1}, // no discordant pairs: no evidence either way
	}
	for _, tt := range tests {
		got := McNemarExact(tt.b, tt.c)
		if !near(got.P, tt.p, 1e-9) || got.B != tt.b || got.C != tt.c {
			t.Errorf("McNemarExact(%d, %d) = %+v, want p %.10f", tt.b, tt.c, got, tt.p)
		}
	}
}

func TestMcNemarPaired(t *testing.T) {
	x := []bool{true, true, false, false, true, false}
	y := []bool{true, false, false, true, false, false}
	r, err := McNemarPaired(x, y)
	if err != nil {
		t.Fatal(err)
	}
	if r.B != 2 || r.C != 1 || r.P != 1 {
		t.Errorf("got %+v, want b 2, c 1, p 1", r)
	}
	if _, err := McNemarPaired(x, y[:2]); err == nil {
		t.Error("unequal lengths accepted")
	}
	r, _ = McNemarPaired([]bool{false, true}, []bool{false, true})
	if r.P != 1 || r.B+r.C != 0 {
		t.Errorf("concordant pairs: %+v", r)
	}
}

func TestCheckConfidence(t *testing.T) {
	for _, c := range []float64{0, 1, -0.5, 95, math.NaN()} {
		if CheckConfidence(c) == nil {
			t.Errorf("confidence %v accepted", c)
		}
	}
	if CheckConfidence(0.95) != nil {
		t.Error("0.95 refused")
	}
}

func TestIntervalHelpers(t *testing.T) {
	a, b := Interval{0, 1}, Interval{1, 2}
	if !a.Overlaps(b) || a.Overlaps(Interval{1.5, 2}) || !a.Contains(0.5) || a.Contains(2) {
		t.Error("Overlaps or Contains wrong")
	}
	if c := (Interval{-0.2, 1.3}).Clamp(0, 1); c != a {
		t.Errorf("Clamp = %v", c)
	}
	if c := (Interval{math.NaN(), 0.5}).Clamp(0, 1); !math.IsNaN(c.Lo) || c.Hi != 0.5 {
		t.Errorf("Clamp of an undefined end = %v", c)
	}
	if a.String() != "[0.0000, 1.0000]" {
		t.Errorf("String = %q", a.String())
	}
}
