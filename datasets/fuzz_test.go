package datasets

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// FuzzReader feeds damaged and arbitrary bytes to the reader: it must return
// an error or rows, never panic or hang. The seed corpus holds a small steps
// file and a small episodes file, whole and cut.
func FuzzReader(f *testing.F) {
	dir := f.TempDir()
	cfg := Config{Game: gameSpec("cromwell"), Agent: agentOf("random"), Episodes: 2, MaxSteps: 12, PartSize: 2, Workers: 1, Out: dir}
	if _, err := Generate(context.Background(), cfg); err != nil {
		f.Fatal(err)
	}
	for _, table := range []string{TableSteps, TableEpisodes} {
		b, err := os.ReadFile(filepath.Join(dir, table, partName(0)))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		f.Add(b[:len(b)/2])
		f.Add(b[len(b)/2:])
	}
	f.Add([]byte("PAR1"))
	f.Add([]byte("PAR1\x00\x00\x00\x00PAR1"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		df, err := OpenReader(bytes.NewReader(data), int64(len(data)), "fuzz.parquet")
		if err != nil {
			return
		}
		switch df.Meta.Table {
		case TableSteps:
			_ = df.ReadSteps(func([]Step) error { return nil })
			_, _ = df.EpisodeSteps(df.Meta.PartFirstEpisode)
		case TableEpisodes:
			_ = df.ReadEpisodes(func([]Episode) error { return nil })
		}
	})
}
