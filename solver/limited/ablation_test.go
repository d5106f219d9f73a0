package limited

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	rules "github.com/patience-gym/patience/env/limited"
	"github.com/patience-gym/patience/solver"
)

// The ablation measures what each technique of this package decides: it
// solves deals with the techniques added one at a time and prints a CSV
// row per step (results/solver/techniques.csv). It runs only when asked:
//
//	go test ./solver/limited -run Ablation -ablation 200 -timeout 10h -v
var (
	ablation      = flag.Int("ablation", 0, "deals for the ablation (0: skip it)")
	ablationStart = flag.Uint64("ablation-start", 500000, "first deal of the ablation")
	ablationNodes = flag.Int64("ablation-nodes", 300000, "node budget of the ablation")
	ablationOnly  = flag.String("ablation-steps", "", "rows of the ablation to run, by number from 0, comma-separated (empty: all)")
)

// ablationRows are the rows of the ablation: the techniques on, as
// solver options.
var ablationRows = []struct {
	name string
	o    solver.Options
}{
	{"plain search (before)", solver.Options{NoKey: true, NoPrune: true}},
	{"+ keys", solver.Options{NoPrune: true}},
	{"+ one space (all)", solver.Options{}},
}

func TestAblation(t *testing.T) {
	if *ablation == 0 {
		t.Skip("run with -ablation N")
	}
	fmt.Println("game,technique,deals,budget,solved,unsolvable,unknown,median_seconds")
	for i, row := range ablationRows {
		if *ablationOnly != "" && !slices.Contains(strings.Split(*ablationOnly, ","), fmt.Sprint(i)) {
			continue
		}
		o := row.o
		o.Nodes = *ablationNodes
		s, err := solver.New(o)
		if err != nil {
			t.Fatal(err)
		}
		var cnt [3]int
		var secs []float64
		for d := range *ablation {
			g := rules.New()
			g.Deal(*ablationStart + uint64(d))
			t0 := time.Now()
			r := s.Solve(context.Background(), g)
			secs = append(secs, time.Since(t0).Seconds())
			if r.Verdict == solver.Solved {
				if err := solver.VerifyEnv(g, 0, r.Line); err != nil {
					t.Fatalf("deal %d: %v", *ablationStart+uint64(d), err)
				}
			}
			cnt[r.Verdict]++
		}
		slices.Sort(secs)
		fmt.Printf("limited,%s,%d,%d,%d,%d,%d,%.2f\n", row.name, *ablation, *ablationNodes,
			cnt[solver.Solved], cnt[solver.Unsolvable], cnt[solver.Unknown], secs[len(secs)/2])
	}
}
