package env_test

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/patience-gym/patience/env"
	_ "github.com/patience-gym/patience/env/all"
	"github.com/patience-gym/patience/internal/memlimit"
)

// A vector too large for the machine is refused before anything is
// allocated, with an error naming the bytes and the limit.
func TestVectorTooLargeIsRefusedBeforeAllocating(t *testing.T) {
	for _, name := range []string{"cromwell", "limited", "fifteen"} {
		per, err := env.VectorBytes(name, 1, env.VectorOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		v, err := env.NewVector(name, 100_000_000, env.VectorOptions{})
		runtime.ReadMemStats(&m1)
		if err == nil {
			v.Close()
			t.Fatalf("%s: a vector of 10^8 environments (%d bytes each) was made", name, per)
		}
		if !errors.Is(err, memlimit.ErrTooBig) || !strings.Contains(err.Error(), "bytes") || !strings.Contains(err.Error(), "available") {
			t.Errorf("%s: %v", name, err)
		}
		if got := m1.TotalAlloc - m0.TotalAlloc; got > 1<<20 {
			t.Errorf("%s: refusing allocated %d bytes", name, got)
		}
		t.Logf("%s: %d bytes per environment: %v", name, per, err)
	}
}

// The bytes VectorBytes works out are those NewVector allocates, within a
// margin: a vector of 300 environments allocates at least 80 % and at
// most 125 % of them.
func TestVectorBytesMatchesTheAllocation(t *testing.T) {
	for _, spec := range env.Specs() {
		const n = 300
		need, err := env.VectorBytes(spec.ID(), n, env.VectorOptions{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		v, err := env.NewVector(spec.ID(), n, env.VectorOptions{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		if err := v.Reset(0); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&m1)
		v.Close()
		got := m1.TotalAlloc - m0.TotalAlloc
		if float64(got) < 0.8*float64(need) || float64(got) > 1.25*float64(need) {
			t.Errorf("%s: VectorBytes says %d bytes for %d environments; NewVector and Reset allocated %d", spec.ID(), need, n, got)
		}
	}
}
