package deals_test

import (
	"fmt"

	"github.com/patience-gym/patience/deals"
)

// A curriculum draws training deals from the won deals of one difficulty
// class, then the next.
func Example() {
	t, err := deals.Shipped("cromwell")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, class := range []deals.Difficulty{deals.Easy, deals.Medium, deals.Hard} {
		ds := t.Select(deals.Filter{Verdicts: []deals.Verdict{deals.Won}, Difficulty: class, Block: "train"})
		fmt.Printf("%s: %d deals, the first %v\n", class, len(ds), deals.Seeds(ds[:min(3, len(ds))]))
	}
	eval := t.Count("eval")
	fmt.Printf("at most %d of the %d evaluation deals can be won\n", eval.Won+eval.Unknown, eval.Won+eval.Lost+eval.Unknown)
}

// A player who wants a deal that can be won picks one by a seed.
func ExampleTable_Pick() {
	t, err := deals.Shipped("limited")
	if err != nil {
		fmt.Println(err)
		return
	}
	if d, ok := t.Pick("train", 42); ok {
		fmt.Printf("deal %d: won by the solver in %d moves (%s)\n", d.Seed, d.LineLength, d.Difficulty)
	}
}
