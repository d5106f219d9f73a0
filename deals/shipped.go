package deals

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/patience-gym/patience/env"
)

// shipped holds the tables that ship with the project, GAME.parquet each.
//
//go:embed tables
var shipped embed.FS

// ErrNoTable is returned (wrapped) when no table ships for a game.
var ErrNoTable = errors.New("no deals table ships for this game")

var cache struct {
	sync.Mutex
	tables map[string]*Table
}

// Games returns the names of the games a table ships for, sorted.
func Games() []string {
	entries, _ := fs.ReadDir(shipped, "tables")
	var out []string
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".parquet"); ok {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// Shipped returns the table that ships for game (a registered game's
// name), read once and shared: do not modify it. It is an error when no
// table ships for the game, and when the table was made under another
// rules version than the game's in this build (ErrRules): its verdicts may
// not hold any more.
func Shipped(game string) (*Table, error) {
	spec, err := env.Lookup(game)
	if err != nil {
		return nil, err
	}
	if spec.Variant != "" {
		return nil, fmt.Errorf("%s: %w (tables hold the default rules, not the %s variant)", spec.ID(), ErrNoTable, spec.Variant)
	}
	cache.Lock()
	defer cache.Unlock()
	if t, ok := cache.tables[spec.Name]; ok {
		return t, nil
	}
	data, err := shipped.ReadFile(path.Join("tables", spec.Name+".parquet"))
	if err != nil {
		return nil, fmt.Errorf("%s: %w (tables ship for: %s)", spec.Name, ErrNoTable, strings.Join(Games(), ", "))
	}
	t, err := Decode(data, "the shipped table of "+spec.Name)
	if err != nil {
		return nil, err
	}
	if err := Check(t, spec); err != nil {
		return nil, err
	}
	if cache.tables == nil {
		cache.tables = map[string]*Table{}
	}
	cache.tables[spec.Name] = t
	return t, nil
}

// Check returns an error (ErrRules) unless t was made for spec's game
// under its rules version.
func Check(t *Table, spec *env.Spec) error {
	if t.Meta.Game != spec.Name {
		return fmt.Errorf("the deals table is of %s, not %s", t.Meta.Game, spec.Name)
	}
	if t.Meta.RulesVersion != spec.RulesVersion {
		return fmt.Errorf("%w: the %s table was made under rules version %d, this build plays %s rules version %d, so its verdicts may not hold; regenerate it with `%s`",
			ErrRules, spec.Name, t.Meta.RulesVersion, spec.Name, spec.RulesVersion, t.Meta.Command)
	}
	return nil
}

// ShippedFile returns the Parquet file of the table that ships for game,
// as embedded (pyarrow and pandas read it as it is), after the checks of
// Shipped: it is an error when no table ships for the game or when the
// table is of another rules version.
func ShippedFile(game string) ([]byte, error) {
	t, err := Shipped(game)
	if err != nil {
		return nil, err
	}
	return shipped.ReadFile(path.Join("tables", t.Meta.Game+".parquet"))
}
