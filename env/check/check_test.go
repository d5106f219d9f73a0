package check_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/env/check"
	"github.com/patience-gym/patience/env/cromwell"
)

// The checker must catch broken games: each wrapper below breaks one
// promise of a correct game (Cromwell) and the check must say which.

type flaw int

const (
	dropsLegalMove flaw = iota
	losesCard
	badName
	badTerms
)

type broken struct {
	*cromwell.Game
	flaw flaw
	spec *env.Spec
}

func (g *broken) Spec() *env.Spec { return g.spec }
func (g *broken) Clone() env.Game {
	return &broken{Game: g.Game.Clone().(*cromwell.Game), flaw: g.flaw, spec: g.spec}
}
func (g *broken) CopyFrom(src env.Game) { g.Game.CopyFrom(src.(*broken).Game) }

func (g *broken) Legal(m *env.Mask) {
	g.Game.Legal(m)
	if g.flaw == dropsLegalMove {
		if a := m.Next(cromwell.ActMove); a >= 0 && a < cromwell.ActSwapBegin {
			m.Unset(a) // a fan-to-fan move the rules allow goes missing
		}
	}
}

func (g *broken) Inventory(dst []cards.Card) []cards.Card {
	dst = g.Game.Inventory(dst)
	if g.flaw == losesCard && g.Progress() > 0 {
		dst = dst[:len(dst)-1]
	}
	return dst
}

func (g *broken) ActionString(a int) string {
	if g.flaw == badName && a == 5 {
		return "5>F" // the name of action 4: two ids share a name
	}
	return g.Game.ActionString(a)
}

func (g *broken) Terms(dst []float64) {
	g.Game.Terms(dst)
	if g.flaw == badTerms {
		dst[cromwell.TermPairs]++ // one pair more than Evaluate counts
	}
}

func register(name string, f flaw) {
	spec := *cromwell.Spec()
	spec.Name = name
	env.Register(&spec, func() env.Game { return &broken{Game: cromwell.New(), flaw: f, spec: &spec} })
}

func init() {
	register("dropslegalmove", dropsLegalMove)
	register("losescard", losesCard)
	register("badname", badName)
	register("badterms", badTerms)
}

func TestCheckerCatchesBrokenGames(t *testing.T) {
	tests := []struct {
		game string
		want string
	}{
		{"dropslegalmove", "in mask false, rules check says <nil>"},
		{"losescard", "inventory has 103 cards"},
		{"badname", "action 5 is named \"5>F\""},
		{"badterms", "the weighted evaluation terms sum to"},
	}
	for _, tc := range tests {
		rep, err := check.Run(context.Background(), tc.game, check.Options{Games: 20, MaxFailures: 3})
		if err != nil {
			t.Fatal(err)
		}
		if rep.OK() || !strings.Contains(rep.Err().Error(), tc.want) {
			t.Errorf("%s: report %v, want a failure saying %q", tc.game, rep.Err(), tc.want)
		}
	}
}

func TestCheckerPassesACorrectGame(t *testing.T) {
	rep, err := check.Run(context.Background(), "cromwell", check.Options{Games: 5})
	if err != nil || !rep.OK() || rep.Games != 5 || rep.Steps == 0 {
		t.Fatalf("report %v, err %v", rep, err)
	}
	if _, err := check.Run(context.Background(), "nosuchgame", check.Options{}); err == nil {
		t.Error("an unknown game was checked")
	}
}

// TestWorkersMergeToTheSameReport checks that splitting the deals among
// workers gives the report one worker gives, and that a cancel stops the
// check.
func TestWorkersMergeToTheSameReport(t *testing.T) {
	one, err := check.Run(context.Background(), "cromwell", check.Options{Games: 30, SeedStart: 7})
	if err != nil {
		t.Fatal(err)
	}
	var calls []int
	three, err := check.Run(context.Background(), "cromwell", check.Options{Games: 30, SeedStart: 7, Workers: 3,
		Progress: func(done int) { calls = append(calls, done) }})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(one, three) {
		t.Errorf("one worker %+v, three %+v", one, three)
	}
	if len(calls) != 30 || calls[29] != 30 {
		t.Errorf("progress calls %v", calls)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := check.Run(ctx, "cromwell", check.Options{Games: 30, Workers: 2}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled check: %v", err)
	}
}
