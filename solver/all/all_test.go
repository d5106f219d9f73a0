package all_test

import (
	"reflect"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/envtest"
	"github.com/patience-gym/patience/solver"
)

// TestEveryGameWrapped: with solver/all imported, the solver wraps each
// game in a position of its search package's own type, a copy of the game
// (the same position, the same Spec), and does not wrap such a position
// again.
func TestEveryGameWrapped(t *testing.T) {
	for _, name := range env.Names() {
		g, err := env.NewGame(name)
		if err != nil {
			t.Fatal(err)
		}
		g.Deal(3)
		w := solver.Wrap(g)
		if reflect.TypeOf(w) == reflect.TypeOf(g) || w.Spec() != g.Spec() || w.Hash() != g.Hash() {
			t.Errorf("%s: wrapped in a %T, spec %s, hash %x; the game: %T, %s, %x", name, w, w.Spec().ID(), w.Hash(), g, g.Spec().ID(), g.Hash())
		}
		if again := solver.Wrap(w); again != w {
			t.Errorf("%s: its position %T wrapped again, in a %T", name, w, again)
		}
		if c := w.Clone(); reflect.TypeOf(c) != reflect.TypeOf(w) {
			t.Errorf("%s: a clone of %T is a %T", name, w, c)
		}
	}
}

// TestInterfaces pins the interfaces of the solver's knowledge that each
// game's search position implements, and so those it does not: a method
// whose signature drifts would otherwise drop out silently, and the solver
// would search without that knowledge. The solver also ranks moves by
// env.Evaluator ("Evaluator"), so that is pinned too (the rules' other
// optional interfaces are env/all's TestInterfaces); solver.WrapperOf
// checks env.Game at compile time.
func TestInterfaces(t *testing.T) {
	envtest.CheckInterfaces(t, knowledge, map[string][]string{
		"cromwell": {"DeadEvaluator", "DeadTester", "Evaluator", "LateOnceMover", "LineMapper",
			"OnceMover", "Pruner", "SafeMover", "SearchEvaluator", "Staged", "StartDeadTester"},
		"fifteen":      {"Evaluator", "SafeMover"},
		"fourquarters": {"DeadTester", "Evaluator", "Keyer", "Planner", "Pruner", "StartDeadTester"},
		"ladder":       {"Evaluator", "Keyer", "Narrower", "Pruner", "SafeMover", "SearchEvaluator"},
		"limited":      {"Evaluator", "Keyer", "Planner", "Pruner", "SearchEvaluator"},
		"royalparade": {"DeadTester", "Evaluator", "Keyer", "Planner", "Pruner", "SafeMover",
			"SearchEvaluator"},
	}, solver.Wrap)
}

// knowledge are the interfaces through which the solver takes a game's
// knowledge (package solver's knowledge.go, and env.Evaluator), sorted by
// name.
var knowledge = []reflect.Type{
	reflect.TypeFor[solver.DeadEvaluator](), reflect.TypeFor[solver.DeadTester](),
	reflect.TypeFor[env.Evaluator](), reflect.TypeFor[solver.Keyer](),
	reflect.TypeFor[solver.LateOnceMover](), reflect.TypeFor[solver.LineMapper](),
	reflect.TypeFor[solver.Narrower](), reflect.TypeFor[solver.OnceMover](),
	reflect.TypeFor[solver.Planner](), reflect.TypeFor[solver.Pruner](),
	reflect.TypeFor[solver.SafeMover](), reflect.TypeFor[solver.SearchEvaluator](),
	reflect.TypeFor[solver.Staged](), reflect.TypeFor[solver.StartDeadTester](),
}
