package deals

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"

	"github.com/parquet-go/parquet-go"

	"github.com/patience-gym/patience/internal/atomicfile"
)

// MetaKey is the Parquet key-value metadata key that holds a table's Meta
// as JSON.
const MetaKey = "patience.deals"

// row is a table's Parquet row: one deal. Columns a deal may lack are
// optional (null): mc_* where mc did not play, difficulty unless won.
type row struct {
	Seed              int64    `parquet:"seed"`
	Block             string   `parquet:"block,dict"`
	Verdict           string   `parquet:"verdict,dict"`
	Nodes             int64    `parquet:"nodes"`
	LineLength        int32    `parquet:"line_length"`
	BestProgress      int32    `parquet:"best_progress"`
	DeadAtStart       bool     `parquet:"dead_at_start"`
	HeuristicWon      bool     `parquet:"heuristic_won"`
	HeuristicProgress int32    `parquet:"heuristic_progress"`
	MCWon             *bool    `parquet:"mc_won,optional"`
	MCProgress        *int32   `parquet:"mc_progress,optional"`
	Worlds            int32    `parquet:"worlds"`
	WorldsWon         int32    `parquet:"worlds_won"`
	WorldsLost        int32    `parquet:"worlds_lost"`
	Difficulty        *float32 `parquet:"difficulty,optional"`
	DifficultyClass   string   `parquet:"difficulty_class,dict"`
}

var rowSchema = parquet.SchemaOf(row{})

// Errors a reader returns (wrapped, with the details).
var (
	// ErrNotTable: the file is not a deals table.
	ErrNotTable = errors.New("not a deals table")
	// ErrFormat: the table is of another format version.
	ErrFormat = errors.New("deals table of another format version")
	// ErrRules: the table's rules version differs from the game's.
	ErrRules = errors.New("deals table of another rules version")
)

func toRow(d *Deal) row {
	r := row{
		Seed: int64(d.Seed), Block: d.Block, Verdict: d.Verdict.String(), Nodes: d.Nodes,
		LineLength: int32(d.LineLength), BestProgress: int32(d.BestProgress), DeadAtStart: d.DeadAtStart,
		HeuristicWon: d.Heuristic.Won, HeuristicProgress: int32(d.Heuristic.Progress),
		Worlds: int32(d.Worlds.Tried), WorldsWon: int32(d.Worlds.Won), WorldsLost: int32(d.Worlds.Lost),
		DifficultyClass: d.Difficulty.String(),
	}
	if d.MC.Played {
		won, p := d.MC.Won, int32(d.MC.Progress)
		r.MCWon, r.MCProgress = &won, &p
	}
	if !math.IsNaN(d.Score) {
		s := float32(d.Score)
		r.Difficulty = &s
	}
	return r
}

func fromRow(r *row) (Deal, error) {
	v, err := ParseVerdict(r.Verdict)
	if err != nil {
		return Deal{}, fmt.Errorf("deal %d: %w", r.Seed, err)
	}
	d := Deal{
		Seed: uint64(r.Seed), Block: r.Block, Verdict: v, Nodes: r.Nodes,
		LineLength: int(r.LineLength), BestProgress: int(r.BestProgress), DeadAtStart: r.DeadAtStart,
		Heuristic: Play{Played: true, Won: r.HeuristicWon, Progress: int(r.HeuristicProgress)},
		Worlds:    Worlds{Tried: int(r.Worlds), Won: int(r.WorldsWon), Lost: int(r.WorldsLost)},
		Score:     math.NaN(),
	}
	if r.MCWon != nil && r.MCProgress != nil {
		d.MC = Play{Played: true, Won: *r.MCWon, Progress: int(*r.MCProgress)}
	}
	if r.Difficulty != nil {
		d.Score = float64(*r.Difficulty)
	}
	if r.DifficultyClass != "" {
		if d.Difficulty, err = ParseDifficulty(r.DifficultyClass); err != nil {
			return Deal{}, fmt.Errorf("deal %d: %w", r.Seed, err)
		}
	}
	return d, nil
}

// Write writes t to w as a Parquet file: one row group, zstd, t.Meta as
// JSON under MetaKey. The same table gives the same bytes.
func Write(w io.Writer, t *Table) error {
	js, err := json.Marshal(&t.Meta)
	if err != nil {
		return fmt.Errorf("encode the table's metadata: %w", err)
	}
	pw := parquet.NewGenericWriter[row](w,
		parquet.Compression(&parquet.Zstd),
		parquet.CreatedBy("patience deals", strconv.Itoa(FormatVersion), "parquet-go"),
		parquet.KeyValueMetadata(MetaKey, string(js)),
	)
	rows := make([]row, len(t.Deals))
	for i := range t.Deals {
		rows[i] = toRow(&t.Deals[i])
	}
	if _, err := pw.Write(rows); err != nil {
		return fmt.Errorf("write the deals table: %w", err)
	}
	if err := pw.Close(); err != nil {
		return fmt.Errorf("write the deals table: %w", err)
	}
	return nil
}

// WriteFile writes t to path atomically: under a temporary name, renamed
// when complete.
func WriteFile(path string, t *Table) error {
	return atomicfile.Write(path, func(w io.Writer) error { return Write(w, t) })
}

// Decode reads a table from the bytes of a Parquet file; name names it in
// errors.
func Decode(data []byte, name string) (*Table, error) {
	return Read(bytes.NewReader(data), int64(len(data)), name)
}

// ReadFile reads the table at path.
func ReadFile(path string) (*Table, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read the deals table: %w", err)
	}
	return Decode(data, path)
}

// Read reads a table of size bytes from r; name names it in errors. It
// checks the format version, the columns, and that the deals are those of
// the blocks in order.
func Read(r io.ReaderAt, size int64, name string) (*Table, error) {
	pf, err := parquet.OpenFile(r, size)
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %v", name, ErrNotTable, err)
	}
	js, ok := pf.Lookup(MetaKey)
	if !ok {
		return nil, fmt.Errorf("%s: %w (no %q metadata)", name, ErrNotTable, MetaKey)
	}
	t := &Table{}
	if err := json.Unmarshal([]byte(js), &t.Meta); err != nil {
		return nil, fmt.Errorf("%s: %w (its %q metadata is not valid JSON: %v)", name, ErrNotTable, MetaKey, err)
	}
	if t.Meta.Format != FormatVersion {
		return nil, fmt.Errorf("%s: %w: the file has format %d, this build reads format %d (regenerate it with %q)",
			name, ErrFormat, t.Meta.Format, FormatVersion, t.Meta.Command)
	}
	if !parquet.EqualNodes(pf.Schema(), rowSchema) {
		return nil, fmt.Errorf("%s: %w: its columns differ from format %d's", name, ErrNotTable, FormatVersion)
	}
	n := t.Meta.Deals()
	if pf.NumRows() != int64(n) {
		return nil, fmt.Errorf("%s: %w: %d rows, its blocks hold %d deals", name, ErrNotTable, pf.NumRows(), n)
	}
	rows := make([]row, n)
	rd := parquet.NewGenericReader[row](pf)
	defer rd.Close()
	if k, err := rd.Read(rows); k != n || (err != nil && err != io.EOF) {
		return nil, fmt.Errorf("%s: %w: read %d of %d rows: %v", name, ErrNotTable, k, n, err)
	}
	t.Deals = make([]Deal, n)
	i := 0
	for k, b := range t.Meta.Blocks {
		if k > 0 {
			if p := t.Meta.Blocks[k-1]; b.First < p.First+uint64(p.Count) {
				return nil, fmt.Errorf("%s: %w: block %q does not start after block %q", name, ErrNotTable, b.Name, p.Name)
			}
		}
		for k := range b.Count {
			d, err := fromRow(&rows[i])
			if err != nil {
				return nil, fmt.Errorf("%s: %w: %v", name, ErrNotTable, err)
			}
			if d.Seed != b.First+uint64(k) || d.Block != b.Name {
				return nil, fmt.Errorf("%s: %w: row %d is deal %d of block %q, want deal %d of block %q",
					name, ErrNotTable, i, d.Seed, d.Block, b.First+uint64(k), b.Name)
			}
			t.Deals[i] = d
			i++
		}
	}
	return t, nil
}
