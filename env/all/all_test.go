package all

import (
	"reflect"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/envtest"
)

// TestInterfaces pins the optional interfaces each game implements beside
// env.Game (env.RegisterGame checks env.Game at compile time): a method
// whose signature drifts would otherwise drop out silently.
func TestInterfaces(t *testing.T) {
	envtest.CheckInterfaces(t, optional, map[string][]string{
		"cromwell":     {"AnyLegaler", "Evaluator", "Termer", "Varianter"},
		"fifteen":      {"AnyLegaler", "Evaluator", "Termer"},
		"fourquarters": {"Classifier", "Determinizer", "Evaluator", "Termer", "Varianter"},
		"ladder":       {"AnyLegaler", "Classifier", "Determinizer", "Evaluator"},
		"limited":      {"AnyLegaler", "Classifier", "Determinizer", "Evaluator"},
		"royalparade":  {"AnyLegaler", "Determinizer", "Evaluator", "Termer"},
	}, nil)
}

// optional are the interfaces a game may implement beside env.Game, sorted
// by name.
var optional = []reflect.Type{
	reflect.TypeFor[env.AnyLegaler](), reflect.TypeFor[env.Classifier](),
	reflect.TypeFor[env.Determinizer](), reflect.TypeFor[env.Evaluator](),
	reflect.TypeFor[env.Termer](), reflect.TypeFor[env.Varianter](),
}
