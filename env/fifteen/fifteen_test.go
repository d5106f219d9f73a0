package fifteen

import (
	"slices"
	"strings"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/env/envtest"
)

func cs(s string) []cards.Card { return cards.MustParseList(s) }

// position builds a game from columns given as card lists, first-dealt
// (top of the picture) first; "" is an empty column.
func position(cols ...string) *Game {
	g := New()
	g.SetColumns(envtest.CardLists(cols...)...)
	return g
}

// filled builds a game from the given columns and fills the other columns
// with single cards of ranks 3..J that marry nothing, so that no lane is free
// and the filler cannot move unless a pile reaches it.
func filled(cols ...string) *Game {
	var cl [][]cards.Card
	var used [cards.NumCodes + 1]bool
	for _, c := range cols {
		col := cs(c)
		cl = append(cl, col)
		if len(col) > 0 {
			used[col[len(col)-1]] = true
		}
	}
	for x := cards.Card(1); x <= 52 && len(cl) < NumCols; x++ {
		r := x.Rank()
		if r < 3 || r > cards.Jack || used[x-1] || used[x+1] {
			continue
		}
		cl = append(cl, []cards.Card{x})
		used[x] = true
	}
	g := New()
	g.SetColumns(cl...)
	return g
}

// legal returns the names of the legal actions.
func legal(g *Game) []string { return envtest.Legal(g) }

func mustParse(t *testing.T, g *Game, s string) int { return envtest.Action(t, g, s) }

// play plays the named moves, which the rules and the mask must accept.
func play(t *testing.T, g *Game, moves ...string) { envtest.Play(t, g, moves...) }

func wantColumn(t *testing.T, g *Game, c int, want string) {
	t.Helper()
	if got := g.Column(c - 1); !slices.Equal(got, cs(want)) {
		t.Errorf("column %d = %v, want %v", c, got, cs(want))
	}
}

func TestChecker(t *testing.T) {
	envtest.Check(t, "fifteen")
}

// TestGoldenDeal pins the columns of deals 0 and 1.
func TestGoldenDeal(t *testing.T) {
	golden := []struct {
		seed           uint64
		first, fifteen string
		lowest         string // the available card of each column
	}{
		{0, "3D KD AC QS 8D 4H 4H", "JH 2C AC 7D 3S 9S",
			"4H 6S 4C AD 7S 10H AS 8H 10S 9S KC 5S QD 10H 9S"},
		{1, "6H QS 8D 10D 5C QH QD", "AH 9C JS 2C QS KH",
			"QD 3H 8S QC 3D 8D 10D KD JD 10C JD AC 4H 7S KH"},
	}
	for _, gd := range golden {
		g := New()
		g.Deal(gd.seed)
		if got := g.Column(0); !slices.Equal(got, cs(gd.first)) {
			t.Errorf("deal %d column 1 = %v, want %v", gd.seed, got, cs(gd.first))
		}
		if got := g.Column(14); !slices.Equal(got, cs(gd.fifteen)) {
			t.Errorf("deal %d column 15 = %v, want %v", gd.seed, got, cs(gd.fifteen))
		}
		for c, want := range cs(gd.lowest) {
			col := g.Column(c)
			if col[len(col)-1] != want {
				t.Errorf("deal %d column %d lowest card %v, want %v", gd.seed, c+1, col[len(col)-1], want)
			}
		}
	}
}

// Rule 1: all 104 cards face up in rows of 15: fourteen columns of 7 and one
// of 6; no stock, nothing moves by itself at the deal.
func TestRule1Deal(t *testing.T) {
	for _, seed := range []uint64{1, 7} { // deal 1 has a king available at once
		g := New()
		g.Deal(seed)
		d := cards.Deal(seed)
		total := 0
		for c := range NumCols {
			col := g.Column(c)
			want := 7
			if c == 14 {
				want = 6
			}
			if len(col) != want {
				t.Fatalf("deal %d column %d has %d cards, want %d", seed, c+1, len(col), want)
			}
			for k, x := range col {
				if x != d[k*NumCols+c] {
					t.Errorf("deal %d column %d card %d = %v, want deck card %d", seed, c+1, k+1, x, k*NumCols+c)
				}
			}
			total += len(col)
		}
		if total != 104 || g.Progress() != 0 || g.EmergencyUsed() {
			t.Errorf("deal %d: %d cards dealt, progress %d, emergency used %v", seed, total, g.Progress(), g.EmergencyUsed())
		}
	}
}

// Rule 2: only the lowest card of a column is available; cards move one at
// a time.
func TestRule2OnlyLowestAvailable(t *testing.T) {
	// The aces and the 8♥ are covered: nothing can move.
	g := filled("AS 7H", "8H 7C", "KD 5S")
	g.SetEmergencyUsed(true)
	if got := legal(g); len(got) != 0 {
		t.Errorf("legal = %v, want nothing", got)
	}
	// A run does not move as a whole: only its lowest card goes.
	g = filled("9H 8H 7H", "6H")
	if got := legal(g); !slices.Equal(got, []string{"1>2", "2>1"}) {
		t.Errorf("legal = %v, want 1>2 and 2>1", got)
	}
	play(t, g, "1>2")
	wantColumn(t, g, 1, "9H 8H")
	wantColumn(t, g, 2, "6H 7H")
}

// Rule 3: per suit an up pile from the ace and a down pile from the king; a
// suit's second ace ends its down pile, its second king its up pile. A card
// fitting both piles gives two moves [chosen: two actions].
func TestRule3Foundations(t *testing.T) {
	g := position("AS", "KS", "2S", "QH")
	g.SetEmergencyUsed(true)
	got := legal(g)
	for _, want := range []string{"1>U", "2>D"} {
		if !slices.Contains(got, want) {
			t.Errorf("legal = %v, missing %s", got, want)
		}
	}
	for _, bad := range []string{"1>D", "2>U", "3>U", "3>D", "4>U", "4>D"} {
		if err := g.Explain(mustParse(t, g, bad)); err == nil {
			t.Errorf("%s accepted on empty piles", bad)
		}
	}
	play(t, g, "1>U", "2>D", "3>U")
	if g.Up(cards.Spades) != 2 || g.Down(cards.Spades) != cards.King || g.Progress() != 3 {
		t.Fatalf("spade piles %v %v, progress %d", g.Up(cards.Spades), g.Down(cards.Spades), g.Progress())
	}

	// A 7 between an up pile at 6 and a down pile at 8 fits both: two moves.
	g = position("7H")
	g.SetEmergencyUsed(true)
	g.SetFoundation(cards.Hearts, 6, 8)
	if got := legal(g); !slices.Equal(got, []string{"1>U", "1>D"}) {
		t.Fatalf("legal = %v, want 1>U and 1>D", got)
	}
	up := g.Clone().(*Game)
	play(t, up, "1>U")
	if up.Up(cards.Hearts) != 7 || up.Down(cards.Hearts) != 8 {
		t.Errorf("1>U: piles %v %v", up.Up(cards.Hearts), up.Down(cards.Hearts))
	}
	play(t, g, "1>D")
	if g.Up(cards.Hearts) != 6 || g.Down(cards.Hearts) != 7 {
		t.Errorf("1>D: piles %v %v", g.Up(cards.Hearts), g.Down(cards.Hearts))
	}

	// The second ace ends the down pile; the second king ends the up pile.
	g = position("AC", "KC", "5C")
	g.SetEmergencyUsed(true)
	g.SetFoundation(cards.Clubs, cards.Queen, 2)
	if got := legal(g); !slices.Equal(got, []string{"2>U", "1>D"}) {
		t.Fatalf("legal = %v, want 2>U and 1>D", got)
	}
	play(t, g, "1>D", "2>U")
	if g.Up(cards.Clubs) != cards.King || g.Down(cards.Clubs) != cards.Ace {
		t.Errorf("club piles %v %v, want K and A", g.Up(cards.Clubs), g.Down(cards.Clubs))
	}
	for _, bad := range []string{"3>U", "3>D"} {
		if err := g.Explain(mustParse(t, g, bad)); err == nil {
			t.Errorf("%s accepted on finished piles", bad)
		}
	}
	obs := make([]uint8, ObsLen)
	g.Observe(obs)
	if obs[ObsFoundations] != uint8(cards.MustParse("KC")) || obs[ObsFoundations+1] != uint8(cards.MustParse("AC")) {
		t.Errorf("club piles observed as %v %v", obs[ObsFoundations], obs[ObsFoundations+1])
	}
}

// Rule 4: marriage onto another available card of the same suit, one rank
// higher or lower; piles may change direction.
func TestRule4Marriage(t *testing.T) {
	tests := []struct {
		src, dst string
		ok       bool
	}{
		{"7H", "8H", true},
		{"7H", "6H", true},
		{"KS", "QS", true},
		{"AS", "2S", true},
		{"7H", "8D", false}, // same colour, other suit
		{"7H", "8S", false},
		{"7H", "9H", false},
		{"7H", "7H", false},
		{"KS", "AS", false}, // no wrap-around
		{"7H", "8H 2C", false},
	}
	for _, tc := range tests {
		g := position("3C "+tc.src, tc.dst)
		g.SetEmergencyUsed(true)
		err := g.Explain(mustParse(t, g, "1>2"))
		if (err == nil) != tc.ok {
			t.Errorf("%s on %s: legal=%v, want %v (%v)", tc.src, tc.dst, err == nil, tc.ok, err)
		}
	}
	// 7♥ on 8♥, then the other 8♥ on that 7♥.
	g := position("8H", "2C 7H", "3C 8H")
	g.SetEmergencyUsed(true)
	play(t, g, "2>1", "3>1")
	wantColumn(t, g, 1, "8H 7H 8H")
	wantColumn(t, g, 2, "2C")
	wantColumn(t, g, 3, "3C")
}

// Rule 5: an emptied column takes any available card and is married onto
// afterwards; a run goes into a lane reversed. [chosen] A card alone in its
// column does not move into an empty lane (it would only trade lanes), and
// of several empty lanes only the first is offered (they are alike).
func TestRule5Lanes(t *testing.T) {
	g := position("", "2C 9D 8D 7D", "5S", "")
	g.SetEmergencyUsed(true)
	got := legal(g)
	if !slices.Contains(got, "2>1") {
		t.Errorf("legal = %v, missing 2>1", got)
	}
	if err := g.Explain(mustParse(t, g, "2>4")); err == nil || !strings.Contains(err.Error(), "first of them, column 1") {
		t.Errorf("2>4 with column 1 empty too: %v", err)
	}
	for _, bad := range []string{"3>1", "3>4", "2>4"} {
		if slices.Contains(got, bad) {
			t.Errorf("legal = %v, has %s: a lone card moved to a lane", got, bad)
		}
	}
	play(t, g, "2>1", "2>1", "2>1")
	wantColumn(t, g, 1, "7D 8D 9D")
	wantColumn(t, g, 2, "2C")
	// Now alone, the 2♣ no longer goes into the other lane.
	if err := g.Explain(mustParse(t, g, "2>4")); err == nil {
		t.Error("the lone 2♣ moved into a lane")
	}
}

// Rule 6: the emergency rule, once per game, only while no foundation is
// begun and no ace or king is available: the sixth card of one column if an
// ace and/or of another if a king go home; the cards below move up.
// [chosen] Any of ace, king or both may be taken; the sixth row is index 5
// of the column as it lies now.
func TestRule6Emergency(t *testing.T) {
	base := func() *Game {
		return position(
			"2C 3C 4C 5C 6C AH 7C",
			"2D 3D 4D 5D 6D KS 7D 9C 10C",
			"2S 3S 4S 5S 6S AD 8S",
			"2H 3H 4H 5H 6H",
		)
	}
	g := base()
	got := legal(g)
	var em []string
	for _, name := range got {
		if strings.HasPrefix(name, "emergency") {
			em = append(em, name)
		}
	}
	want := []string{"emergency K2", "emergency A1", "emergency A1 K2", "emergency A3", "emergency A3 K2"}
	if !slices.Equal(em, want) {
		t.Fatalf("emergency moves = %v, want %v", em, want)
	}
	for _, bad := range []string{"emergency A2", "emergency K1", "emergency A4", "emergency", "emergency A1 K1"} {
		if err := g.Explain(mustParse(t, g, bad)); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}

	play(t, g, "emergency A1 K2")
	wantColumn(t, g, 1, "2C 3C 4C 5C 6C 7C")
	wantColumn(t, g, 2, "2D 3D 4D 5D 6D 7D 9C 10C")
	if g.Up(cards.Hearts) != cards.Ace || g.Down(cards.Spades) != cards.King || g.Progress() != 2 || !g.EmergencyUsed() {
		t.Errorf("after the emergency: up♥ %v down♠ %v progress %d used %v", g.Up(cards.Hearts), g.Down(cards.Spades), g.Progress(), g.EmergencyUsed())
	}
	if g.Hash() != g.fullHash() {
		t.Error("incremental hash differs after the emergency")
	}
	obs := make([]uint8, ObsLen)
	g.Observe(obs)
	if obs[ObsEmergency] != 1 {
		t.Error("emergency not shown as used")
	}

	// Only the ace.
	g = base()
	play(t, g, "emergency A3")
	wantColumn(t, g, 3, "2S 3S 4S 5S 6S 8S")
	if g.Up(cards.Diamonds) != cards.Ace || g.Progress() != 1 {
		t.Errorf("up♦ %v progress %d", g.Up(cards.Diamonds), g.Progress())
	}

	// Once per game.
	g = base()
	g.SetEmergencyUsed(true)
	if err := g.Explain(mustParse(t, g, "emergency A1")); err == nil {
		t.Error("the emergency rule used twice")
	}
	// Not once a foundation is begun.
	g = base()
	g.SetFoundation(cards.Clubs, cards.Ace, 0)
	if err := g.Explain(mustParse(t, g, "emergency A1")); err == nil {
		t.Error("the emergency rule offered after a foundation was begun")
	}
	// Not while an ace or a king is available.
	for _, avail := range []string{"KC", "AH"} {
		g = position("2C 3C 4C 5C 6C AH 7C", avail)
		if err := g.Explain(mustParse(t, g, "emergency A1")); err == nil {
			t.Errorf("the emergency rule offered with %s available", avail)
		}
	}
	// The sixth row counts as the column lies now: a column of 10 cards.
	g = position("2C 3C 4C 5C 6C KH 7C 8C 9C 10C")
	play(t, g, "emergency K1")
	wantColumn(t, g, 1, "2C 3C 4C 5C 6C 7C 8C 9C 10C")
	if g.Down(cards.Hearts) != cards.King {
		t.Errorf("down♥ %v", g.Down(cards.Hearts))
	}
}

// Rule 7: won with all cards home; lost with no move, the unused emergency
// rule counting as a move while it applies.
func TestRule7WinAndLoss(t *testing.T) {
	g := New()
	g.SetColumns(cs("KC"), cs("AC"), cs("KD"), cs("AD"), cs("KH"), cs("AH"), cs("KS"), cs("AS"))
	for s := cards.Suit(0); s < cards.NumSuits; s++ {
		g.SetFoundation(s, cards.Queen, 2)
	}
	if g.Progress() != 96 {
		t.Fatalf("progress %d, want 96", g.Progress())
	}
	// The even columns' kings to the up piles, the odd ones' aces to the down piles.
	envtest.PlayToWin(t, g, ActUp, ActDown+1, ActUp+2, ActDown+3, ActUp+4, ActDown+5, ActUp+6, ActDown+7)

	// Only the emergency rule can move: not lost; once it is used: lost.
	g2 := filled("2C 3C 4C 5C 6C AH 9D")
	if got := legal(g2); !slices.Equal(got, []string{"emergency A1"}) {
		t.Fatalf("legal = %v, want the emergency rule only", got)
	}
	play(t, g2, "emergency A1")
	envtest.CheckLost(t, g2)
}

// TestMaxHeightReachable builds a column of MaxHeight cards by marriages:
// six cards over an ace, then the 24-card walk 2..K..2,A of its suit.
func TestMaxHeightReachable(t *testing.T) {
	walk := "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H AH"
	feed := cs(walk)
	slices.Reverse(feed) // the first card to move is the lowest
	g := New()
	g.SetColumns(cs("2C 3C 4C 5C 6C 7C AH"), feed)
	g.SetEmergencyUsed(true)
	for range len(feed) {
		play(t, g, "2>1")
	}
	if n := len(g.Column(0)); n != MaxHeight {
		t.Fatalf("column 1 has %d cards, want %d", n, MaxHeight)
	}
	obs := make([]uint8, ObsLen)
	g.Observe(obs)
	if obs[ObsColumns+MaxHeight-1] != uint8(cards.MustParse("AH")) {
		t.Errorf("the 31st card is observed as %d", obs[ObsColumns+MaxHeight-1])
	}
}

func TestHashIncrementalMatchesFull(t *testing.T) {
	envtest.CheckHash(t, "fifteen", 200, (*Game).fullHash)
}

func TestNamesRoundTrip(t *testing.T) {
	g := New()
	// The round trip of every id is in the checker.
	same := map[string]string{
		"3 > u": "3>U", "3>up": "3>U", "3>DOWN": "3>D", " 4 > 12 ": "4>12",
		"Emergency k7 a3": "emergency A3 K7", "EMERGENCY K15": "emergency K15",
	}
	for in, want := range same {
		if got := mustParse(t, g, in); ActionName(got) != want {
			t.Errorf("%q parses to %s, want %s", in, ActionName(got), want)
		}
	}
	for _, bad := range []string{"", "3", "0>U", "16>U", "3>16", "3>0", "3>X", "x>y", "3>F",
		"emergency A0", "emergency A16", "emergency A3 A4", "emergency K1 K2", "emergency B3",
		"emergency A3 K4 K5", "emergency A", "emergency 3"} {
		if _, err := g.ParseActions(bad); err == nil {
			t.Errorf("ParseActions(%q) accepted", bad)
		}
	}
}

func TestRenderShowsCards(t *testing.T) {
	g := position("KS 2H 10D", "", "7C")
	g.SetFoundation(cards.Hearts, cards.Ace, cards.King)
	out := g.Render()
	for _, want := range []string{"K♠", "2♥", "10♦", "7♣", "A♥", "K♥", "Emergency rule: unused", "Home: 2/104", " 15"} {
		if !strings.Contains(out, want) {
			t.Errorf("render lacks %q:\n%s", want, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if n := len([]rune(line)); n >= 100 {
			t.Errorf("line of %d characters: %q", n, line)
		}
	}
}

func TestEvaluate(t *testing.T) {
	// A card that can go home, a lane and a marriage all score.
	plain := position("3C 9D", "5S")
	better := position("3C AD", "")
	if plain.Evaluate() >= better.Evaluate() {
		t.Errorf("evaluate %v for no prospects, %v with an ace out and a lane", plain.Evaluate(), better.Evaluate())
	}
	married := position("3C 9D", "8D")
	if married.Evaluate() <= plain.Evaluate() {
		t.Errorf("a possible marriage does not score: %v vs %v", married.Evaluate(), plain.Evaluate())
	}
	if a := testing.AllocsPerRun(100, func() { better.Evaluate() }); a != 0 {
		t.Errorf("Evaluate allocates %v times", a)
	}
}

func BenchmarkStep(b *testing.B) { envtest.BenchmarkStep(b, "fifteen") }

func FuzzPlay(f *testing.F)      { envtest.FuzzPlay(f, "fifteen") }
func FuzzMoveNames(f *testing.F) { envtest.FuzzMoveNames(f, "fifteen") }

// countedEvaluate is Evaluate as its documentation states it, every pair
// of card codes counted: the reference Evaluate, which counts the pairs
// from the available cards alone, must agree with exactly.
func (g *Game) countedEvaluate() float64 {
	score := float64(g.home)
	if g.home == cards.DeckSize {
		return score
	}
	var onTop [cards.NumCodes + 1]int
	for c := range NumCols {
		n := g.n[c]
		if n == 0 {
			score += 1.5
			continue
		}
		x := g.cols[c][n-1]
		onTop[x]++
		if s, r := x.Suit(), uint8(x.Rank()); r == upNext(g.up[s]) || r == downNext(g.down[s]) {
			score += 0.5
		}
	}
	pairs := 0
	for x := cards.Card(1); x < 52; x++ {
		if x.Rank() < cards.King {
			pairs += onTop[x] * onTop[x+1]
		}
	}
	return score + 0.5*float64(pairs)
}

// TestEvaluateAgreesWithCountedPairs: on the positions of random play
// through many deals, Evaluate gives exactly the score of its reference.
func TestEvaluateAgreesWithCountedPairs(t *testing.T) {
	g := New()
	m := env.NewMask(NumActions)
	rng := cards.NewRand(7)
	for seed := range uint64(200) {
		g.Deal(seed)
		for step := 0; step < 300 && !g.Won(); step++ {
			if got, want := g.Evaluate(), g.countedEvaluate(); got != want {
				t.Fatalf("deal %d, step %d: Evaluate %v, counted %v", seed, step, got, want)
			}
			g.Legal(&m)
			if m.Empty() {
				break
			}
			g.Apply(m.Nth(rng.IntN(m.Count())))
		}
	}
}
