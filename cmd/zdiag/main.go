package main

import (
	"fmt"
	"os"
	"strconv"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/env"
	_ "github.com/patience-gym/patience/env/all"
)

func main() {
	game, path := os.Args[1], os.Args[2]
	seed, _ := strconv.Atoi(os.Args[3])
	m, err := agents.LoadModel(path)
	if err != nil {
		panic(err)
	}
	e, _ := env.Make(game, env.Options{})
	n, err := m.NewNet(e.Spec())
	if err != nil {
		panic(err)
	}
	a, _ := agents.New("policy:model=" + path)
	e.Reset(uint64(seed))
	a.Reset(uint64(seed))
	for step := 0; !e.Done() && step < 40; step++ {
		fmt.Printf("step %d V(here)=%.3f eval=%.1f\n", step, n.Value(e.Observation()), e.Evaluate())
		mk := e.Mask()
		for b := mk.Next(0); b >= 0; b = mk.Next(b + 1) {
			c := e.Clone()
			c.Advance(b)
			fmt.Printf("   %-8s V=%.4f eval=%.1f out=%v\n", e.ActionString(b), n.Value(c.Observation()), c.Evaluate(), c.Outcome())
		}
		act := a.Act(agents.NewView(e))
		fmt.Println(" ->", e.ActionString(act))
		e.Advance(act)
	}
	fmt.Println(e.Outcome(), e.ProgressFraction())
}
