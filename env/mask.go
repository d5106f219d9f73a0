package env

import (
	"encoding/binary"
	"math/bits"
	"strconv"
	"strings"
)

// Mask is a fixed-size set of action ids stored as a bitset: bit a of word
// a/64 is set when action a is legal. The zero value is an empty mask of size
// 0; make one with NewMask.
type Mask struct {
	words []uint64
	n     int
}

// NewMask returns an empty mask over the actions 0..n-1.
func NewMask(n int) Mask { return Mask{words: make([]uint64, (n+63)/64), n: n} }

// Len returns the number of actions the mask covers.
func (m *Mask) Len() int { return m.n }

// Words returns the underlying words (bit a%64 of word a/64 is action a). The
// slice aliases the mask.
func (m *Mask) Words() []uint64 { return m.words }

// Set marks action a legal. a must be in [0, Len()).
func (m *Mask) Set(a int) { m.words[a>>6] |= 1 << (uint(a) & 63) }

// Unset marks action a illegal.
func (m *Mask) Unset(a int) { m.words[a>>6] &^= 1 << (uint(a) & 63) }

// Has reports whether action a is legal; it is false for any a outside the
// mask.
func (m *Mask) Has(a int) bool {
	if a < 0 || a >= m.n {
		return false
	}
	return m.words[a>>6]&(1<<(uint(a)&63)) != 0
}

// Found marks action a legal and returns false; on a nil mask it only
// returns true. It lets a game write its search for legal actions once,
// for Legal (into a mask) and for AnyLegal (with nil, stopping at the
// first action found): `if m.Found(a) { return true }`.
func (m *Mask) Found(a int) bool {
	if m == nil {
		return true
	}
	m.Set(a)
	return false
}

// FoundRange is Found for the actions lo..lo+k-1, k > 0 (SetRange).
func (m *Mask) FoundRange(lo, k int) bool {
	if m == nil {
		return true
	}
	m.SetRange(lo, k)
	return false
}

// SetRange marks the actions lo..lo+k-1 legal.
func (m *Mask) SetRange(lo, k int) {
	for k > 0 {
		w, b := lo>>6, uint(lo)&63
		take := min(k, 64-int(b))
		var run uint64 = ^uint64(0)
		if take < 64 {
			run = (1<<uint(take) - 1)
		}
		m.words[w] |= run << b
		lo += take
		k -= take
	}
}

// Clear makes the mask empty.
func (m *Mask) Clear() { clear(m.words) }

// Count returns the number of legal actions.
func (m *Mask) Count() int {
	n := 0
	for _, w := range m.words {
		n += bits.OnesCount64(w)
	}
	return n
}

// Empty reports whether no action is legal.
func (m *Mask) Empty() bool {
	for _, w := range m.words {
		if w != 0 {
			return false
		}
	}
	return true
}

// Next returns the smallest legal action >= a, or -1 if there is none.
func (m *Mask) Next(a int) int {
	if a < 0 {
		a = 0
	}
	if a >= m.n {
		return -1
	}
	i := a >> 6
	w := m.words[i] &^ (1<<(uint(a)&63) - 1)
	for {
		if w != 0 {
			return i<<6 + bits.TrailingZeros64(w)
		}
		i++
		if i == len(m.words) {
			return -1
		}
		w = m.words[i]
	}
}

// Nth returns the k-th legal action in increasing order (k from 0), or -1 if
// there are not that many.
func (m *Mask) Nth(k int) int {
	if k < 0 {
		return -1
	}
	for i, w := range m.words {
		c := bits.OnesCount64(w)
		if k >= c {
			k -= c
			continue
		}
		for ; k > 0; k-- {
			w &= w - 1
		}
		return i<<6 + bits.TrailingZeros64(w)
	}
	return -1
}

// AppendActions appends the legal actions in increasing order to dst.
func (m *Mask) AppendActions(dst []int) []int {
	for i, w := range m.words {
		for w != 0 {
			dst = append(dst, i<<6+bits.TrailingZeros64(w))
			w &= w - 1
		}
	}
	return dst
}

// CopyFrom makes m equal to src, reusing m's storage when it is large enough.
func (m *Mask) CopyFrom(src *Mask) {
	if cap(m.words) < len(src.words) {
		m.words = make([]uint64, len(src.words))
	}
	m.words = m.words[:len(src.words)]
	copy(m.words, src.words)
	m.n = src.n
}

// Equal reports whether both masks cover the same actions and the same ones
// are legal.
func (m *Mask) Equal(o *Mask) bool {
	if m.n != o.n {
		return false
	}
	for i, w := range m.words {
		if o.words[i] != w {
			return false
		}
	}
	return true
}

// PackedLen returns the number of bytes of the packed form: ceil(Len()/8).
func (m *Mask) PackedLen() int { return (m.n + 7) / 8 }

// AppendPacked appends the mask as PackedLen() bytes, least significant bit
// first: action a is bit a%8 of byte a/8. It writes eight bytes at a time.
func (m *Mask) AppendPacked(dst []byte) []byte {
	off := len(dst)
	for _, w := range m.words {
		dst = binary.LittleEndian.AppendUint64(dst, w)
	}
	return dst[:off+m.PackedLen()]
}

// PutPacked writes the mask's packed form (see AppendPacked) into dst,
// which must hold exactly PackedLen() bytes. It allocates nothing.
func (m *Mask) PutPacked(dst []byte) {
	_ = dst[m.PackedLen()-1]
	for w, x := range m.words {
		if b := w * 8; b+8 <= len(dst) {
			binary.LittleEndian.PutUint64(dst[b:], x)
		} else {
			for ; b < len(dst); b++ {
				dst[b] = byte(x)
				x >>= 8
			}
		}
	}
}

// SetPacked sets the mask from its packed form (see AppendPacked). It reports
// false, leaving the mask unchanged, if p has the wrong length or sets a bit
// beyond Len().
func (m *Mask) SetPacked(p []byte) bool {
	if len(p) != m.PackedLen() {
		return false
	}
	if r := m.n & 7; r != 0 && p[len(p)-1]>>uint(r) != 0 {
		return false
	}
	clear(m.words)
	for b, v := range p {
		m.words[b>>3] |= uint64(v) << (uint(b&7) * 8)
	}
	return true
}

// String lists the legal action ids, as "{3 17 40}".
func (m *Mask) String() string {
	var sb strings.Builder
	sb.WriteByte('{')
	for i, a := range m.AppendActions(nil) {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(strconv.Itoa(a))
	}
	sb.WriteByte('}')
	return sb.String()
}
