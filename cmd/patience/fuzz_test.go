package main

import (
	"strconv"
	"strings"
	"testing"

	"github.com/patience-gym/patience/agents"
)

// FuzzCommandLineValues feeds any text to the parsers of the command line's
// values: deal numbers, shards, game lists and agent lists. None may panic,
// and what each accepts must read back to itself.
func FuzzCommandLineValues(f *testing.F) {
	for _, s := range []string{"0", "1_000_000", "9223372036854775807", "-1", "0/4", "3/4", "4/4", "all", "cromwell,limited",
		"mc:rollouts=8,width=4,uct", "mc:rollouts=8,mc:rollouts=32", "random:", ",", "=", ":", "mc:=", "uct:iterations=1e9"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if n, err := parseSeed(s); err == nil {
			if n > maxSeed {
				t.Fatalf("parseSeed(%q) = %d, above the last deal", s, n)
			}
			if m, err := parseSeed(strconv.FormatUint(n, 10)); err != nil || m != n {
				t.Fatalf("seed %d does not read back: %d %v", n, m, err)
			}
		}
		var sh shardFlag
		if err := sh.Set(s); err == nil {
			if sh.i < 0 || sh.i >= sh.n {
				t.Fatalf("shard %q accepted as %d/%d", s, sh.i, sh.n)
			}
			var back shardFlag
			if err := back.Set(sh.String()); err != nil || back != sh {
				t.Fatalf("shard %v does not read back: %v %v", sh, back, err)
			}
		}
		if games, err := gameList(s); err == nil && len(games) == 0 {
			t.Fatalf("gameList(%q) accepted no game", s)
		}
		if list, err := agentList(s, nil, ""); err == nil {
			if len(list) == 0 {
				t.Fatalf("agentList(%q) accepted no agent", s)
			}
			for _, f := range list {
				if g, err := agents.Parse(f.Label()); err != nil || g.Label() != f.Label() {
					t.Fatalf("label %q does not read back: %v", f.Label(), err)
				}
				if strings.Contains(f.Label(), " ") {
					t.Fatalf("label %q has a space", f.Label())
				}
			}
		}
	})
}
