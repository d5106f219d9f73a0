package datasets

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/patience-gym/patience/internal/atomicfile"
)

// InfoPath returns the path of meta/info.json in dataset directory dir.
func InfoPath(dir string) string { return filepath.Join(dir, "meta", "info.json") }

// partPaths returns the final paths of part p's steps and episodes files.
func partPaths(dir string, p int) (steps, episodes string) {
	name := partName(p)
	return filepath.Join(dir, TableSteps, name), filepath.Join(dir, TableEpisodes, name)
}

// parsePartName reads a part file's name ("part-00003.parquet") back into
// its number.
func parsePartName(name string) (int, bool) {
	digits, ok := strings.CutPrefix(name, "part-")
	digits, ok2 := strings.CutSuffix(digits, ".parquet")
	if !ok || !ok2 || len(digits) < 5 {
		return 0, false
	}
	n, err := strconv.Atoi(digits)
	if err != nil || n < 0 || partName(n) != name {
		return 0, false
	}
	return n, true
}

// onDisk is what scan finds in a dataset directory.
type onDisk struct {
	// done holds the totals of the finished parts: both files present,
	// complete, and of the dataset.
	done map[int]Totals
}

// scan reads the part files in dir once and returns the finished parts of
// dataset m. Its memory grows with the files present, never with the size
// of the dataset. diff names how another dataset's metadata differs from
// m's ("" when equal): a file or info.json of another dataset is an error
// that says so, with the advice to repeat the flags or choose another
// directory. Missing, damaged or incomplete files mean a part is to be
// written again.
func scan(ctx context.Context, dir string, m *Meta, diff func(*Meta) string) (*onDisk, error) {
	other := func(where, d string) error {
		return fmt.Errorf("%s %w: %s (in %s); repeat the flags it was made with, or choose another --out", dir, ErrOtherDataset, d, where)
	}
	if js, err := os.ReadFile(InfoPath(dir)); err == nil {
		var info Info
		if err := unmarshalMeta(js, &info, &info.Meta); err != nil {
			return nil, fmt.Errorf("%s: not valid JSON (%v); remove it or choose another --out", InfoPath(dir), err)
		}
		if d := diff(&info.Meta); d != "" {
			return nil, other(InfoPath(dir), d)
		}
	}
	found := map[int]int{} // part -> tables found complete (1 steps, 2 episodes)
	disk := &onDisk{done: map[int]Totals{}}
	for i, table := range []string{TableSteps, TableEpisodes} {
		entries, err := os.ReadDir(filepath.Join(dir, table))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("read %s: %w", dir, err)
		}
		for _, e := range entries {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			part, ok := parsePartName(e.Name())
			if !ok || e.IsDir() || part >= m.Parts {
				continue
			}
			path := filepath.Join(dir, table, e.Name())
			f, err := OpenFile(path)
			if err != nil {
				if errors.Is(err, ErrSchemaVersion) {
					return nil, fmt.Errorf("%s already holds a dataset of another schema version: %w", dir, err)
				}
				continue // damaged: written again
			}
			f.Close()
			if d := diff(&f.Meta.Meta); d != "" {
				return nil, other(path, d)
			}
			if f.Meta.Part != part || f.Meta.Table != table {
				continue
			}
			found[part] |= 1 << i
			if found[part] == 3 {
				disk.done[part] = f.Meta.Totals
			}
		}
	}
	return disk, nil
}

// WriteInfo rewrites dir/meta/info.json for dataset m with the totals of the
// finished parts present, and returns it.
func WriteInfo(dir string, m *Meta) (*Info, error) {
	disk, err := scan(context.Background(), dir, m, m.Diff)
	if err != nil {
		return nil, err
	}
	info := &Info{Meta: *m, Layout: layoutDoc, PartsPresent: len(disk.done)}
	parts := slices.Sorted(maps.Keys(disk.done))
	for _, p := range parts {
		info.Totals.add(disk.done[p])
	}
	// The first 100 missing parts, walking the present ones in order.
	for p, i := 0, 0; p < m.Parts && len(info.Missing) < 100; p++ {
		if i < len(parts) && parts[i] == p {
			i++
			continue
		}
		info.Missing = append(info.Missing, p)
	}
	info.finish()
	js, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode info.json: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(InfoPath(dir)), 0o755); err != nil {
		return nil, fmt.Errorf("write info.json: %w", err)
	}
	if err := atomicfile.WriteFile(InfoPath(dir), append(js, '\n')); err != nil {
		return nil, err
	}
	return info, nil
}

// finish fills the derived fields.
func (info *Info) finish() {
	info.Complete = info.PartsPresent == info.Parts
	info.WinRate = info.Totals.WinRate()
	if info.Totals.Episodes > 0 {
		info.MeanReturn = info.Totals.ReturnSum / float64(info.Totals.Episodes)
	}
}

// Part is one part of a dataset as found on disk.
type Part struct {
	// Part is the part number.
	Part int
	// Steps and Episodes are the paths of its files ("" when missing).
	Steps, Episodes string
	// Totals are the part's totals (from its episodes file).
	Totals Totals
}

// Dataset is an open dataset directory: its metadata and the parts present.
type Dataset struct {
	// Dir is the dataset directory.
	Dir string
	// Meta is the dataset's metadata.
	Meta Meta
	// Parts are the parts with at least one file, by part number.
	Parts []Part
	// Complete counts the parts with both files; Totals sum them.
	Complete int
	Totals   Totals
	// Temporary lists leftover temporary files: of a generation running
	// now, or of a killed one (Stale), which the same generate command
	// removes.
	Temporary []atomicfile.Temp
}

// Open opens a dataset directory: it reads the metadata of every file and
// checks that they belong to one dataset.
func Open(dir string) (*Dataset, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", dir)
	}
	d := &Dataset{Dir: dir}
	parts := map[int]*Part{}
	var first string
	for _, table := range []string{TableSteps, TableEpisodes} {
		entries, err := os.ReadDir(filepath.Join(dir, table))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		temps, err := atomicfile.Temps(filepath.Join(dir, table))
		if err != nil {
			return nil, err
		}
		d.Temporary = append(d.Temporary, temps...)
		for _, e := range entries {
			name := e.Name()
			path := filepath.Join(dir, table, name)
			if e.IsDir() || strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".parquet") {
				continue
			}
			f, err := OpenFile(path)
			if err != nil {
				return nil, err
			}
			f.Close()
			if first == "" {
				first, d.Meta = path, f.Meta.Meta
			} else if diff := diffMeta(&f.Meta.Meta, &d.Meta); diff != "" {
				return nil, fmt.Errorf("%s: the files belong to different datasets: %s and %s differ (%s)", dir, path, first, diff)
			}
			if f.Meta.Table != table {
				return nil, fmt.Errorf("%s: %w: a %s file in %s/", path, ErrCorrupt, f.Meta.Table, table)
			}
			if name != partName(f.Meta.Part) {
				return nil, fmt.Errorf("%s: %w: the file holds part %d, its name says otherwise", path, ErrCorrupt, f.Meta.Part)
			}
			p := parts[f.Meta.Part]
			if p == nil {
				p = &Part{Part: f.Meta.Part}
				parts[f.Meta.Part] = p
			}
			if table == TableSteps {
				p.Steps = path
			} else {
				p.Episodes = path
				p.Totals = f.Meta.Totals
			}
		}
	}
	if first == "" {
		return nil, fmt.Errorf("%s: %w (no steps/*.parquet or episodes/*.parquet files)", dir, ErrNotDataset)
	}
	for _, p := range parts {
		d.Parts = append(d.Parts, *p)
		if p.Steps != "" && p.Episodes != "" {
			d.Complete++
			d.Totals.add(p.Totals)
		}
	}
	sort.Slice(d.Parts, func(i, j int) bool { return d.Parts[i].Part < d.Parts[j].Part })
	return d, nil
}

// Part returns the part holding episode k, or an error naming what is
// missing.
func (d *Dataset) Part(k int64) (*Part, error) {
	if k < 0 || k >= d.Meta.Episodes {
		return nil, fmt.Errorf("%s: no episode %d: the dataset has episodes 0..%d", d.Dir, k, d.Meta.Episodes-1)
	}
	p := d.Meta.PartOf(k)
	i := sort.Search(len(d.Parts), func(i int) bool { return d.Parts[i].Part >= p })
	if i == len(d.Parts) || d.Parts[i].Part != p {
		return nil, fmt.Errorf("%s: episode %d is in part %d, which is not in this directory (another shard?)", d.Dir, k, p)
	}
	return &d.Parts[i], nil
}

// ReadEpisodes calls fn with the episode rows of every part present, in
// order of episode, in batches reused after fn returns.
func (d *Dataset) ReadEpisodes(fn func([]Episode) error) error {
	for _, p := range d.Parts {
		if p.Episodes == "" {
			continue
		}
		f, err := OpenFile(p.Episodes)
		if err != nil {
			return err
		}
		err = f.ReadEpisodes(fn)
		f.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// Episode returns episode k's row (nil when its episodes file is missing)
// and its steps rows.
func (d *Dataset) Episode(k int64) (*Episode, []Step, error) {
	p, err := d.Part(k)
	if err != nil {
		return nil, nil, err
	}
	if p.Steps == "" {
		return nil, nil, fmt.Errorf("%s: the steps file of part %d is missing", d.Dir, p.Part)
	}
	var ep *Episode
	if p.Episodes != "" {
		ep, err = episodeRow(p.Episodes, k)
		if err != nil {
			return nil, nil, err
		}
	}
	f, err := OpenFile(p.Steps)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	steps, err := f.EpisodeSteps(k)
	if err != nil {
		return nil, nil, err
	}
	return ep, steps, nil
}

// episodeRow reads episode k's row from an episodes file.
func episodeRow(path string, k int64) (*Episode, error) {
	f, err := OpenFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.episodeRow(k)
}

// episodeRow reads episode k's row from the episodes file f.
func (f *File) episodeRow(k int64) (*Episode, error) {
	var ep *Episode
	err := f.ReadEpisodes(func(rows []Episode) error {
		for i := range rows {
			if rows[i].EpisodeIndex == k {
				c := rows[i]
				c.FinalObs = append([]byte(nil), c.FinalObs...)
				ep = &c
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if ep == nil {
		return nil, fmt.Errorf("%s: %w: no row for episode %d", f.Name, ErrCorrupt, k)
	}
	return ep, nil
}

// MetaOf returns the metadata of the dataset in dir as far as it can be
// read: from meta/info.json, or else from the first part file that opens.
// It serves to say how to repair a damaged dataset.
func MetaOf(dir string) (*Meta, error) {
	if js, err := os.ReadFile(InfoPath(dir)); err == nil {
		var info Info
		if err := unmarshalMeta(js, &info, &info.Meta); err == nil && info.SchemaVersion >= 1 && info.SchemaVersion <= SchemaVersion {
			return &info.Meta, nil
		}
	}
	for _, table := range []string{TableEpisodes, TableSteps} {
		names, _ := filepath.Glob(filepath.Join(dir, table, "part-*.parquet"))
		for _, name := range names {
			if f, err := OpenFile(name); err == nil {
				f.Close()
				return &f.Meta.Meta, nil
			}
		}
	}
	return nil, fmt.Errorf("%s: %w (neither meta/info.json nor any part file can be read)", dir, ErrNotDataset)
}

// ErrOtherDataset: a directory to write into holds another dataset.
var ErrOtherDataset = errors.New("already holds a different dataset")

// ErrNoEpisode: the episode asked for is not in the file or dataset.
var ErrNoEpisode = errors.New("no such episode")

// Recorded is one recorded episode: its dataset's metadata, its episode row
// (nil when the episodes file is missing) and its steps rows.
type Recorded struct {
	Meta  *Meta
	Row   *Episode
	Steps []Step
}

// LoadEpisode reads episode k from a dataset directory, a steps file or an
// episodes file (finding the other table's file of the same part beside
// it). Without its episodes file, a steps file gives the steps alone.
func LoadEpisode(path string, k int64) (*Recorded, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		d, err := Open(path)
		if err != nil {
			return nil, err
		}
		if k < 0 || k >= d.Meta.Episodes {
			return nil, fmt.Errorf("%s: %w %d: the dataset has episodes 0..%d", path, ErrNoEpisode, k, d.Meta.Episodes-1)
		}
		ep, steps, err := d.Episode(k)
		if err != nil {
			return nil, err
		}
		return &Recorded{Meta: &d.Meta, Row: ep, Steps: steps}, nil
	}
	f, err := OpenFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fm := &f.Meta
	if k < fm.PartFirstEpisode || k >= fm.PartFirstEpisode+fm.PartEpisodes {
		return nil, fmt.Errorf("%s: %w %d: the file holds episodes %d..%d", path, ErrNoEpisode, k, fm.PartFirstEpisode, fm.PartFirstEpisode+fm.PartEpisodes-1)
	}
	sp, ep := partPaths(filepath.Dir(filepath.Dir(path)), fm.Part)
	other := ep
	if fm.Table == TableEpisodes {
		other = sp
	}
	stepsFile, epFile := f, (*File)(nil)
	if fm.Table == TableEpisodes {
		stepsFile, epFile = nil, f
	}
	if _, err := os.Stat(other); err == nil || fm.Table == TableEpisodes {
		g, err := OpenFile(other)
		if err != nil {
			return nil, fmt.Errorf("episode %d: %w", k, err)
		}
		defer g.Close()
		if d := g.Meta.Diff(&fm.Meta); d != "" {
			return nil, fmt.Errorf("%s and %s belong to different datasets (%s)", path, other, d)
		}
		if fm.Table == TableEpisodes {
			stepsFile = g
		} else {
			epFile = g
		}
	}
	steps, err := stepsFile.EpisodeSteps(k)
	if err != nil {
		return nil, err
	}
	rec := &Recorded{Meta: &fm.Meta, Steps: steps}
	if epFile != nil {
		if rec.Row, err = epFile.episodeRow(k); err != nil {
			return nil, err
		}
	}
	return rec, nil
}
