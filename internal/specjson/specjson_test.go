package specjson_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/patience-gym/patience/env"
	_ "github.com/patience-gym/patience/env/all"
	"github.com/patience-gym/patience/internal/specjson"
)

// TestOfEveryGame: the JSON form of every game's spec holds its facts,
// reads back to itself, and OneHotLenOf its segments is the spec's one-hot
// length.
func TestOfEveryGame(t *testing.T) {
	for _, s := range env.Specs() {
		j := specjson.Of(s)
		if j.Name != s.Name || j.Actions != s.Actions || j.ObsLen != s.ObsLen || j.Cards != s.Cards || j.Hidden != s.Hidden ||
			len(j.ActionRanges) != len(s.ActionRanges) || len(j.Segments) != len(s.Segments) || j.OneHotLen != s.OneHotLen() {
			t.Errorf("%s: %+v", s.Name, j)
		}
		if n := specjson.OneHotLenOf(j.Segments); n != s.OneHotLen() {
			t.Errorf("%s: OneHotLenOf = %d, want %d", s.Name, n, s.OneHotLen())
		}
		b, err := json.Marshal(j)
		if err != nil {
			t.Fatal(err)
		}
		var back specjson.Spec
		if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, j) {
			t.Errorf("%s: does not read back: %v", s.Name, err)
		}
	}
}
