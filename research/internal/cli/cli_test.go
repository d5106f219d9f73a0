package cli

import (
	"flag"
	"os"
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

// TestOpenDealsAndParse: OpenDeals declares the four flags with The
// Fifteen and two workers by default, and Parse sets them and lets a
// required flag that was given pass.
func TestOpenDealsAndParse(t *testing.T) {
	defer func(fs *flag.FlagSet, args []string) { flag.CommandLine, os.Args = fs, args }(flag.CommandLine, os.Args)
	flag.CommandLine = flag.NewFlagSet("test", flag.ContinueOnError)
	d := OpenDeals(610000, 100)
	out := flag.String("out", "", "required")
	if want := (Deals{Game: "fifteen", Start: 610000, N: 100, Workers: 2}); *d != want {
		t.Fatalf("defaults: %+v, want %+v", *d, want)
	}
	if f := flag.Lookup("game"); f == nil || f.Usage != "the game (an open one)" {
		t.Fatalf("-game: %+v", f)
	}
	os.Args = []string{"test", "-n", "5", "-out", "x"}
	Parse("test", "out")
	if d.N != 5 || *out != "x" {
		t.Fatalf("after parsing: %+v, -out %q", *d, *out)
	}
}
