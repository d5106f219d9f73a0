package datasets

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/internal/textlist"
)

// Difference is one disagreement between a recorded row and the
// environment replaying it.
type Difference struct {
	// Step is the step row's number, or -1 for the episode row.
	Step int
	// Field is the column that differs.
	Field string
	// Detail says how, recorded value first.
	Detail string
}

// String describes the difference for people.
func (d Difference) String() string {
	where := fmt.Sprintf("step %d", d.Step)
	if d.Step < 0 {
		where = "episode row"
	}
	return fmt.Sprintf("%s: %s: %s", where, d.Field, d.Detail)
}

// Replayed is what Replay found.
type Replayed struct {
	// Diffs are the differences between the recording and the game.
	Diffs []Difference
	// End is the environment where the replay stopped: at the end of the
	// episode, or before the first recorded action it refused.
	End *env.Env
}

// Replay re-deals episode k of the dataset m, plays its recorded actions
// through the environment and compares every recorded column with what the
// environment gives: before each step the observation and the mask, after
// it the reward and the end flags, and at the end the episode row (when ep
// is not nil). each, if not nil, is called before every step with the
// environment in the position where the recorded action was chosen. A
// recorded action the environment refuses ends the replay. An error means
// it could not replay at all.
func Replay(m *Meta, k int64, ep *Episode, steps []Step, each func(e *env.Env, s *Step)) (*Replayed, error) {
	reward, err := env.ParseRewardMode(m.RewardMode)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	spec, err := env.Lookup(m.Game)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	if spec.RulesVersion != m.RulesVersion {
		return nil, fmt.Errorf("replay: the dataset was played under %s rules version %d, this build has version %d", m.Game, m.RulesVersion, spec.RulesVersion)
	}
	if spec.ObsLen != m.ObsLen || spec.Actions != m.Actions {
		return nil, fmt.Errorf("replay: the dataset has %d actions and observations of %d cells, this build's %s has %d and %d", m.Actions, m.ObsLen, m.Game, spec.Actions, spec.ObsLen)
	}
	if k < 0 || k >= m.Episodes {
		return nil, fmt.Errorf("replay: no episode %d: the dataset has episodes 0..%d", k, m.Episodes-1)
	}
	e, err := env.Make(m.Game, env.Options{MaxSteps: m.MaxSteps, Reward: reward})
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	var diffs []Difference
	add := func(step int, field, format string, args ...any) {
		diffs = append(diffs, Difference{Step: step, Field: field, Detail: fmt.Sprintf(format, args...)})
	}
	seed := m.SeedStart + k
	e.Reset(uint64(seed))
	var packed []byte
	for i := range steps {
		s := &steps[i]
		if e.Done() {
			add(i, "length", "%d steps recorded, the environment's episode ended after %d (%s)", len(steps), i, e.Outcome())
			break
		}
		if each != nil {
			each(e, s)
		}
		if s.EpisodeIndex != k {
			add(i, "episode_index", "recorded %d, want %d", s.EpisodeIndex, k)
		}
		if s.Step != int32(i) {
			add(i, "step", "recorded %d, want %d", s.Step, i)
		}
		if want := k*m.IndexStride + int64(i); s.Index != want {
			add(i, "index", "recorded %d, want %d", s.Index, want)
		}
		if s.Game != m.Game {
			add(i, "game", "recorded %q, want %q", s.Game, m.Game)
		}
		if obs := e.Observation(); !bytes.Equal(s.Obs, obs) {
			add(i, "obs", "%s", obsDiff(m, s.Obs, obs))
		}
		packed = e.Mask().AppendPacked(packed[:0])
		if !bytes.Equal(s.LegalMask, packed) {
			add(i, "legal_mask", "%s", maskDiff(e, s.LegalMask, packed))
		}
		a := int(s.Action)
		if name := e.ActionString(a); s.ActionName != name {
			add(i, "action_name", "recorded %q, action %d is %q", s.ActionName, a, name)
		}
		r, term, trunc, err := e.Advance(a)
		if err != nil {
			add(i, "action", "the environment refuses the recorded action: %v", err)
			return &Replayed{Diffs: diffs, End: e}, nil
		}
		if r != s.Reward {
			add(i, "reward", "recorded %v, the environment pays %v", s.Reward, r)
		}
		if term != s.Terminated {
			add(i, "terminated", "recorded %v, the environment says %v", s.Terminated, term)
		}
		if trunc != s.Truncated {
			add(i, "truncated", "recorded %v, the environment says %v", s.Truncated, trunc)
		}
	}
	if !e.Done() {
		add(len(steps), "length", "the recording ends after %d steps, the environment's episode goes on", len(steps))
	}
	if ep != nil {
		diffs = append(diffs, episodeDiffs(m, k, ep, e, len(steps))...)
	}
	return &Replayed{Diffs: diffs, End: e}, nil
}

// episodeDiffs compares the episode row with the environment at the end.
func episodeDiffs(m *Meta, k int64, ep *Episode, e *env.Env, n int) []Difference {
	var diffs []Difference
	check := func(field string, recorded, want any) {
		if recorded != want {
			diffs = append(diffs, Difference{Step: -1, Field: field, Detail: fmt.Sprintf("recorded %v, want %v", recorded, want)})
		}
	}
	seed := m.SeedStart + k
	base := k * m.IndexStride
	info := e.Info()
	check("episode_index", ep.EpisodeIndex, k)
	check("game", ep.Game, m.Game)
	check("rules_version", ep.RulesVersion, int32(m.RulesVersion))
	check("deal_seed", ep.DealSeed, seed)
	check("agent", ep.Agent, m.Agent)
	check("agent_seed", ep.AgentSeed, seed+m.AgentSeedOffset)
	check("length", ep.Length, int32(n))
	check("return", ep.Return, e.Return())
	check("outcome", ep.Outcome, info.Outcome.String())
	check("class", ep.Class, info.Class)
	check("progress", ep.Progress, int32(info.Progress))
	check("index_from", ep.IndexFrom, base)
	check("index_to", ep.IndexTo, base+int64(n))
	check("steps_file", ep.StepsFile, TableSteps+"/"+partName(m.PartOf(k)))
	if obs := e.Observation(); !bytes.Equal(ep.FinalObs, obs) {
		diffs = append(diffs, Difference{Step: -1, Field: "final_obs", Detail: obsDiff(m, ep.FinalObs, obs)})
	}
	return diffs
}

// obsDiff describes how a recorded observation differs from the
// environment's: the cells, with their segment.
func obsDiff(m *Meta, rec, env []byte) string {
	if len(rec) != len(env) {
		return fmt.Sprintf("recorded %d cells, the environment has %d", len(rec), len(env))
	}
	var parts []string
	count := 0
	for i := range rec {
		if rec[i] == env[i] {
			continue
		}
		count++
		if len(parts) < 4 {
			parts = append(parts, fmt.Sprintf("cell %d (%s) recorded %d, environment %d", i, segmentOf(m, i), rec[i], env[i]))
		}
	}
	s := fmt.Sprintf("%d cells differ: %s", count, strings.Join(parts, "; "))
	if count > len(parts) {
		s += "; ..."
	}
	return s
}

// segmentOf names the segment holding cell i and the cell's offset in it.
func segmentOf(m *Meta, i int) string {
	for _, g := range m.Spec.Segments {
		if i >= g.Offset && i < g.Offset+g.Len {
			return fmt.Sprintf("%s[%d]", g.Name, i-g.Offset)
		}
	}
	return "?"
}

// maskDiff describes how a recorded packed mask differs from the
// environment's, naming the actions.
func maskDiff(e *env.Env, rec, env []byte) string {
	if len(rec) != len(env) {
		return fmt.Sprintf("recorded %d bytes, the environment has %d", len(rec), len(env))
	}
	var extra, missing []string
	for b := range rec {
		x := rec[b] ^ env[b]
		for bit := 0; x != 0 && bit < 8; bit++ {
			if x&(1<<bit) == 0 {
				continue
			}
			x &^= 1 << bit
			a := 8*b + bit
			name := fmt.Sprintf("%d (%s)", a, e.ActionString(a))
			if rec[b]&(1<<bit) != 0 {
				extra = append(extra, name)
			} else {
				missing = append(missing, name)
			}
		}
	}
	var out []string
	if len(extra) > 0 {
		out = append(out, "recorded legal but illegal now: "+textlist.Short(extra, 5, ", "))
	}
	if len(missing) > 0 {
		out = append(out, "legal now but not recorded: "+textlist.Short(missing, 5, ", "))
	}
	return strings.Join(out, "; ")
}
