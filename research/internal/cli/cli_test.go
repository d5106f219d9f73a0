package cli

import (
	"flag"
	"testing"
)

// TestRegister: the four flags start at the fields' values and set them
// when given.
func TestRegister(t *testing.T) {
	d := Deals{Game: "fifteen", Start: 930000, N: 60, Workers: 2}
	d.Register("the game", "first deal", "deals")
	if f := flag.Lookup("start"); f == nil || f.DefValue != "930000" || f.Usage != "first deal" {
		t.Fatalf("-start: %+v", f)
	}
	if err := flag.CommandLine.Parse([]string{"-game", "cromwell", "-n", "5", "-workers", "1"}); err != nil {
		t.Fatal(err)
	}
	if want := (Deals{Game: "cromwell", Start: 930000, N: 5, Workers: 1}); d != want {
		t.Fatalf("after parsing: %+v, want %+v", d, want)
	}
}
