package datasets_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/datasets"
	"github.com/patience-gym/patience/env"
	_ "github.com/patience-gym/patience/env/all"
)

// Generate a small dataset, then read one episode back and replay it.
func Example() {
	dir, err := os.MkdirTemp("", "patience-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "cromwell-random")

	game, err := env.Lookup("cromwell")
	if err != nil {
		log.Fatal(err)
	}
	agent, err := agents.Parse("random")
	if err != nil {
		log.Fatal(err)
	}
	sum, err := datasets.Generate(context.Background(), datasets.Config{
		Game: game, Agent: agent, Episodes: 10, MaxSteps: 50, Out: out,
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("parts:", sum.Meta.Parts, "episodes:", sum.Info.Totals.Episodes, "complete:", sum.Info.Complete)

	d, err := datasets.Open(out)
	if err != nil {
		log.Fatal(err)
	}
	ep, steps, err := d.Episode(4)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("deal:", ep.DealSeed, "rows:", len(steps) == int(ep.Length),
		"obs:", len(steps[0].Obs) == d.Meta.ObsLen, "mask:", len(steps[0].LegalMask) == (d.Meta.Actions+7)/8)

	r, err := datasets.Replay(&d.Meta, 4, ep, steps, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("differences:", len(r.Diffs))
	// Output:
	// parts: 1 episodes: 10 complete: true
	// deal: 4 rows: true obs: true mask: true
	// differences: 0
}
