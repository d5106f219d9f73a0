package cromwell

import (
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	rules "github.com/patience-gym/patience/env/cromwell"
	"github.com/patience-gym/patience/env/envtest"
)

// cs parses a list of cards.
func cs(s string) []cards.Card { return cards.MustParseList(s) }

// newPos returns an empty position (a game not dealt yet).
func newPos() *Position { return New(rules.New()) }

// dealt returns the position of deal seed, nothing noted yet.
func dealt(seed uint64) *Position {
	g := rules.New()
	g.Deal(seed)
	return New(g)
}

// deal501543AtStart returns the position of deal 501,543, whose one
// allowed swap exchanges the two cards of a pair (and is hooked), after
// DeadAtStart, noted as in a copy: a memo of the king-lock test and no pin
// test, which proves the deal lost.
func deal501543AtStart(t *testing.T) *Position {
	t.Helper()
	g := dealt(501543)
	g.lockMemo = new(lockMemo)
	if g.DeadAtStart() || g.allow == nil {
		t.Fatal("deal 501,543 is no longer open with its one allowed swap")
	}
	return g
}

// position returns a position of fans given as card lists, deepest first.
func position(fans ...string) *Position {
	var fs [][]cards.Card
	for _, f := range fans {
		fs = append(fs, cs(f))
	}
	g := rules.New()
	g.SetFans(fs...)
	return New(g)
}

// legal returns the names of the legal actions of g other than swap picks.
func legal(g env.Game) []string {
	m := env.NewMask(rules.NumActions)
	g.Legal(&m)
	var out []string
	for _, a := range m.AppendActions(nil) {
		if a < rules.ActSwap {
			out = append(out, rules.ActionName(a))
		}
	}
	return out
}

// mustParse returns the action a person's move s names.
func mustParse(t *testing.T, g env.Game, s string) int { return envtest.Action(t, g, s) }

// fullHash returns the hash of g's position computed afresh, outside a
// swap under way: a rules game laid out like g, with the hook's key while
// the hook is on.
func fullHash(g *Position) uint64 {
	var fans [][]cards.Card
	for f := range rules.NumFans {
		fans = append(fans, g.Fan(f))
	}
	r := rules.New()
	r.SetFans(fans...)
	found := g.Foundations()
	for s := range cards.NumSuits {
		r.SetFoundation(cards.Suit(s), cards.Rank(found[2*s]), cards.Rank(found[2*s+1]))
	}
	r.SetSwapUsed(g.Stage() == rules.SwapDone)
	h := r.Hash()
	if g.hook.on {
		h ^= hookKey
	}
	return h
}
