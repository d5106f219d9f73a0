package all

import (
	"reflect"
	"slices"
	"testing"

	"github.com/patience-gym/patience/env"
)

// TestInterfaces pins the optional interfaces each game implements beside
// env.Game (env.RegisterGame checks env.Game at compile time): a method
// whose signature drifts would otherwise drop out silently.
func TestInterfaces(t *testing.T) {
	want := map[string][]string{
		"cromwell":     {"AnyLegaler", "Evaluator", "Termer", "Varianter"},
		"fifteen":      {"AnyLegaler", "Evaluator", "Termer"},
		"fourquarters": {"Classifier", "Determinizer", "Evaluator", "Termer", "Varianter"},
		"ladder":       {"AnyLegaler", "Classifier", "Determinizer", "Evaluator"},
		"limited":      {"AnyLegaler", "Classifier", "Determinizer", "Evaluator"},
		"royalparade":  {"AnyLegaler", "Determinizer", "Evaluator", "Termer"},
	}
	if names := env.Names(); len(names) != len(want) {
		t.Errorf("games %v, want the %d pinned here", names, len(want))
	}
	for name, w := range want {
		g, err := env.NewGame(name)
		if err != nil {
			t.Fatal(err)
		}
		if got := implemented(g); !slices.Equal(got, w) {
			t.Errorf("%s implements %v, want %v", name, got, w)
		}
	}
}

// optional are the interfaces a game may implement beside env.Game.
var optional = []reflect.Type{
	reflect.TypeFor[env.AnyLegaler](), reflect.TypeFor[env.Classifier](),
	reflect.TypeFor[env.Determinizer](), reflect.TypeFor[env.Evaluator](),
	reflect.TypeFor[env.Termer](), reflect.TypeFor[env.Varianter](),
}

// implemented lists the optional interfaces g implements, sorted by name.
func implemented(g env.Game) []string {
	var out []string
	for _, it := range optional {
		if reflect.TypeOf(g).Implements(it) {
			out = append(out, it.Name())
		}
	}
	return out
}
