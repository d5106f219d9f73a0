package datasets

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// InfoPath returns the path of meta/info.json in dataset directory dir.
func InfoPath(dir string) string { return filepath.Join(dir, "meta", "info.json") }

// partPaths returns the final paths of part p's steps and episodes files.
func partPaths(dir string, p int) (steps, episodes string) {
	name := partName(p)
	return filepath.Join(dir, TableSteps, name), filepath.Join(dir, TableEpisodes, name)
}

// checkExisting refuses to write into dir if it holds another dataset: its
// info.json or any of its finished files with a different Meta.
func checkExisting(dir string, m *Meta) error {
	if js, err := os.ReadFile(InfoPath(dir)); err == nil {
		var info Info
		if err := json.Unmarshal(js, &info); err != nil {
			return fmt.Errorf("%s: not valid JSON (%v); remove it or choose another --out", InfoPath(dir), err)
		}
		if d := diffMeta(m, &info.Meta); d != "" {
			return fmt.Errorf("%s already holds a different dataset (%s); choose another --out, or repeat the flags it was made with", dir, d)
		}
	}
	for _, table := range []string{TableSteps, TableEpisodes} {
		names, _ := filepath.Glob(filepath.Join(dir, table, "part-*.parquet"))
		for _, name := range names {
			f, err := OpenFile(name)
			if err != nil {
				if errors.Is(err, ErrSchemaVersion) {
					return fmt.Errorf("%s already holds a dataset of another schema version: %w", dir, err)
				}
				continue // damaged: a rerun will replace it if it is ours
			}
			f.Close()
			if d := diffMeta(m, &f.Meta.Meta); d != "" {
				return fmt.Errorf("%s already holds a different dataset (%s, in %s); choose another --out, or repeat the flags it was made with", dir, d, name)
			}
			break
		}
	}
	return nil
}

// partDone reports whether part p is finished in dir: both files exist and
// are complete files of the dataset m. Files of another dataset are an error;
// missing, damaged or incomplete ones mean the part is to be written again.
func partDone(dir string, m *Meta, p int) (bool, error) {
	_, ok, err := partTotals(dir, m, p)
	return ok, err
}

// partTotals returns the totals of part p when it is finished.
func partTotals(dir string, m *Meta, p int) (Totals, bool, error) {
	sp, ep := partPaths(dir, p)
	var tot Totals
	for _, path := range []string{sp, ep} {
		if _, err := os.Stat(path); err != nil {
			return tot, false, nil
		}
	}
	for i, path := range []string{sp, ep} {
		f, err := OpenFile(path)
		if err != nil {
			if errors.Is(err, ErrSchemaVersion) {
				return tot, false, err
			}
			return tot, false, nil
		}
		f.Close()
		if d := diffMeta(m, &f.Meta.Meta); d != "" {
			return tot, false, fmt.Errorf("%s belongs to a different dataset (%s); choose another --out, or repeat the flags it was made with", path, d)
		}
		if f.Meta.Part != p || f.Meta.Table != []string{TableSteps, TableEpisodes}[i] {
			return tot, false, nil
		}
		if i == 1 {
			tot = f.Meta.Totals
		}
	}
	return tot, true, nil
}

// WriteInfo rewrites dir/meta/info.json for dataset m with the totals of the
// finished parts present, and returns it.
func WriteInfo(dir string, m *Meta) (*Info, error) {
	info := &Info{Meta: *m, Layout: layoutDoc}
	for p := 0; p < m.Parts; p++ {
		t, ok, err := partTotals(dir, m, p)
		if err != nil {
			return nil, err
		}
		if !ok {
			if len(info.Missing) < 100 {
				info.Missing = append(info.Missing, p)
			}
			continue
		}
		info.PartsPresent++
		info.Totals.add(t)
	}
	info.finish()
	js, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode info.json: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(InfoPath(dir)), 0o755); err != nil {
		return nil, fmt.Errorf("write info.json: %w", err)
	}
	t, err := createTemp(filepath.Dir(InfoPath(dir)), "info.json")
	if err != nil {
		return nil, err
	}
	defer t.abort()
	if _, err := t.f.Write(append(js, '\n')); err != nil {
		return nil, fmt.Errorf("write info.json: %w", err)
	}
	if err := t.commit(); err != nil {
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
	// Temporary lists leftover temporary files (of a running or killed
	// generation).
	Temporary []string
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
		for _, e := range entries {
			name := e.Name()
			path := filepath.Join(dir, table, name)
			if strings.HasPrefix(name, ".") && strings.HasSuffix(name, ".tmp") {
				d.Temporary = append(d.Temporary, path)
				continue
			}
			if e.IsDir() || !strings.HasSuffix(name, ".parquet") {
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
	var ep *Episode
	err = f.ReadEpisodes(func(rows []Episode) error {
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
		return nil, fmt.Errorf("%s: %w: no row for episode %d", path, ErrCorrupt, k)
	}
	return ep, nil
}
