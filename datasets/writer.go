package datasets

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/internal/atomicfile"
)

// NewParquetWriter returns a Parquet writer of rows of type T to out, with
// the settings of every file this module writes: zstd, a fixed created-by
// ("patience" and version, so that files do not depend on how the program
// was built), and no page bounds or statistics for the byte columns named
// (observations and masks: no query filters on them, and computing them
// compares long byte strings). The dataset tables are written with it, and
// so are the files of package labels.
func NewParquetWriter[T any](out io.Writer, version int, byteColumns ...string) *parquet.GenericWriter[T] {
	opts := []parquet.WriterOption{
		parquet.Compression(&parquet.Zstd),
		parquet.CreatedBy("patience", strconv.Itoa(version), "parquet-go"),
	}
	for _, c := range byteColumns {
		opts = append(opts, parquet.SkipPageBounds(c), parquet.SkipPageStatistics(c))
	}
	return parquet.NewGenericWriter[T](out, opts...)
}

// byteColumns are the byte columns of the dataset tables.
var byteColumns = []string{"obs", "legal_mask", "final_obs"}

// worker plays episodes and writes parts, one at a time. Each goroutine has
// its own.
type worker struct {
	dir       string
	onEpisode func(steps int)
	meta      *Meta
	env       *env.Env
	agent     agents.Agent
	names     []string // action names, filled as met

	rows []Step
	slab []byte
	// With move scores (scorer not nil): the moves weighed at each row's
	// step are scoreActs[scoreEnd[i-1]:scoreEnd[i]], scored scoreVals.
	scorer    agents.MoveScorer
	weighed   []agents.ScoredMove
	scoreActs []int32
	scoreVals []float32
	scoreEnd  []int
	scored    []ScoredStep
	stopped   atomic.Bool // set when the context is cancelled: checked every step
}

// newWorker makes a worker with its own environment and agent.
func (p *Plan) newWorker() (*worker, error) {
	e := p.proto.Clone()
	a := p.agent.New()
	if err := agents.Prepare(a, e.Spec()); err != nil {
		return nil, err
	}
	w := &worker{dir: p.cfg.Out, onEpisode: p.cfg.OnEpisode, meta: &p.Meta, env: e, agent: a,
		names: make([]string, p.Meta.Actions)}
	if p.Meta.MoveScores != "" {
		w.scorer = a.(agents.MoveScorer) // NewPlan checked it
	}
	return w, nil
}

// actionName returns the name of action a, computing it once: names do not
// depend on the state.
func (w *worker) actionName(a int) string {
	if a < 0 || a >= len(w.names) {
		return w.env.ActionString(a)
	}
	if w.names[a] == "" {
		w.names[a] = w.env.ActionString(a)
	}
	return w.names[a]
}

// play plays episode i into w.rows (whose byte fields alias w.slab, valid
// until the next call) and returns its episode row without FinalObs, which
// is w.env.Observation().
func (w *worker) play(ctx context.Context, i int64) (Episode, error) {
	m := w.meta
	start := clock()
	seed := m.SeedStart + i
	agentSeed := seed + m.AgentSeedOffset
	e := w.env
	e.Reset(uint64(seed))
	w.agent.Reset(uint64(agentSeed))
	w.rows = w.rows[:0]
	w.slab = w.slab[:0]
	w.scoreActs, w.scoreVals, w.scoreEnd = w.scoreActs[:0], w.scoreVals[:0], w.scoreEnd[:0]
	base := i * m.IndexStride
	stepBytes := m.ObsLen + m.MaskBytes
	for step := 0; !e.Done(); step++ {
		if w.stopped.Load() {
			return Episode{}, context.Cause(ctx)
		}
		off := len(w.slab)
		w.slab = append(w.slab, e.Observation()...)
		w.slab = e.Mask().AppendPacked(w.slab)
		a := w.agent.Act(agents.NewView(e))
		if w.scorer != nil {
			w.weighed = w.scorer.MoveScores(w.weighed[:0])
			for _, sm := range w.weighed {
				w.scoreActs = append(w.scoreActs, int32(sm.Action))
				w.scoreVals = append(w.scoreVals, float32(sm.Score))
			}
			w.scoreEnd = append(w.scoreEnd, len(w.scoreActs))
		}
		r, term, trunc, err := e.Advance(a)
		if err != nil {
			return Episode{}, fmt.Errorf("%s agent on %s deal %d, step %d: %w", m.Agent, m.Game, seed, step, err)
		}
		row := w.slab[off : off+stepBytes : off+stepBytes]
		w.rows = append(w.rows, Step{
			EpisodeIndex: i,
			Step:         int32(step),
			Index:        base + int64(step),
			Game:         m.Game,
			Obs:          row[:m.ObsLen:m.ObsLen],
			LegalMask:    row[m.ObsLen:],
			Action:       int32(a),
			ActionName:   w.actionName(a),
			Reward:       r,
			Terminated:   term,
			Truncated:    trunc,
		})
	}
	info := e.Info()
	n := int64(len(w.rows))
	return Episode{
		EpisodeIndex:   i,
		Game:           m.Game,
		RulesVersion:   int32(m.RulesVersion),
		DealSeed:       seed,
		Agent:          m.Agent,
		AgentSeed:      agentSeed,
		Length:         int32(n),
		Return:         e.Return(),
		Outcome:        info.Outcome.String(),
		Class:          info.Class,
		Progress:       int32(info.Progress),
		IndexFrom:      base,
		IndexTo:        base + n,
		WallTimeMicros: clock().Sub(start).Microseconds(),
	}, nil
}

// createFile starts writing a file atomically; tests replace it to inject
// failures.
var createFile = atomicfile.Create

// clock times episodes; tests stop it so that whole files, wall_time_us
// included, can be compared byte for byte.
var clock = time.Now

// wrapWriter wraps the writer of every Parquet file; tests replace it to
// inject write failures.
var wrapWriter = func(w io.Writer) io.Writer { return w }

// stepsWriter is the part of a Parquet writer of steps rows (Step or
// ScoredStep) that writePart uses besides Write.
type stepsWriter interface {
	Flush() error
	Close() error
	SetKeyValueMetadata(key, value string)
}

// newStepsWriter returns the steps writer of a part and the function that
// writes the rows of the episode just played, with their move scores when
// the dataset records them.
func (w *worker) newStepsWriter(out io.Writer) (stepsWriter, func() error) {
	if w.scorer == nil {
		sw := NewParquetWriter[Step](out, GeneratorVersion, byteColumns...)
		return sw, func() error { _, err := sw.Write(w.rows); return err }
	}
	sw := NewParquetWriter[ScoredStep](out, GeneratorVersion, byteColumns...)
	return sw, func() error {
		w.scored = w.scored[:0]
		from := 0
		for i := range w.rows {
			to := w.scoreEnd[i]
			w.scored = append(w.scored, ScoredStep{Step: w.rows[i],
				ScoreActions: w.scoreActs[from:to:to], Scores: w.scoreVals[from:to:to]})
			from = to
		}
		_, err := sw.Write(w.scored)
		return err
	}
}

// writePart plays and writes part p and returns its totals.
func (w *worker) writePart(ctx context.Context, p int) (tot Totals, err error) {
	w.stopped.Store(ctx.Err() != nil)
	defer context.AfterFunc(ctx, func() { w.stopped.Store(true) })()
	m := w.meta
	name := partName(p)
	stepsRel := TableSteps + "/" + name
	sp, ep := partPaths(w.dir, p)
	sf, err := createFile(sp)
	if err != nil {
		return tot, err
	}
	defer sf.Abort()
	ef, err := createFile(ep)
	if err != nil {
		return tot, err
	}
	defer ef.Abort()

	sw, writeSteps := w.newStepsWriter(wrapWriter(sf))
	ew := NewParquetWriter[Episode](wrapWriter(ef), GeneratorVersion, byteColumns...)
	first, n := m.partRange(p)
	var eps []Episode
	inGroup := 0
	for i := first; i < first+n; i++ {
		if err := ctx.Err(); err != nil {
			return tot, err
		}
		ep, err := w.play(ctx, i)
		if err != nil {
			return tot, err
		}
		if len(w.rows) > 0 {
			if err := writeSteps(); err != nil {
				return tot, fmt.Errorf("write %s: %w", stepsRel, err)
			}
		}
		inGroup += len(w.rows)
		if inGroup >= rowGroupRows {
			if err := sw.Flush(); err != nil {
				return tot, fmt.Errorf("write %s: %w", stepsRel, err)
			}
			inGroup = 0
		}
		ep.FinalObs = append([]byte(nil), w.env.Observation()...)
		ep.StepsFile = stepsRel
		eps = append(eps, ep)
		tot.Episodes++
		tot.Steps += int64(ep.Length)
		tot.ReturnSum += ep.Return
		switch ep.Outcome {
		case "won":
			tot.Won++
		case "lost":
			tot.Lost++
		case "truncated":
			tot.Truncated++
		}
		if w.onEpisode != nil {
			w.onEpisode(int(ep.Length))
		}
	}
	if _, err := ew.Write(eps); err != nil {
		return tot, fmt.Errorf("write episodes of part %d: %w", p, err)
	}
	for _, x := range []struct {
		table string
		kv    interface{ SetKeyValueMetadata(k, v string) }
	}{{TableSteps, sw}, {TableEpisodes, ew}} {
		fm := FileMeta{Meta: *m, Table: x.table, Part: p, PartFirstEpisode: first, PartEpisodes: n, Totals: tot}
		js, err := json.Marshal(&fm)
		if err != nil {
			return tot, fmt.Errorf("encode the metadata: %w", err)
		}
		x.kv.SetKeyValueMetadata(MetaKey, string(js))
	}
	if err := sw.Close(); err != nil {
		return tot, fmt.Errorf("write %s: %w", stepsRel, err)
	}
	if err := ew.Close(); err != nil {
		return tot, fmt.Errorf("write episodes/%s: %w", name, err)
	}
	// The part is finished when both files have their final names; the
	// episodes file comes last.
	if err := ctx.Err(); err != nil {
		return tot, err
	}
	if err := sf.Commit(); err != nil {
		return tot, err
	}
	if err := ef.Commit(); err != nil {
		return tot, err
	}
	return tot, nil
}
