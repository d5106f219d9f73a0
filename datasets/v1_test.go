package datasets

import (
	"reflect"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/internal/specjson"
)

// v1Dataset was written under schema version 1, by patience generate limited
// --episodes 3 --max-steps 25 of main 58ce895: the game's description under
// its old names (game_title, hidden_cards, action_table, obs_segments, ...).
const v1Dataset = "testdata/v1-limited"

// TestReadsSchemaVersion1: a dataset of schema version 1 opens, its game's
// description read from the old names into the spec (without the summary
// and the default step limit, which version 1 did not record), and its
// episodes replay without a difference.
func TestReadsSchemaVersion1(t *testing.T) {
	spec, err := env.Lookup("limited")
	if err != nil {
		t.Fatal(err)
	}
	want := specjson.Of(spec)
	want.Summary, want.MaxSteps = "", 0
	d := openDataset(t, v1Dataset)
	if d.Meta.SchemaVersion != 1 || !reflect.DeepEqual(d.Meta.Spec, want) {
		t.Fatalf("schema version %d, spec %+v; want version 1 and %+v", d.Meta.SchemaVersion, d.Meta.Spec, want)
	}
	if m, err := MetaOf(v1Dataset); err != nil || !reflect.DeepEqual(m.Spec, want) {
		t.Errorf("info.json: %v, spec %+v", err, m)
	}
	for k := range int64(3) {
		ep, steps, err := d.Episode(k)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Replay(&d.Meta, k, ep, steps, nil)
		if err != nil || len(r.Diffs) != 0 || len(steps) != int(ep.Length) || len(steps[0].Obs) != d.Meta.ObsLen {
			t.Errorf("episode %d: %v, differences %v", k, err, r)
		}
	}
}
