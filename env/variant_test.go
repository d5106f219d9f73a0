package env_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/patience-gym/patience/env"
	_ "github.com/patience-gym/patience/env/all"
)

func TestVariants(t *testing.T) {
	a, err := env.Make("cromwell:noswap", env.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := env.Make("Cromwell", env.Options{Variant: "noswap"})
	if err != nil {
		t.Fatal(err)
	}
	if a.Spec() != b.Spec() || a.Spec().ID() != "cromwell:noswap" || a.Spec().Rules() != "v1+noswap" || a.Spec().Name != "cromwell" {
		t.Errorf("variant spec %q %q", a.Spec().ID(), a.Spec().Rules())
	}
	d, _ := env.Make("cromwell", env.Options{})
	if d.Spec().ID() != "cromwell" || d.Spec().Rules() != "v1" || d.Spec().Variant != "" {
		t.Errorf("default spec %q %q", d.Spec().ID(), d.Spec().Rules())
	}
	if s, err := env.Lookup("fourquarters:hub"); err != nil || s.Variant != "hub" {
		t.Errorf("Lookup of a variant: %v %v", s, err)
	}
	if v, _ := env.Variants("cromwell"); !slices.Equal(v, []string{"noswap"}) {
		t.Errorf("cromwell variants %v", v)
	}
	if v, err := env.Variants("fifteen"); err != nil || len(v) != 0 {
		t.Errorf("fifteen variants %v %v", v, err)
	}
	for _, c := range []struct {
		name, variant, want string
	}{
		{"cromwell", "wide", `unknown variant "wide" (the variants are: noswap)`},
		{"fifteen", "noswap", "fifteen has no variants"},
		{"cromwell:noswap", "other", `names variant "noswap", but variant "other" was asked for`},
		{"solitaire:x", "", "unknown game"},
	} {
		if _, err := env.Make(c.name, env.Options{Variant: c.variant}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Make(%q, %q): %v, want %q", c.name, c.variant, err, c.want)
		}
	}
	// An illegal move names the variant.
	a.Reset(1)
	if _, _, _, _, _, err := a.Step(702); err == nil || !strings.Contains(err.Error(), "cromwell:noswap") {
		t.Errorf("illegal move in a variant: %v", err)
	}
}
