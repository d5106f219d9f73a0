package datasets

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// benchEpisodes is the number of cromwell episodes (random agent, about 970
// steps each) written by one benchmark iteration.
const benchEpisodes = 100

// benchGenerate generates benchEpisodes episodes per iteration with workers
// workers and reports steps rows per second.
func benchGenerate(b *testing.B, workers int) {
	var rows int64
	root := b.TempDir()
	i := 0
	for b.Loop() {
		i++
		cfg := Config{Game: gameSpec("cromwell"), Agent: agentOf("random"), Episodes: benchEpisodes, PartSize: benchEpisodes / max(workers, 1),
			Workers: workers, Out: filepath.Join(root, "run", string(rune('a'+i%26)), itoa(i))}
		sum, err := Generate(context.Background(), cfg)
		if err != nil {
			b.Fatal(err)
		}
		rows += sum.Written.Steps
	}
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
}

func itoa(i int) string {
	var s []byte
	for {
		s = append([]byte{byte('0' + i%10)}, s...)
		i /= 10
		if i == 0 {
			return string(s)
		}
	}
}

// BenchmarkGenerate is the whole pipeline on one worker: play the episodes
// with the random agent, fill the rows, write and compress the steps and
// episodes files, sync, rename, and write info.json.
func BenchmarkGenerate(b *testing.B) { benchGenerate(b, 1) }

// BenchmarkGenerateAllCores is the pipeline with one worker per core.
func BenchmarkGenerateAllCores(b *testing.B) { benchGenerate(b, runtime.GOMAXPROCS(0)) }

// benchWorker is a worker of the plan of benchEpisodes episodes of
// Cromwell by the random agent, as BenchmarkGenerate plays them.
func benchWorker(b *testing.B) *worker {
	cfg := Config{Game: gameSpec("cromwell"), Agent: agentOf("random"), Episodes: benchEpisodes, Out: b.TempDir()}
	plan, err := NewPlan(cfg)
	if err != nil {
		b.Fatal(err)
	}
	w, err := plan.newWorker()
	if err != nil {
		b.Fatal(err)
	}
	return w
}

// BenchmarkRawWrite writes the same steps rows as BenchmarkGenerate, played
// beforehand and held in memory, with a bare parquet-go writer of the same
// settings into a file: the ceiling the pipeline is measured against.
func BenchmarkRawWrite(b *testing.B) {
	w := benchWorker(b)
	var episodes [][]Step
	var total int64
	for i := range int64(benchEpisodes) {
		if _, err := w.play(context.Background(), i); err != nil {
			b.Fatal(err)
		}
		rows := make([]Step, len(w.rows))
		for j, r := range w.rows {
			r.Obs, r.LegalMask = append([]byte(nil), r.Obs...), append([]byte(nil), r.LegalMask...)
			rows[j] = r
		}
		episodes = append(episodes, rows)
		total += int64(len(rows))
	}
	path := filepath.Join(b.TempDir(), "raw.parquet")
	var rows int64
	for b.Loop() {
		f, err := os.Create(path)
		if err != nil {
			b.Fatal(err)
		}
		pw := NewParquetWriter[Step](f, GeneratorVersion, byteColumns...)
		inGroup := 0
		for _, ep := range episodes {
			if _, err := pw.Write(ep); err != nil {
				b.Fatal(err)
			}
			if inGroup += len(ep); inGroup >= RowGroupRows {
				if err := pw.Flush(); err != nil {
					b.Fatal(err)
				}
				inGroup = 0
			}
		}
		if err := pw.Close(); err != nil {
			b.Fatal(err)
		}
		f.Close()
		rows += total
	}
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkPlay plays the same episodes and fills the rows without writing
// them: the game's and the agent's share of BenchmarkGenerate.
func BenchmarkPlay(b *testing.B) {
	w := benchWorker(b)
	var rows int64
	for b.Loop() {
		for i := range int64(benchEpisodes) {
			if _, err := w.play(context.Background(), i); err != nil {
				b.Fatal(err)
			}
			rows += int64(len(w.rows))
		}
	}
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
}
