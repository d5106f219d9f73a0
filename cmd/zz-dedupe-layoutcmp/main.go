package main

import (
	"fmt"
	"hash/fnv"

	"github.com/patience-gym/patience/env"
	_ "github.com/patience-gym/patience/env/all"
	"github.com/patience-gym/patience/env/cards"
)

type layouter interface{ Layout(*env.Table) }

func main() {
	for _, name := range env.Names() {
		h := fnv.New64a()
		e, _ := env.Make(name, env.Options{})
		rng := cards.NewRand(3)
		var t env.Table
		n := 0
		for seed := range uint64(30) {
			e.Reset(seed)
			for {
				e.Game().(layouter).Layout(&t)
				fmt.Fprintf(h, "%+v", t)
				n++
				if e.Done() {
					break
				}
				m := e.Mask()
				e.Advance(m.Nth(rng.IntN(m.Count())))
			}
		}
		fmt.Println(name, n, h.Sum64())
	}
}
