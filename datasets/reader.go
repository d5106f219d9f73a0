package datasets

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// Errors a reader wraps, so that callers can tell the cases apart with
// errors.Is.
var (
	// ErrNotParquet: the file is not a complete Parquet file (truncated,
	// or not Parquet at all).
	ErrNotParquet = errors.New("not a complete Parquet file")
	// ErrNotDataset: a Parquet file, but not one of a patience dataset.
	ErrNotDataset = errors.New("not a patience dataset file")
	// ErrSchemaVersion: a patience file of a schema version this build
	// does not read.
	ErrSchemaVersion = errors.New("unsupported schema version")
	// ErrCorrupt: the file's content contradicts its metadata or cannot be
	// decoded.
	ErrCorrupt = errors.New("corrupt dataset file")
)

var (
	stepSchema    = parquet.SchemaOf(Step{})
	scoredSchema  = parquet.SchemaOf(ScoredStep{})
	episodeSchema = parquet.SchemaOf(Episode{})
)

// File is one open file of a dataset: a steps or an episodes file.
type File struct {
	// Name is the path the file was opened from.
	Name string
	// Meta is the file's metadata.
	Meta FileMeta
	pf   *parquet.File
	c    io.Closer
}

// OpenFile opens a dataset file and checks that it is a complete Parquet
// file of a patience dataset of this schema version whose columns and row
// count match its metadata.
func OpenFile(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if st.IsDir() {
		f.Close()
		return nil, fmt.Errorf("%s is a directory", path)
	}
	df, err := OpenReader(f, st.Size(), path)
	if err != nil {
		f.Close()
		return nil, err
	}
	df.c = f
	return df, nil
}

// OpenReader is OpenFile over size bytes of r; name is used in messages.
func OpenReader(r io.ReaderAt, size int64, name string) (df *File, err error) {
	defer recoverCorrupt(name, &err)
	// Check the frame first: parquet-go would trust a footer length read
	// from a damaged file.
	if size < 12 {
		return nil, fmt.Errorf("%s: %w (%d bytes; truncated?)", name, ErrNotParquet, size)
	}
	var head, tail [8]byte
	if _, err := r.ReadAt(head[:4], 0); err != nil {
		return nil, fmt.Errorf("%s: %w: %v", name, ErrNotParquet, err)
	}
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return nil, fmt.Errorf("%s: %w: %v", name, ErrNotParquet, err)
	}
	if string(head[:4]) != "PAR1" {
		return nil, fmt.Errorf("%s: %w (it does not start with the Parquet magic PAR1)", name, ErrNotParquet)
	}
	if string(tail[4:]) != "PAR1" {
		return nil, fmt.Errorf("%s: %w (no Parquet footer at the end: truncated, or still being written?)", name, ErrNotParquet)
	}
	if footer := int64(binary.LittleEndian.Uint32(tail[:4])); footer > size-12 {
		return nil, fmt.Errorf("%s: %w (its footer claims %d bytes of a %d-byte file)", name, ErrNotParquet, footer, size)
	}
	pf, err := parquet.OpenFile(r, size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %v", name, ErrNotParquet, err)
	}
	js, ok := pf.Lookup(MetaKey)
	if !ok {
		return nil, fmt.Errorf("%s: %w (a Parquet file without the %q metadata key)", name, ErrNotDataset, MetaKey)
	}
	var fm FileMeta
	if err := unmarshalMeta([]byte(js), &fm, &fm.Meta); err != nil {
		return nil, fmt.Errorf("%s: %w (its %q metadata is not valid JSON: %v)", name, ErrNotDataset, MetaKey, err)
	}
	if fm.SchemaVersion < 1 || fm.SchemaVersion > SchemaVersion {
		return nil, fmt.Errorf("%s: %w: the file has schema version %d, this build of patience reads versions 1 to %d (regenerate the dataset, or use the patience version that wrote it)", name, ErrSchemaVersion, fm.SchemaVersion, SchemaVersion)
	}
	if err := fm.check(); err != nil {
		return nil, fmt.Errorf("%s: %w: %v", name, ErrCorrupt, err)
	}
	var want *parquet.Schema
	var rows int64
	switch fm.Table {
	case TableSteps:
		want, rows = stepSchema, fm.Totals.Steps
		if fm.MoveScores != "" {
			want = scoredSchema
		}
	case TableEpisodes:
		want, rows = episodeSchema, fm.Totals.Episodes
	default:
		return nil, fmt.Errorf("%s: %w: unknown table %q (want steps or episodes)", name, ErrCorrupt, fm.Table)
	}
	if !parquet.EqualNodes(pf.Schema(), want) {
		return nil, fmt.Errorf("%s: %w: the %s columns are %v, schema version %d has %v", name, ErrCorrupt, fm.Table, columnNames(pf.Schema()), SchemaVersion, columnNames(want))
	}
	if pf.NumRows() != rows {
		return nil, fmt.Errorf("%s: %w: %d rows, its metadata says %d", name, ErrCorrupt, pf.NumRows(), rows)
	}
	if err := checkChunks(pf, size); err != nil {
		return nil, fmt.Errorf("%s: %w: %v", name, ErrCorrupt, err)
	}
	return &File{Name: name, Meta: fm, pf: pf}, nil
}

// valuesFit reports whether a column chunk's value count fits its row
// count: equal for a plain column, at least one a row for a list column.
func valuesFit(values, rows int64, repeated bool) bool {
	if repeated {
		return values >= rows
	}
	return values == rows
}

// maxChunkRatio bounds how much a column chunk may grow when decompressed;
// the steps files written by patience stay far below it.
const maxChunkRatio = 4096

// checkChunks verifies the column chunks described by the footer before
// any is read: the codecs patience writes, sizes and offsets inside the file,
// row counts that add up. The Parquet library trusts these fields, and a
// damaged footer could otherwise make it allocate without bound.
func checkChunks(pf *parquet.File, size int64) error {
	md := pf.Metadata()
	var rows int64
	// A list column (the move scores) holds any number of values per row,
	// at least one (an empty list is one null value).
	cols := pf.Schema().Columns()
	repeated := make([]bool, len(cols))
	for j, path := range cols {
		if leaf, ok := pf.Schema().Lookup(path...); ok {
			repeated[j] = leaf.MaxRepetitionLevel > 0
		}
	}
	for i, rg := range md.RowGroups {
		if rg.NumRows < 0 || len(rg.Columns) != len(pf.Schema().Columns()) {
			return fmt.Errorf("row group %d: %d rows, %d columns", i, rg.NumRows, len(rg.Columns))
		}
		rows += rg.NumRows
		for j := range rg.Columns {
			c := &rg.Columns[j].MetaData
			switch c.Codec {
			case format.Zstd, format.Uncompressed:
			default:
				return fmt.Errorf("row group %d column %d: compression %v (patience writes zstd)", i, j, c.Codec)
			}
			if c.TotalCompressedSize < 0 || c.TotalCompressedSize > size ||
				c.DataPageOffset < 4 || c.DataPageOffset >= size ||
				c.DictionaryPageOffset < 0 || c.DictionaryPageOffset >= size ||
				c.TotalUncompressedSize < 0 || c.TotalUncompressedSize > maxChunkRatio*max(c.TotalCompressedSize, 1024) ||
				!valuesFit(c.NumValues, rg.NumRows, repeated[j]) {
				return fmt.Errorf("row group %d column %d: sizes, offsets or counts out of range", i, j)
			}
		}
	}
	if rows != md.NumRows {
		return fmt.Errorf("the row groups hold %d rows, the footer says %d", rows, md.NumRows)
	}
	return nil
}

// recoverCorrupt turns a panic of the Parquet library on damaged input into
// an ErrCorrupt error.
func recoverCorrupt(name string, err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("%s: %w: the Parquet data cannot be decoded (%v)", name, ErrCorrupt, r)
	}
}

func columnNames(s *parquet.Schema) []string {
	var out []string
	for _, f := range s.Fields() {
		out = append(out, f.Name())
	}
	return out
}

// check verifies that the metadata is self-consistent, so that readers can
// rely on it.
func (fm *FileMeta) check() error {
	m := &fm.Meta
	switch {
	case m.Game == "":
		return errors.New("no game in the metadata")
	case m.Actions <= 0 || m.Actions > 1<<24:
		return fmt.Errorf("action count %d out of range", m.Actions)
	case m.MaskBytes != (m.Actions+7)/8:
		return fmt.Errorf("mask bytes %d, want %d for %d actions", m.MaskBytes, (m.Actions+7)/8, m.Actions)
	case m.MaskEncoding != MaskEncoding:
		return fmt.Errorf("unknown mask encoding %q", m.MaskEncoding)
	case m.ObsLen <= 0 || m.ObsLen > 1<<24:
		return fmt.Errorf("observation length %d out of range", m.ObsLen)
	case m.Spec.Name != m.Game || m.Spec.RulesVersion != m.RulesVersion || m.Spec.Actions != m.Actions || m.Spec.ObsLen != m.ObsLen:
		return fmt.Errorf("the spec (%s rules version %d, %d actions, observations of %d) is not the dataset's game (%s rules version %d, %d actions, observations of %d)",
			m.Spec.Name, m.Spec.RulesVersion, m.Spec.Actions, m.Spec.ObsLen, m.Game, m.RulesVersion, m.Actions, m.ObsLen)
	case m.MaxSteps <= 0 || m.IndexStride != int64(m.MaxSteps):
		return fmt.Errorf("step limit %d and index stride %d disagree", m.MaxSteps, m.IndexStride)
	case m.Episodes <= 0 || m.PartSize <= 0 || m.SeedStart < 0 || m.SeedEnd != m.SeedStart+m.Episodes:
		return fmt.Errorf("seed range %d..%d of %d episodes is inconsistent", m.SeedStart, m.SeedEnd, m.Episodes)
	case int64(m.Parts) != (m.Episodes+int64(m.PartSize)-1)/int64(m.PartSize):
		return fmt.Errorf("%d parts of %d episodes do not cover %d episodes", m.Parts, m.PartSize, m.Episodes)
	case fm.Part < 0 || fm.Part >= m.Parts:
		return fmt.Errorf("part %d of %d", fm.Part, m.Parts)
	}
	first, n := m.partRange(fm.Part)
	if fm.PartFirstEpisode != first || fm.PartEpisodes != n {
		return fmt.Errorf("part %d holds episodes %d..%d, its metadata says %d..%d", fm.Part, first, first+n-1, fm.PartFirstEpisode, fm.PartFirstEpisode+fm.PartEpisodes-1)
	}
	t := fm.Totals
	if t.Episodes != n || t.Steps < 0 || t.Won+t.Lost+t.Truncated != t.Episodes || t.Steps > t.Episodes*int64(m.MaxSteps) {
		return fmt.Errorf("totals %+v do not fit part %d", t, fm.Part)
	}
	return nil
}

// Close closes the file.
func (f *File) Close() error {
	if f.c != nil {
		return f.c.Close()
	}
	return nil
}

// NumRows returns the number of rows.
func (f *File) NumRows() int64 { return f.pf.NumRows() }

// NumRowGroups returns the number of row groups.
func (f *File) NumRowGroups() int { return len(f.pf.RowGroups()) }

// Size returns the file's size in bytes.
func (f *File) Size() int64 { return f.pf.Size() }

// Schema returns the file's Parquet schema as text.
func (f *File) Schema() string { return f.pf.Schema().String() }

// batch is the number of rows read at a time.
const batch = 512

// ReadSteps calls fn with the steps rows of a steps file in order, in
// batches. The batch is reused after fn returns. Rows whose observation or
// mask has the wrong length, or that belong to another part, are an error.
func (f *File) ReadSteps(fn func([]Step) error) error {
	return readTable(f, TableSteps, "a steps", f.checkStep, fn)
}

// ReadScoredSteps calls fn with the rows of a steps file of a dataset made
// with move scores, in order, in batches reused after fn returns. Besides
// what ReadSteps checks, every row must hold as many scores as moves, and
// the moves must be legal before the row's action.
func (f *File) ReadScoredSteps(fn func([]ScoredStep) error) error {
	if f.Meta.Table == TableSteps && f.Meta.MoveScores == "" {
		return fmt.Errorf("%s holds no move scores (its dataset was made without --scores)", f.Name)
	}
	return readTable(f, TableSteps, "a steps", f.checkScoredStep, fn)
}

// ReadEpisodes calls fn with the rows of an episodes file in order, in
// batches reused after fn returns.
func (f *File) ReadEpisodes(fn func([]Episode) error) error {
	return readTable(f, TableEpisodes, "an episodes", f.checkEpisode, fn)
}

// checkScoredStep checks a row of a steps file with move scores, row
// number at: the steps columns as checkStep does, and the scored moves.
func (f *File) checkScoredStep(r *ScoredStep, at int64) error {
	if err := f.checkStep(&r.Step, at); err != nil {
		return err
	}
	if len(r.ScoreActions) != len(r.Scores) {
		return fmt.Errorf("%s row %d: %w: %d scored moves but %d scores", f.Name, at, ErrCorrupt, len(r.ScoreActions), len(r.Scores))
	}
	for _, a := range r.ScoreActions {
		if a < 0 || int(a) >= f.Meta.Actions || r.LegalMask[a/8]&(1<<(a%8)) == 0 {
			return fmt.Errorf("%s row %d: %w: scored move %d was not legal", f.Name, at, ErrCorrupt, a)
		}
	}
	return nil
}

// readTable reads the rows of f, which must be a file of table (kind names
// it in the error: "a steps"), checking each row with check, row number
// and all, before fn gets the batch; a file that breaks the reader is
// ErrCorrupt.
func readTable[T any](f *File, table, kind string, check func(*T, int64) error, fn func([]T) error) (err error) {
	if f.Meta.Table != table {
		return fmt.Errorf("%s is a %s file, not %s file", f.Name, f.Meta.Table, kind)
	}
	defer recoverCorrupt(f.Name, &err)
	return readRows(f, parquet.NewGenericReader[T](f.pf), 0, func(rows []T, at int64) error {
		for i := range rows {
			if err := check(&rows[i], at+int64(i)); err != nil {
				return err
			}
		}
		return fn(rows)
	})
}

// readRows reads all rows of r in batches, starting at row number at.
func readRows[T any](f *File, r *parquet.GenericReader[T], at int64, fn func([]T, int64) error) error {
	defer r.Close()
	buf := make([]T, batch)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			if ferr := fn(buf[:n], at); ferr != nil {
				return ferr
			}
			at += int64(n)
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w: %v", f.Name, ErrCorrupt, err)
		}
	}
}

func (f *File) checkStep(s *Step, row int64) error {
	m := &f.Meta
	switch {
	case len(s.Obs) != m.ObsLen:
		return fmt.Errorf("%s row %d: %w: the observation has %d bytes, want %d", f.Name, row, ErrCorrupt, len(s.Obs), m.ObsLen)
	case len(s.LegalMask) != m.MaskBytes:
		return fmt.Errorf("%s row %d: %w: the legal mask has %d bytes, want %d", f.Name, row, ErrCorrupt, len(s.LegalMask), m.MaskBytes)
	case s.EpisodeIndex < m.PartFirstEpisode || s.EpisodeIndex >= m.PartFirstEpisode+m.PartEpisodes:
		return fmt.Errorf("%s row %d: %w: episode %d is not in part %d", f.Name, row, ErrCorrupt, s.EpisodeIndex, m.Part)
	}
	return nil
}

func (f *File) checkEpisode(e *Episode, row int64) error {
	m := &f.Meta
	switch {
	case len(e.FinalObs) != m.ObsLen:
		return fmt.Errorf("%s row %d: %w: the final observation has %d bytes, want %d", f.Name, row, ErrCorrupt, len(e.FinalObs), m.ObsLen)
	case e.EpisodeIndex != m.PartFirstEpisode+row:
		return fmt.Errorf("%s row %d: %w: episode %d, want %d", f.Name, row, ErrCorrupt, e.EpisodeIndex, m.PartFirstEpisode+row)
	}
	return nil
}

// EpisodeSteps returns the steps rows of episode k from a steps file, in
// order, reading only the row groups that can hold it.
func (f *File) EpisodeSteps(k int64) (out []Step, err error) {
	if f.Meta.Table != TableSteps {
		return nil, fmt.Errorf("%s is a %s file, not a steps file", f.Name, f.Meta.Table)
	}
	m := &f.Meta
	if k < m.PartFirstEpisode || k >= m.PartFirstEpisode+m.PartEpisodes {
		return nil, fmt.Errorf("%s holds episodes %d..%d, not %d", f.Name, m.PartFirstEpisode, m.PartFirstEpisode+m.PartEpisodes-1, k)
	}
	defer recoverCorrupt(f.Name, &err)
	var at int64
	for _, rg := range f.pf.RowGroups() {
		n := rg.NumRows()
		if cc, ok := rg.ColumnChunks()[0].(*parquet.FileColumnChunk); ok {
			if lo, hi, ok := cc.Bounds(); ok && (k < lo.Int64() || k > hi.Int64()) {
				at += n
				continue
			}
		}
		err := readRows(f, parquet.NewGenericRowGroupReader[Step](rg), at, func(rows []Step, at int64) error {
			for i := range rows {
				s := &rows[i]
				if err := f.checkStep(s, at+int64(i)); err != nil {
					return err
				}
				if s.EpisodeIndex == k {
					c := *s
					c.Obs = bytes.Clone(s.Obs)
					c.LegalMask = bytes.Clone(s.LegalMask)
					out = append(out, c)
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		at += n
	}
	return out, nil
}

// Diff names the first field in which m and o differ, with both values, or
// returns "" when they describe the same dataset.
func (m *Meta) Diff(o *Meta) string { return diffMeta(m, o) }

// diffMeta names the first field (in the order of Meta) in which a and b
// differ, with both values, or returns "" when they are equal.
func diffMeta(a, b *Meta) string {
	if reflect.DeepEqual(a, b) {
		return ""
	}
	va, vb := reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem()
	for i := 0; i < va.NumField(); i++ {
		x, y := va.Field(i).Interface(), vb.Field(i).Interface()
		if reflect.DeepEqual(x, y) {
			continue
		}
		name, _, _ := strings.Cut(va.Type().Field(i).Tag.Get("json"), ",")
		jx, _ := json.Marshal(x)
		jy, _ := json.Marshal(y)
		return fmt.Sprintf("%s is %s here and %s there", name, short(jx), short(jy))
	}
	return "the metadata differs"
}

func short(b []byte) string {
	if len(b) > 100 {
		return string(b[:97]) + "..."
	}
	return string(b)
}
