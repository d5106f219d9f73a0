package env

import (
	"slices"
	"testing"
)

func TestMaskBasics(t *testing.T) {
	m := NewMask(130)
	if !m.Empty() || m.Count() != 0 || m.Next(0) != -1 || m.Nth(0) != -1 {
		t.Fatal("new mask not empty")
	}
	for _, a := range []int{0, 63, 64, 129} {
		m.Set(a)
	}
	if got := m.AppendActions(nil); !slices.Equal(got, []int{0, 63, 64, 129}) {
		t.Fatalf("actions = %v", got)
	}
	if m.Count() != 4 || !m.Has(63) || m.Has(62) || m.Has(-1) || m.Has(130) {
		t.Fatal("Has/Count wrong")
	}
	for k, want := range []int{0, 63, 64, 129, -1} {
		if got := m.Nth(k); got != want {
			t.Errorf("Nth(%d) = %d, want %d", k, got, want)
		}
	}
	if m.Next(1) != 63 || m.Next(64) != 64 || m.Next(65) != 129 || m.Next(130) != -1 {
		t.Error("Next wrong")
	}
	m.Unset(63)
	if m.Has(63) || m.Count() != 3 {
		t.Error("Unset failed")
	}
	if m.String() != "{0 64 129}" {
		t.Errorf("String = %q", m.String())
	}
}

func TestMaskSetRange(t *testing.T) {
	for _, tc := range []struct{ lo, k int }{{0, 0}, {0, 1}, {5, 64}, {60, 10}, {0, 130}, {64, 64}, {127, 3}} {
		m := NewMask(130)
		m.SetRange(tc.lo, tc.k)
		for a := range 130 {
			want := a >= tc.lo && a < tc.lo+tc.k
			if m.Has(a) != want {
				t.Fatalf("SetRange(%d,%d): Has(%d) = %v", tc.lo, tc.k, a, m.Has(a))
			}
		}
	}
}

func TestMaskPackedRoundTrip(t *testing.T) {
	m := NewMask(21)
	for _, a := range []int{0, 3, 8, 20} {
		m.Set(a)
	}
	p := m.AppendPacked(nil)
	// Least significant bit first: action 0 is bit 0 of byte 0, action 8 is
	// bit 0 of byte 1, action 20 is bit 4 of byte 2.
	if !slices.Equal(p, []byte{0b1001, 0b1, 0b10000}) {
		t.Fatalf("packed = %08b", p)
	}
	var back = NewMask(21)
	if !back.SetPacked(p) || !back.Equal(&m) {
		t.Fatal("SetPacked did not restore the mask")
	}
	if back.SetPacked([]byte{1, 2}) || back.SetPacked([]byte{0, 0, 0b100000}) {
		t.Error("SetPacked accepted a wrong length or a bit beyond the mask")
	}
}

func TestOneHot(t *testing.T) {
	s := &Spec{Segments: []Segment{
		{Name: "c", Offset: 0, Len: 2, Card: true, Max: 53},
		{Name: "n", Offset: 2, Len: 1, Max: 3},
	}}
	if s.OneHotLen() != 2*54+4 {
		t.Fatalf("OneHotLen = %d", s.OneHotLen())
	}
	dst := make([]float32, s.OneHotLen())
	s.OneHot([]uint8{0, 52, 2}, dst)
	var ones []int
	for i, v := range dst {
		if v == 1 {
			ones = append(ones, i)
		} else if v != 0 {
			t.Fatalf("dst[%d] = %v", i, v)
		}
	}
	if !slices.Equal(ones, []int{0, 54 + 52, 108 + 2}) {
		t.Errorf("ones at %v", ones)
	}
}

func TestMaskPackedMatchesBits(t *testing.T) {
	for _, n := range []int{1, 7, 8, 9, 63, 64, 65, 140, 1119} {
		m := NewMask(n)
		for a := 0; a < n; a += 3 {
			m.Set(a)
		}
		m.Set(n - 1)
		p := m.AppendPacked([]byte{9})
		if len(p) != 1+(n+7)/8 || p[0] != 9 {
			t.Fatalf("%d actions: %d bytes, prefix %d", n, len(p), p[0])
		}
		for a := range n {
			if bit := p[1+a/8]>>(a%8)&1 == 1; bit != m.Has(a) {
				t.Fatalf("%d actions: bit %d is %v, mask says %v", n, a, bit, m.Has(a))
			}
		}
	}
}
