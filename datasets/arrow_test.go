package datasets

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// arrowTable reads a Parquet file with the Apache Arrow implementation, an
// independent reader, and returns its table and the "patience" metadata.
func arrowTable(t *testing.T, path string) (arrow.Table, FileMeta) {
	t.Helper()
	pf, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatalf("arrow cannot open %s: %v", path, err)
	}
	t.Cleanup(func() { pf.Close() })
	var fm FileMeta
	v := pf.MetaData().KeyValueMetadata().FindValue(MetaKey)
	if v == nil {
		t.Fatalf("arrow finds no %q metadata in %s", MetaKey, path)
	}
	if err := json.Unmarshal([]byte(*v), &fm); err != nil {
		t.Fatal(err)
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 1024}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatalf("arrow cannot read %s: %v", path, err)
	}
	t.Cleanup(tbl.Release)
	return tbl, fm
}

// arrowRows turns a table into rows of T by column name (the parquet tag),
// checking each column's Arrow type: strings are utf8 and byte columns are
// binary, as pandas, Polars and DuckDB expect.
func arrowRows[T any](t *testing.T, tbl arrow.Table) []T {
	t.Helper()
	rows := make([]T, tbl.NumRows())
	typ := reflect.TypeFor[T]()
	if int(tbl.NumCols()) != typ.NumField() {
		t.Fatalf("arrow sees %d columns, want %d", tbl.NumCols(), typ.NumField())
	}
	for c := 0; c < int(tbl.NumCols()); c++ {
		col := tbl.Column(c)
		field := typ.Field(c)
		tag := field.Tag.Get("parquet")
		if name, _, _ := cut(tag); col.Name() != name {
			t.Fatalf("column %d is %q, want %q", c, col.Name(), name)
		}
		want := map[reflect.Kind]arrow.Type{reflect.Int64: arrow.INT64, reflect.Int32: arrow.INT32, reflect.String: arrow.STRING,
			reflect.Slice: arrow.BINARY, reflect.Float64: arrow.FLOAT64, reflect.Bool: arrow.BOOL}[field.Type.Kind()]
		if col.DataType().ID() != want {
			t.Fatalf("column %s has Arrow type %s, want %s", col.Name(), col.DataType(), want)
		}
		i := 0
		for _, chunk := range col.Data().Chunks() {
			for j := 0; j < chunk.Len(); j++ {
				if chunk.IsNull(j) {
					t.Fatalf("column %s row %d is null", col.Name(), i)
				}
				f := reflect.ValueOf(&rows[i]).Elem().Field(c)
				switch a := chunk.(type) {
				case *array.Int64:
					f.SetInt(a.Value(j))
				case *array.Int32:
					f.SetInt(int64(a.Value(j)))
				case *array.String:
					f.SetString(a.Value(j))
				case *array.Binary:
					f.SetBytes(append([]byte(nil), a.Value(j)...))
				case *array.Float64:
					f.SetFloat(a.Value(j))
				case *array.Boolean:
					f.SetBool(a.Value(j))
				default:
					t.Fatalf("column %s: unexpected array %T", col.Name(), chunk)
				}
				i++
			}
		}
	}
	return rows
}

func cut(tag string) (string, string, bool) {
	for i := range tag {
		if tag[i] == ',' {
			return tag[:i], tag[i+1:], true
		}
	}
	return tag, "", false
}

// TestRoundTripArrow reads a generated dataset with the Apache Arrow Parquet
// reader and compares it, row by row, with an independent replay of the
// episodes.
func TestRoundTripArrow(t *testing.T) {
	dir := t.TempDir()
	cfg := small(dir)
	generate(t, cfg)
	wantSteps, wantEps := reference(t, cfg)
	d := openDataset(t, dir)
	var gotSteps []Step
	var gotEps []Episode
	for _, p := range d.Parts {
		tbl, fm := arrowTable(t, p.Steps)
		if fm.Table != TableSteps || fm.Part != p.Part || fm.Meta.Diff(&d.Meta) != "" {
			t.Fatalf("metadata through arrow: %+v", fm)
		}
		gotSteps = append(gotSteps, arrowRows[Step](t, tbl)...)
		tbl, fm = arrowTable(t, p.Episodes)
		if fm.Table != TableEpisodes || fm.Totals.Episodes != tbl.NumRows() {
			t.Fatalf("metadata through arrow: %+v", fm)
		}
		for _, e := range arrowRows[Episode](t, tbl) {
			e.WallTimeMicros = 0
			gotEps = append(gotEps, e)
		}
	}
	compareRows(t, "steps through arrow", gotSteps, wantSteps)
	compareRows(t, "episodes through arrow", gotEps, wantEps)
}
