package solver_test

import (
	"strings"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/solver"
)

// TestRegisterSet: the sets of a game's search knowledge are listed in
// order and checked by name; a set registered twice or without a name
// panics (a program's mistake, made in an init).
func TestRegisterSet(t *testing.T) {
	keep := func(env.Game) env.Game { return nil }
	solver.RegisterSet("register-test", "wide", keep)
	solver.RegisterSet("register-test", "narrow", keep)
	if got := solver.KnowledgeSets("register-test"); strings.Join(got, ",") != "narrow,wide" {
		t.Errorf("sets %v", got)
	}
	if got := solver.KnowledgeSets("register-test-none"); len(got) != 0 {
		t.Errorf("a game without sets: %v", got)
	}
	for _, c := range []struct{ game, set, want string }{
		{"register-test", "", ""},
		{"register-test", "wide", ""},
		{"register-test", "deep", `register-test has no search knowledge "deep" (it has narrow, wide)`},
		{"register-test-none", "wide", `register-test-none has no search knowledge "wide" (only its default)`},
	} {
		err := solver.CheckKnowledge(c.game, c.set)
		if (err == nil) != (c.want == "") || err != nil && err.Error() != c.want {
			t.Errorf("CheckKnowledge(%q, %q) = %v, want %q", c.game, c.set, err, c.want)
		}
	}
	for _, set := range []string{"wide", ""} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("RegisterSet of %q did not panic", set)
				}
			}()
			solver.RegisterSet("register-test", set, keep)
		}()
	}
}
