package env_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
)

// toy is a tiny game for testing the Env: 104 cards go home one action at a
// time; action 0 sends a card home, action 1 (legal while home is even) does
// nothing, action 2 is never legal. From the deal "seed", seed%2 == 1 means
// no move at all.
type toy struct {
	home int
	dead bool
}

var toySpec = &env.Spec{
	Name: "toy", Title: "Toy", Summary: "test game", RulesVersion: 1, Actions: 3,
	ActionRanges: []env.ActionRange{{First: 0, Last: 2, Meaning: "home, wait, never"}},
	ObsLen:       2,
	Segments:     []env.Segment{{Name: "home", Offset: 0, Len: 2, Max: 104}},
	MaxSteps:     500, Cards: 104,
}

func init() { env.Register(toySpec, func() env.Game { return &toy{} }) }

func (g *toy) Spec() *env.Spec  { return toySpec }
func (g *toy) Deal(seed uint64) { *g = toy{dead: seed%2 == 1} }
func (g *toy) Legal(m *env.Mask) {
	m.Clear()
	if g.dead || g.home == 104 {
		return
	}
	m.Set(0)
	if g.home%2 == 0 {
		m.Set(1)
	}
}
func (g *toy) Explain(a int) error {
	if a == 0 && !g.dead && g.home < 104 || a == 1 && !g.dead && g.home < 104 && g.home%2 == 0 {
		return nil
	}
	return errors.New("not now")
}
func (g *toy) Apply(a int) {
	if a == 0 {
		g.home++
	}
}
func (g *toy) Progress() int                           { return g.home }
func (g *toy) Won() bool                               { return g.home == 104 }
func (g *toy) Class() string                           { return "" }
func (g *toy) Evaluate() float64                       { return float64(g.home) }
func (g *toy) Observe(dst []uint8)                     { dst[0], dst[1] = uint8(g.home), 0 }
func (g *toy) Inventory(dst []cards.Card) []cards.Card { return dst }
func (g *toy) Hash() uint64                            { return uint64(g.home) }
func (g *toy) Clone() env.Game                         { c := *g; return &c }
func (g *toy) CopyFrom(src env.Game)                   { *g = *src.(*toy) }
func (g *toy) Determinize(*cards.Rand)                 {}
func (g *toy) ActionString(a int) string               { return [...]string{"home", "wait", "never"}[a] }
func (g *toy) ParseActions(s string) ([]int, error)    { return nil, errors.New("no names") }
func (g *toy) Render() string                          { return "toy" }

func TestMakeUnknownGameListsKnown(t *testing.T) {
	_, err := env.Make("solitaire", env.Options{})
	if err == nil || !strings.Contains(err.Error(), "toy") || !strings.Contains(err.Error(), "solitaire") {
		t.Fatalf("err = %v", err)
	}
	if _, err := env.Make("T-O-Y", env.Options{}); err != nil {
		t.Fatalf("name not normalized: %v", err)
	}
	if _, err := env.Make("toy", env.Options{MaxSteps: -1}); err == nil {
		t.Error("negative step limit accepted")
	}
}

func TestProgressRewardsSumToOneOnWin(t *testing.T) {
	e, _ := env.Make("toy", env.Options{})
	obs, info := e.Reset(0)
	if len(obs) != 2 || info.Outcome != env.Running || info.Legal != 2 {
		t.Fatalf("reset: obs %v info %+v", obs, info)
	}
	total := 0.0
	for {
		_, r, term, trunc, info, err := e.Step(0)
		if err != nil {
			t.Fatal(err)
		}
		total += r
		if term {
			if info.Outcome != env.Won || trunc {
				t.Fatalf("ended with %v trunc=%v", info.Outcome, trunc)
			}
			break
		}
	}
	if total != 1 {
		t.Errorf("return %v, want exactly 1", total)
	}
	if _, _, _, _, _, err := e.Step(0); !errors.Is(err, env.ErrEpisodeOver) {
		t.Errorf("step after the end: %v", err)
	}
}

func TestSparseReward(t *testing.T) {
	e, _ := env.Make("toy", env.Options{Reward: env.RewardSparse})
	e.Reset(0)
	for i := 0; ; i++ {
		_, r, term, _, _, err := e.Step(0)
		if err != nil {
			t.Fatal(err)
		}
		if !term && r != 0 || term && r != 1 {
			t.Fatalf("step %d: reward %v terminated %v", i, r, term)
		}
		if term {
			return
		}
	}
}

func TestTruncation(t *testing.T) {
	e, _ := env.Make("toy", env.Options{MaxSteps: 3})
	e.Reset(0)
	for i := 1; i <= 3; i++ {
		_, _, term, trunc, info, err := e.Step(1)
		if err != nil {
			t.Fatal(err)
		}
		if term || trunc != (i == 3) || info.Steps != i {
			t.Fatalf("step %d: term %v trunc %v info %+v", i, term, trunc, info)
		}
	}
	if e.Outcome() != env.Truncated {
		t.Errorf("outcome %v", e.Outcome())
	}
}

func TestNoLegalMoveTerminatesAtReset(t *testing.T) {
	e, _ := env.Make("toy", env.Options{})
	_, info := e.Reset(1)
	if info.Outcome != env.Lost || info.Legal != 0 || !e.Done() {
		t.Fatalf("info %+v", info)
	}
}

func TestIllegalActionChangesNothing(t *testing.T) {
	e, _ := env.Make("toy", env.Options{})
	if _, _, _, _, _, err := e.Step(0); !errors.Is(err, env.ErrNotReset) {
		t.Fatalf("step before reset: %v", err)
	}
	e.Reset(0)
	e.Step(0) // home = 1: wait is illegal now
	for _, a := range []int{1, 2, -1, 3} {
		_, _, _, _, info, err := e.Step(a)
		var ill *env.IllegalActionError
		if !errors.As(err, &ill) || ill.Action != a {
			t.Fatalf("action %d: err %v", a, err)
		}
		if info.Steps != 1 || info.Progress != 1 {
			t.Fatalf("action %d changed the episode: %+v", a, info)
		}
	}
	_, _, _, _, _, err := e.Step(1)
	if !strings.Contains(err.Error(), "wait") || !strings.Contains(err.Error(), "not now") {
		t.Errorf("error does not name the move and reason: %v", err)
	}
}

func TestCloneAndCopyAreIndependent(t *testing.T) {
	e, _ := env.Make("toy", env.Options{})
	e.Reset(0)
	c := e.Clone()
	c.Step(0)
	if e.Progress() != 0 || c.Progress() != 1 {
		t.Fatal("clone not independent")
	}
	e.CopyFrom(c)
	if e.Progress() != 1 || e.Observation()[0] != 1 {
		t.Fatal("CopyFrom did not copy")
	}
	c.Step(0)
	if e.Progress() != 1 {
		t.Fatal("copy not independent")
	}
}

func TestStepDoesNotAllocate(t *testing.T) {
	e, _ := env.Make("toy", env.Options{MaxSteps: 1 << 30})
	e.Reset(0)
	allocs := testing.AllocsPerRun(100, func() {
		if e.Done() {
			e.Reset(0)
		}
		e.Step(0)
	})
	if allocs != 0 {
		t.Errorf("Step allocates %v times", allocs)
	}
}

// hiddenGame is a game that hides cards but cannot determinize them.
type hiddenGame struct{ env.Game }

func (hiddenGame) Spec() *env.Spec {
	return &env.Spec{Name: "hiddenbroken", Title: "Hidden", Actions: 1, ObsLen: 1, MaxSteps: 1, Cards: 1, Hidden: true,
		ActionRanges: []env.ActionRange{{First: 0, Last: 0, Meaning: "x"}},
		Segments:     []env.Segment{{Name: "x", Offset: 0, Len: 1, Max: 1}}}
}

func TestRegisterRefusesHiddenGameWithoutDeterminizer(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "Determinizer") {
			t.Fatalf("Register of a hidden game without Determinize: panic %v, want one naming Determinizer", r)
		}
	}()
	g := hiddenGame{}
	env.Register(g.Spec(), func() env.Game { return g })
}

// TestFlag: a yes-or-no fact's observation cell is 1 when it holds, else 0.
func TestFlag(t *testing.T) {
	if env.Flag(true) != 1 || env.Flag(false) != 0 {
		t.Errorf("Flag(true) = %d, Flag(false) = %d", env.Flag(true), env.Flag(false))
	}
}

// TestParseModes: each mode's parser reads the names its String writes,
// "" as the default, and refuses another word naming the choices.
func TestParseModes(t *testing.T) {
	for _, m := range []env.RewardMode{env.RewardProgress, env.RewardSparse} {
		if got, err := env.ParseRewardMode(m.String()); err != nil || got != m {
			t.Errorf("ParseRewardMode(%q) = %v, %v", m, got, err)
		}
	}
	for _, m := range []env.AutoresetMode{env.NextStep, env.SameStep} {
		if got, err := env.ParseAutoresetMode(m.String()); err != nil || got != m {
			t.Errorf("ParseAutoresetMode(%q) = %v, %v", m, got, err)
		}
	}
	for _, p := range []env.IllegalPolicy{env.IllegalRefuse, env.IllegalNoOp} {
		if got, err := env.ParseIllegalPolicy(p.String()); err != nil || got != p {
			t.Errorf("ParseIllegalPolicy(%q) = %v, %v", p, got, err)
		}
	}
	r, err1 := env.ParseRewardMode("")
	a, err2 := env.ParseAutoresetMode("")
	p, err3 := env.ParseIllegalPolicy("")
	if r != env.RewardProgress || a != env.NextStep || p != env.IllegalRefuse || errors.Join(err1, err2, err3) != nil {
		t.Errorf("the defaults of \"\": %v %v %v (%v %v %v)", r, a, p, err1, err2, err3)
	}
	for _, c := range []struct {
		err  error
		want string
	}{
		{second(env.ParseRewardMode("dense")), `unknown reward mode "dense" (want progress or sparse)`},
		{second(env.ParseAutoresetMode("later")), `unknown autoreset mode "later" (want next-step or same-step)`},
		{second(env.ParseIllegalPolicy("skip")), `unknown illegal-action policy "skip" (want refuse or noop)`},
	} {
		if c.err == nil || c.err.Error() != c.want {
			t.Errorf("got %v, want %s", c.err, c.want)
		}
	}
}

func second[T any](_ T, err error) error { return err }
