package cromwell

import (
	"strings"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/envtest"
)

func TestVariantNoSwap(t *testing.T) {
	e, err := env.Make("cromwell", env.Options{Variant: "noswap"})
	if err != nil {
		t.Fatal(err)
	}
	spec := e.Spec()
	if spec.ID() != "cromwell:noswap" || spec.Rules() != "v1+noswap" || spec.Actions != NumActions || Spec().Variant != "" {
		t.Fatalf("spec %s %s", spec.ID(), spec.Rules())
	}
	def, _ := env.Make("cromwell", env.Options{})
	for seed := uint64(0); seed < 20; seed++ {
		e.Reset(seed)
		def.Reset(seed)
		if e.Mask().Has(ActSwapBegin) {
			t.Fatalf("deal %d: the swap is offered", seed)
		}
		obs := e.Observation()
		if SwapStage(obs[ObsSwap]) != SwapDone {
			t.Errorf("deal %d: swap stage %d, want %d", seed, obs[ObsSwap], SwapDone)
		}
		// The same cards in the same places as the default deal.
		if string(obs[:ObsSwap]) != string(def.Observation()[:ObsSwap]) {
			t.Errorf("deal %d: the variant deals differently", seed)
		}
	}
	_, _, _, _, _, err = e.Step(ActSwapBegin)
	if err == nil || !strings.Contains(err.Error(), "cromwell:noswap") || !strings.Contains(err.Error(), "has no swap") {
		t.Errorf("the swap in the variant: %v", err)
	}
	g := New()
	if err := g.SetVariant("wide"); err == nil {
		t.Error("unknown variant accepted")
	}
}

func TestVariantNoSwapChecks(t *testing.T) { envtest.Check(t, "cromwell:noswap") }
