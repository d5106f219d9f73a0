package cards

import (
	"strings"
	"testing"
)

func TestFoundations(t *testing.T) {
	var f Foundations
	as, ts := MustParse("AS"), MustParse("2S")
	if !f.Fits(as) || f.Fits(ts) {
		t.Fatal("an empty foundation must take an ace and only an ace")
	}
	if err := f.Why(ts); err == nil || !strings.Contains(err.Error(), "only an ace") {
		t.Errorf("Why(2♠) = %v", err)
	}
	f.Put(as)
	f.Put(ts)
	f.Put(as) // the second ace starts the second spade foundation
	if f[6] != 2 || f[7] != 1 || f.Count() != 3 {
		t.Fatalf("spades = %v, count %d", f[6:8], f.Count())
	}
	// The higher foundation of a suit stays first.
	f.Put(ts)
	f.Put(MustParse("3S"))
	f.Put(MustParse("3S"))
	f.Put(MustParse("4S"))
	if f[6] != 4 || f[7] != 3 {
		t.Fatalf("spades = %v, want 4 3", f[6:8])
	}
	if err := f.Why(as); err == nil || !strings.Contains(err.Error(), "both ♠ foundations") {
		t.Errorf("a third ace: %v", err)
	}
	if err := f.Why(MustParse("7S")); err == nil || !strings.Contains(err.Error(), "show 4 and 3") {
		t.Errorf("7♠: %v", err)
	}
	cards := f.AppendCards(nil)
	if len(cards) != 7 {
		t.Errorf("cards on foundations: %v", cards)
	}
	obs := make([]uint8, 8)
	f.Observe(obs)
	if Card(obs[6]) != MustParse("4S") || Card(obs[7]) != MustParse("3S") || obs[0] != 0 {
		t.Errorf("observed %v", obs)
	}
	var g Foundations
	g.Set(Spades, 3, 4) // in either order
	if g[6] != 4 || g[7] != 3 {
		t.Errorf("Set: %v", g[6:8])
	}
	if !strings.Contains(f.String(), "4♠") || !strings.Contains(f.String(), "--♣") {
		t.Errorf("String = %q", f.String())
	}
}

// TestPutKey: PutKey places the card as Put does and returns the change of
// the foundations' key.
func TestPutKey(t *testing.T) {
	keys := make([]uint64, 8*14)
	for i := range keys {
		keys[i] = uint64(i+1) * 0x9e3779b97f4a7c15
	}
	var f, g Foundations
	f.Set(Spades, 3, 2)
	g = f
	before := f.Key(keys)
	d := f.PutKey(MustParse("3S"), keys)
	g.Put(MustParse("3S"))
	if f != g || d != before^f.Key(keys) {
		t.Errorf("PutKey: %v, key change %x, want %v and %x", f.String(), d, g.String(), before^f.Key(keys))
	}
}
