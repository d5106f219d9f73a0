package datasets

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/env"
	_ "github.com/patience-gym/patience/env/all"
)

// small is a quick configuration: short episodes, several parts.
// agentOf parses an agent string.
func agentOf(s string) *agents.Factory {
	f, err := agents.Parse(s)
	if err != nil {
		panic(err)
	}
	return f
}

// gameSpec returns the named game's Spec.
func gameSpec(name string) *env.Spec {
	spec, err := env.Lookup(name)
	if err != nil {
		panic(err)
	}
	return spec
}

func small(out string) Config {
	return Config{Game: gameSpec("cromwell"), Agent: agentOf("random"), Episodes: 23, SeedStart: 100, MaxSteps: 60, PartSize: 5, Workers: 2, Out: out}
}

func generate(t testing.TB, cfg Config) *Summary {
	t.Helper()
	sum, err := Generate(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

// reference plays the episodes of cfg with agents.Play, independently of
// the writer's loop, and returns the rows the dataset must hold (wall times
// zero).
func reference(t *testing.T, cfg Config) ([]Step, []Episode) {
	t.Helper()
	spec := cfg.Game
	maxSteps := cfg.MaxSteps
	if maxSteps == 0 {
		maxSteps = spec.MaxSteps
	}
	partSize := cfg.PartSize
	if partSize == 0 {
		partSize = AutoPartSize(cfg.Episodes)
	}
	e, _ := env.Make(cfg.Game.ID(), env.Options{MaxSteps: maxSteps, Reward: cfg.Reward})
	check, _ := env.Make(cfg.Game.ID(), env.Options{MaxSteps: maxSteps, Reward: cfg.Reward})
	agent := cfg.Agent.New()
	var steps []Step
	var eps []Episode
	for i := int64(0); i < cfg.Episodes; i++ {
		seed := cfg.SeedStart + uint64(i)
		base := i * int64(maxSteps)
		var rows []Step
		res, err := agents.Play(e, agent, seed, uint64(int64(seed)+cfg.AgentSeedOffset), func(e *env.Env, a int) bool {
			n := len(rows)
			rows = append(rows, Step{EpisodeIndex: i, Step: int32(n), Index: base + int64(n), Game: spec.Name,
				Obs: bytes.Clone(e.Observation()), LegalMask: e.Mask().AppendPacked(nil), Action: int32(a), ActionName: e.ActionString(a)})
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
		// The rewards and flags, from a second environment.
		check.Reset(seed)
		for j := range rows {
			_, r, term, trunc, _, err := check.Step(int(rows[j].Action))
			if err != nil {
				t.Fatal(err)
			}
			rows[j].Reward, rows[j].Terminated, rows[j].Truncated = r, term, trunc
		}
		steps = append(steps, rows...)
		eps = append(eps, Episode{EpisodeIndex: i, Game: spec.Name, RulesVersion: int32(spec.RulesVersion), DealSeed: int64(seed),
			Agent: agent.Name(), AgentSeed: int64(seed) + cfg.AgentSeedOffset, Length: int32(res.Steps), Return: res.Return,
			Outcome: res.Outcome.String(), Class: res.Class, Progress: int32(res.Progress), FinalObs: bytes.Clone(e.Observation()),
			IndexFrom: base, IndexTo: base + int64(res.Steps), StepsFile: "steps/" + partName(int(i)/partSize)})
	}
	return steps, eps
}

// openDataset opens the dataset in dir, failing t on an error.
func openDataset(t *testing.T, dir string) *Dataset {
	t.Helper()
	d, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// eachStepsFile opens the steps file of each part of d in turn and reads it
// with read, failing t on an error.
func eachStepsFile(t *testing.T, d *Dataset, read func(f *File) error) {
	t.Helper()
	for _, p := range d.Parts {
		f, err := OpenFile(p.Steps)
		if err != nil {
			t.Fatal(err)
		}
		err = read(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
}

// replayAll replays the first n episodes of d, failing t unless each
// replays to its recorded end without a difference.
func replayAll(t *testing.T, d *Dataset, n int64) {
	t.Helper()
	for k := range n {
		ep, steps, err := d.Episode(k)
		if err != nil {
			t.Fatal(err)
		}
		if r, err := Replay(&d.Meta, k, ep, steps, nil); err != nil || len(r.Diffs) > 0 || !r.End.Done() {
			t.Fatalf("episode %d: %v %v", k, r, err)
		}
	}
}

// readAll reads every row of a dataset with the package's reader.
func readAll(t *testing.T, dir string) ([]Step, []Episode) {
	t.Helper()
	d := openDataset(t, dir)
	var steps []Step
	var eps []Episode
	eachStepsFile(t, d, func(f *File) error {
		return f.ReadSteps(func(rows []Step) error {
			for _, r := range rows {
				r.Obs, r.LegalMask = bytes.Clone(r.Obs), bytes.Clone(r.LegalMask)
				steps = append(steps, r)
			}
			return nil
		})
	})
	err := d.ReadEpisodes(func(rows []Episode) error {
		for _, r := range rows {
			r.FinalObs = bytes.Clone(r.FinalObs)
			r.WallTimeMicros = 0
			eps = append(eps, r)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return steps, eps
}

func compareRows[T any](t *testing.T, what string, got, want []T) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d rows, want %d", what, len(got), len(want))
	}
	for i := range got {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Fatalf("%s row %d:\n got %+v\nwant %+v", what, i, got[i], want[i])
		}
	}
}

func TestRoundTripParquetGo(t *testing.T) {
	dir := t.TempDir()
	cfg := small(dir)
	sum := generate(t, cfg)
	if sum.Info == nil || !sum.Info.Complete || sum.Info.Totals.Episodes != cfg.Episodes || sum.Meta.Parts != 5 {
		t.Fatalf("info %+v", sum.Info)
	}
	wantSteps, wantEps := reference(t, cfg)
	gotSteps, gotEps := readAll(t, dir)
	compareRows(t, "steps", gotSteps, wantSteps)
	compareRows(t, "episodes", gotEps, wantEps)
	// The bytes survived: observations are not empty and not all zero.
	if len(gotSteps[0].Obs) != 739 || bytes.Count(gotSteps[0].Obs, []byte{0}) == 739 || len(gotSteps[0].LegalMask) != 140 {
		t.Fatalf("obs %v mask %v", gotSteps[0].Obs, gotSteps[0].LegalMask)
	}
	// Totals in info.json agree with the rows.
	var steps int64
	for _, e := range gotEps {
		steps += int64(e.Length)
	}
	if sum.Info.Totals.Steps != steps || int64(len(gotSteps)) != steps {
		t.Fatalf("info steps %d, rows %d, lengths %d", sum.Info.Totals.Steps, len(gotSteps), steps)
	}
	js, err := os.ReadFile(InfoPath(dir))
	if err != nil {
		t.Fatal(err)
	}
	var info Info
	if err := json.Unmarshal(js, &info); err != nil || info.Meta.Diff(&sum.Meta) != "" || info.Totals != sum.Info.Totals {
		t.Fatalf("info.json %s: %v", js, err)
	}
	// Permissions: readable by others, like any file.
	if st, _ := os.Stat(filepath.Join(dir, "steps", partName(0))); st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v", st.Mode())
	}
}

// TestRoundTripEveryGame writes, reads back and replays a few short
// episodes of every registered game (the hidden-card ones above all: their
// observations hide cards that replay must deal again).
func TestRoundTripEveryGame(t *testing.T) {
	for _, spec := range env.Specs() {
		t.Run(spec.Name, func(t *testing.T) {
			dir := t.TempDir()
			cfg := Config{Game: spec, Agent: agentOf("random"), Episodes: 6, SeedStart: 7, MaxSteps: 80, PartSize: 4, Out: dir}
			generate(t, cfg)
			wantSteps, wantEps := reference(t, cfg)
			gotSteps, gotEps := readAll(t, dir)
			compareRows(t, "steps", gotSteps, wantSteps)
			compareRows(t, "episodes", gotEps, wantEps)
			replayAll(t, openDataset(t, dir), cfg.Episodes)
		})
	}
}

// files returns the contents of the .parquet files of dir/table by name.
func files(t *testing.T, dir, table string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	names, _ := filepath.Glob(filepath.Join(dir, table, "*"))
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(n)] = b
	}
	return out
}

func sameFiles(t *testing.T, what string, a, b map[string][]byte) {
	t.Helper()
	if len(a) != len(b) || len(a) == 0 {
		t.Fatalf("%s: %d files and %d files", what, len(a), len(b))
	}
	for n, x := range a {
		if !bytes.Equal(x, b[n]) {
			t.Fatalf("%s: %s differs", what, n)
		}
	}
}

func TestDeterminism(t *testing.T) {
	root := t.TempDir()
	run := func(name string, workers, shard, shards int) string {
		cfg := small(filepath.Join(root, name))
		cfg.Workers, cfg.Shard, cfg.Shards = workers, shard, shards
		generate(t, cfg)
		return cfg.Out
	}
	a := run("a", 2, 0, 1)
	b := run("b", 2, 0, 1)
	c := run("c", 1, 0, 1)
	// Three machines, one directory each, merged afterwards.
	for i := range 3 {
		run("d", 3, i, 3)
	}
	ref := files(t, a, TableSteps)
	sameFiles(t, "same command twice", ref, files(t, b, TableSteps))
	sameFiles(t, "one worker against two", ref, files(t, c, TableSteps))
	sameFiles(t, "three shards", ref, files(t, a, TableSteps))
	sameFiles(t, "three shards", ref, files(t, root+"/d", TableSteps))
	// Episodes differ only in wall time.
	_, ea := readAll(t, a)
	_, ed := readAll(t, root+"/d")
	compareRows(t, "episodes", ea, ed)
}

func TestShardParts(t *testing.T) {
	seen := map[int]int{}
	for n := 1; n <= 7; n++ {
		clear(seen)
		for i := range n {
			lo, hi := ShardRange(20, i, n)
			for p := lo; p < hi; p++ {
				seen[p]++
			}
		}
		for p := range 20 {
			if seen[p] != 1 {
				t.Fatalf("%d shards: part %d taken %d times", n, p, seen[p])
			}
		}
	}
	if lo, hi := ShardRange(3, 0, 5); hi != lo {
		t.Errorf("shard 0/5 of 3 parts: %d..%d", lo, hi)
	}
	for _, c := range []struct {
		episodes int64
		size     int
	}{{1, 25}, {200, 25}, {1600, 50}, {10_000, 250}, {32_000, 1000}, {5_000_000, 1000}} {
		if got := AutoPartSize(c.episodes); got != c.size {
			t.Errorf("AutoPartSize(%d) = %d, want %d", c.episodes, got, c.size)
		}
	}
}

// finalFiles lists the files under final names and the temporary ones.
func finalFiles(t *testing.T, dir string) (final, temp []string) {
	t.Helper()
	for _, table := range []string{TableSteps, TableEpisodes, "meta"} {
		entries, _ := os.ReadDir(filepath.Join(dir, table))
		for _, e := range entries {
			p := filepath.Join(dir, table, e.Name())
			if strings.HasSuffix(e.Name(), ".tmp") {
				temp = append(temp, p)
			} else {
				final = append(final, p)
			}
		}
	}
	sort.Strings(final)
	return final, temp
}

// wholeFiles fails t if dir holds a temporary file, or a Parquet file
// under a final name that does not open as a whole one; it returns how
// many Parquet files it holds.
func wholeFiles(t *testing.T, dir string) (parts int) {
	t.Helper()
	final, temp := finalFiles(t, dir)
	if len(temp) > 0 {
		t.Fatalf("temporary files left: %v", temp)
	}
	for _, f := range final {
		if strings.HasSuffix(f, ".parquet") {
			df, err := OpenFile(f)
			if err != nil {
				t.Fatalf("a file under a final name is not complete: %v", err)
			}
			df.Close()
			parts++
		}
	}
	return parts
}

// beside generates the small dataset into a directory ref and returns its
// config, and that of the same dataset in another directory, x: what a
// test writes and then compares with the reference.
func beside(t *testing.T) (ref, x Config) {
	t.Helper()
	root := t.TempDir()
	ref = small(filepath.Join(root, "ref"))
	generate(t, ref)
	return ref, small(filepath.Join(root, "x"))
}

func TestCancelLeavesNoPartialFileAndRerunCompletes(t *testing.T) {
	ref, cfg := beside(t)
	ctx, cancel := context.WithCancel(context.Background())
	var n atomic.Int64
	cfg.OnEpisode = func(int) {
		if n.Add(1) == 12 {
			cancel()
		}
	}
	_, err := Generate(ctx, cfg)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	parts := wholeFiles(t, cfg.Out)
	if parts >= 10 {
		t.Fatalf("%d files: the cancel did not stop the run", parts)
	}

	cfg.OnEpisode = nil
	sum := generate(t, cfg)
	if sum.Skipped*2 != parts-parts%2 || sum.Skipped+len(sum.Wrote) != 5 || sum.Todo != len(sum.Wrote) {
		t.Errorf("rerun skipped %d and wrote %v, after %d files", sum.Skipped, sum.Wrote, parts)
	}
	sameFiles(t, "after the rerun", files(t, ref.Out, TableSteps), files(t, cfg.Out, TableSteps))
	if !sum.Info.Complete {
		t.Error("info says incomplete")
	}
}

func TestRerunSkipsAndRefusesAnotherDataset(t *testing.T) {
	dir := t.TempDir()
	cfg := small(dir)
	generate(t, cfg)
	before := files(t, dir, TableEpisodes)
	sum := generate(t, cfg)
	if len(sum.Wrote) != 0 || sum.Skipped != 5 || sum.Written.Episodes != 0 {
		t.Fatalf("rerun wrote %v", sum.Wrote)
	}
	sameFiles(t, "untouched", before, files(t, dir, TableEpisodes))

	other := cfg
	other.AgentSeedOffset = 1
	_, err := Generate(context.Background(), other)
	if err == nil || !strings.Contains(err.Error(), "already holds a different dataset") || !strings.Contains(err.Error(), "made with --agent-seed-offset 0, not 1") {
		t.Fatalf("err %v", err)
	}
	// Without info.json, the files themselves tell.
	os.Remove(InfoPath(dir))
	other.MaxSteps = 61
	other.AgentSeedOffset = 0
	if _, err := Generate(context.Background(), other); err == nil || !strings.Contains(err.Error(), "made with --max-steps 60, not 61") {
		t.Fatalf("err %v", err)
	}
	// A damaged part is written again.
	p := filepath.Join(dir, TableEpisodes, partName(2))
	os.WriteFile(p, []byte("PAR1 broken"), 0o644)
	sum = generate(t, cfg)
	if !reflect.DeepEqual(sum.Wrote, []int{2}) {
		t.Fatalf("rewrote %v, want part 2", sum.Wrote)
	}
}

func TestConfigErrors(t *testing.T) {
	for _, c := range []struct {
		mod  func(*Config)
		want string
	}{
		{func(c *Config) { c.SeedStart = 1 << 63 }, "run from 0 to 2^63-1"},
		{func(c *Config) { c.SeedStart = 1<<63 - 10 }, "run from 0 to 2^63-1"},
		{func(c *Config) { c.AgentSeedOffset = -101 }, "agent seed offset"},
		{func(c *Config) { c.AgentSeedOffset = 1<<63 - 110 }, "agent seed offset"},
		{func(c *Config) { c.Episodes = 0 }, "must be positive"},
		{func(c *Config) { c.Game = nil }, "no game given"},
		{func(c *Config) { c.Game = gameSpec("cromwell:noswap") }, "cromwell:noswap is a variant of the rules"},
		{func(c *Config) { c.Agent = nil }, "no agent given"},
		{func(c *Config) { c.Shard, c.Shards = 3, 3 }, "shard 3/3"},
		{func(c *Config) { c.PartSize = -1 }, "part size"},
	} {
		cfg := small(t.TempDir())
		c.mod(&cfg)
		if _, err := NewPlan(cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("err %v, want %q", err, c.want)
		}
	}
	cfg := small(t.TempDir())
	cfg.SeedStart = 1<<63 - 23 // the last seed is 2^63-1: fine
	if _, err := NewPlan(cfg); err != nil {
		t.Error(err)
	}
}

// rewrite writes rows into path as a steps file with metadata fm.
func rewrite(t *testing.T, path string, rows []Step, fm FileMeta) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := NewParquetWriter[Step](f, GeneratorVersion, byteColumns...)
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	js, _ := json.Marshal(&fm)
	w.SetKeyValueMetadata(MetaKey, string(js))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

func TestReaderErrors(t *testing.T) {
	dir := t.TempDir()
	generate(t, small(dir))
	good := filepath.Join(dir, TableSteps, partName(1))
	data, _ := os.ReadFile(good)
	f, err := OpenFile(good)
	if err != nil {
		t.Fatal(err)
	}
	var rows []Step
	f.ReadSteps(func(r []Step) error {
		for _, s := range r {
			s.Obs, s.LegalMask = bytes.Clone(s.Obs), bytes.Clone(s.LegalMask)
			rows = append(rows, s)
		}
		return nil
	})
	fm := f.Meta
	f.Close()

	bad := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(bad, name)
		os.WriteFile(p, b, 0o644)
		return p
	}
	type foreign struct {
		A int64  `parquet:"a"`
		B string `parquet:"b"`
	}
	var fb bytes.Buffer
	if err := parquet.Write(&fb, []foreign{{1, "x"}, {2, "y"}}); err != nil {
		t.Fatal(err)
	}
	v3 := fm
	v3.SchemaVersion = 3
	rewrite(t, filepath.Join(bad, "v3.parquet"), rows, v3)
	short := fm
	short.Totals.Steps--
	rewrite(t, filepath.Join(bad, "count.parquet"), rows, short)
	wrongObs := fm
	wrongObs.ObsLen, wrongObs.Spec.ObsLen = 700, 700
	rewrite(t, filepath.Join(bad, "obslen.parquet"), rows, wrongObs)
	otherSpec := fm
	otherSpec.Spec.Actions++
	rewrite(t, filepath.Join(bad, "spec.parquet"), rows, otherSpec)

	for _, c := range []struct {
		path string
		is   error
		want string
	}{
		{write("truncated.parquet", data[:len(data)-100]), ErrNotParquet, "truncated"},
		{write("cut.parquet", data[:len(data)/2]), ErrNotParquet, "not a complete Parquet file"},
		{write("empty.parquet", nil), ErrNotParquet, "0 bytes"},
		{write("text.parquet", []byte("episode_index,step\n1,2\n")), ErrNotParquet, "magic"},
		{write("foreign.parquet", fb.Bytes()), ErrNotDataset, "without the \"patience\" metadata"},
		{filepath.Join(bad, "v3.parquet"), ErrSchemaVersion, "schema version 3, this build of patience reads versions 1 to 2"},
		{filepath.Join(bad, "count.parquet"), ErrCorrupt, "rows, its metadata says"},
		{filepath.Join(bad, "spec.parquet"), ErrCorrupt, "is not the dataset's game"},
	} {
		_, err := OpenFile(c.path)
		if !errors.Is(err, c.is) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.path) {
			t.Errorf("%s: %v; want %v with %q", filepath.Base(c.path), err, c.is, c.want)
		}
	}
	// Rows that contradict the metadata are found when read.
	f, err = OpenFile(filepath.Join(bad, "obslen.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	err = f.ReadSteps(func([]Step) error { return nil })
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "observation has 739 bytes, want 700") {
		t.Errorf("err %v", err)
	}
	f.Close()
	// A directory without dataset files.
	if _, err := Open(t.TempDir()); !errors.Is(err, ErrNotDataset) {
		t.Errorf("empty directory: %v", err)
	}
}

func TestReplayFindsCorruptedRows(t *testing.T) {
	dir := t.TempDir()
	cfg := small(dir)
	generate(t, cfg)
	d := openDataset(t, dir)
	replayAll(t, d, cfg.Episodes)
	ep, steps, _ := d.Episode(7)
	steps[3].Obs[5] ^= 1
	steps[4].LegalMask[0] ^= 1
	steps[5].Reward += 1
	ep.Outcome = "won"
	r, err := Replay(&d.Meta, 7, ep, steps, nil)
	if err != nil {
		t.Fatal(err)
	}
	diffs := r.Diffs
	var got []string
	for _, df := range diffs {
		got = append(got, df.String())
	}
	want := []string{"step 3: obs: 1 cells differ: cell 5 (fans[5])", "step 4: legal_mask:", "step 5: reward:", "episode row: outcome: recorded won"}
	if len(got) != len(want) {
		t.Fatalf("differences %q", got)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("difference %q, want %q...", got[i], want[i])
		}
	}
	// An action the environment refuses stops the replay.
	_, steps, _ = d.Episode(8)
	steps[2].Action = steps[1].Action
	r, _ = Replay(&d.Meta, 8, nil, steps, nil)
	diffs = r.Diffs
	if r.End.Steps() != 2 {
		t.Errorf("the replay stopped after %d steps, want 2", r.End.Steps())
	}
	if last := diffs[len(diffs)-1]; last.Field != "action" && last.Field != "action_name" {
		t.Errorf("differences %v", diffs)
	}
	// A recording cut short.
	_, steps, _ = d.Episode(9)
	r, _ = Replay(&d.Meta, 9, nil, steps[:10], nil)
	diffs = r.Diffs
	if len(diffs) != 1 || diffs[0].Field != "length" {
		t.Errorf("differences %v", diffs)
	}
}

func TestEpisodeStepsReadsOneEpisode(t *testing.T) {
	dir := t.TempDir()
	cfg := small(dir)
	generate(t, cfg)
	want, _ := reference(t, cfg)
	f, err := OpenFile(filepath.Join(dir, TableSteps, partName(2)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := f.EpisodeSteps(12)
	if err != nil {
		t.Fatal(err)
	}
	var w []Step
	for _, s := range want {
		if s.EpisodeIndex == 12 {
			w = append(w, s)
		}
	}
	compareRows(t, "episode 12", got, w)
	if _, err := f.EpisodeSteps(3); err == nil {
		t.Error("episode 3 is not in part 2")
	}
}

func TestManyRowGroups(t *testing.T) {
	defer func(n int) { rowGroupRows = n }(rowGroupRows)
	rowGroupRows = 100 // a row group every two episodes of 60 steps
	dir := t.TempDir()
	cfg := small(dir)
	generate(t, cfg)
	f, err := OpenFile(filepath.Join(dir, TableSteps, partName(1)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.NumRowGroups() < 3 {
		t.Fatalf("%d row groups", f.NumRowGroups())
	}
	wantSteps, wantEps := reference(t, cfg)
	gotSteps, gotEps := readAll(t, dir)
	compareRows(t, "steps", gotSteps, wantSteps)
	compareRows(t, "episodes", gotEps, wantEps)
	for k := int64(5); k < 10; k++ {
		got, err := f.EpisodeSteps(k)
		if err != nil {
			t.Fatal(err)
		}
		var w []Step
		for _, s := range wantSteps {
			if s.EpisodeIndex == k {
				w = append(w, s)
			}
		}
		compareRows(t, "one episode", got, w)
	}
}

func TestStats(t *testing.T) {
	d := describe([]float64{4, 1, 3, 2, 5})
	if d.Mean != 3 || d.Min != 1 || d.Max != 5 || d.Median != 3 || d.Q1 != 2 || d.Q3 != 4 || d.Std < 1.58 || d.Std > 1.59 {
		t.Errorf("%+v", d)
	}
	p, lo, hi := winRate(5, 200)
	if p != 0.025 || lo < 0.0107 || lo > 0.0108 || hi < 0.0571 || hi > 0.0572 {
		t.Errorf("Wilson(5, 200) = %v %v %v", p, lo, hi)
	}
}
