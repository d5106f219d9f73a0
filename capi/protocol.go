package main

/*
#include <stdint.h>
*/
import "C"

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"
	"unsafe"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/bench"
	"github.com/patience-gym/patience/deals"
	"github.com/patience-gym/patience/env"
)

// The verdict tables and the evaluation protocol, for Python's
// patience_gym.deals and patience_gym.evaluate. These functions take no
// handle: each reports a failure as PG_ERROR (a recovered panic as
// PG_INTERNAL) with its message written into err (capacity errcap), as
// pg_create does (guard and fail).

// pg_deals_table writes the Parquet file of the verdict table that ships
// for game into out (capacity cap; out may be NULL) and returns its length
// in bytes: a caller whose buffer was too small calls again with that many.
//
//export pg_deals_table
func pg_deals_table(game *C.char, out *C.uint8_t, cap C.int64_t, err *C.char, errcap C.int64_t) (code C.int64_t) {
	defer guard(&code, err, errcap)
	data, e := deals.ShippedFile(gostr(game))
	if e != nil {
		return fail(e, err, errcap)
	}
	if out != nil && int(cap) >= len(data) {
		copy(unsafe.Slice((*byte)(unsafe.Pointer(out)), len(data)), data)
	}
	return C.int64_t(len(data))
}

// dealFilter is the JSON form of a deals.Filter: {"block": "train",
// "verdicts": ["won"], "difficulty": "easy"}, each key optional.
type dealFilter struct {
	Block      string   `json:"block"`
	Verdicts   []string `json:"verdicts"`
	Difficulty string   `json:"difficulty"`
}

// tableFilter reads game's shipped table and the filter's JSON.
func tableFilter(game, filter string) (*deals.Table, deals.Filter, error) {
	t, err := deals.Shipped(game)
	if err != nil {
		return nil, deals.Filter{}, err
	}
	var f dealFilter
	if filter != "" {
		if err := decodeStrict(filter, &f); err != nil {
			return nil, deals.Filter{}, fmt.Errorf("the deal filter %s: %w", filter, err)
		}
	}
	out := deals.Filter{Block: f.Block}
	if f.Block != "" {
		known := false
		for _, b := range t.Meta.Blocks {
			known = known || b.Name == f.Block
		}
		if !known {
			return nil, deals.Filter{}, fmt.Errorf("the %s table has no block %q", t.Meta.Game, f.Block)
		}
	}
	for _, v := range f.Verdicts {
		verdict, err := deals.ParseVerdict(v)
		if err != nil {
			return nil, deals.Filter{}, err
		}
		out.Verdicts = append(out.Verdicts, verdict)
	}
	if f.Difficulty != "" {
		d, err := deals.ParseDifficulty(f.Difficulty)
		if err != nil {
			return nil, deals.Filter{}, err
		}
		out.Difficulty = d
	}
	return t, out, nil
}

// pg_deals_select writes into out (capacity cap; may be NULL) the deal
// numbers of game's shipped table that the filter (JSON, see dealFilter;
// NULL or "" for every deal) selects, in increasing order, and returns how
// many there are.
//
//export pg_deals_select
func pg_deals_select(game *C.char, filter *C.char, out *C.uint64_t, cap C.int64_t, err *C.char, errcap C.int64_t) (code C.int64_t) {
	defer guard(&code, err, errcap)
	t, f, e := tableFilter(gostr(game), gostr(filter))
	if e != nil {
		return fail(e, err, errcap)
	}
	ds := t.Select(f)
	if out != nil && cap > 0 {
		dst := unsafe.Slice((*uint64)(unsafe.Pointer(out)), int(cap))
		for i := 0; i < len(ds) && i < len(dst); i++ {
			dst[i] = ds[i].Seed
		}
	}
	return C.int64_t(len(ds))
}

// pg_deals_pick returns the deal of game's shipped table that
// deals.Table.PickFrom chooses among those the filter selects for seed
// (Pick: {"block": "train", "verdicts": ["won"]}); PG_ERROR when it
// selects none.
//
//export pg_deals_pick
func pg_deals_pick(game *C.char, filter *C.char, seed C.uint64_t, err *C.char, errcap C.int64_t) (code C.int64_t) {
	defer guard(&code, err, errcap)
	t, f, e := tableFilter(gostr(game), gostr(filter))
	if e != nil {
		return fail(e, err, errcap)
	}
	d, ok := t.PickFrom(f, uint64(seed))
	if !ok {
		return fail(fmt.Errorf("the %s table holds no deal the filter %s selects", t.Meta.Game, gostr(filter)), err, errcap)
	}
	return C.int64_t(d.Seed)
}

// protocolGame resolves a protocol version and a game.
func protocolGame(version, game string) (*bench.ProtocolGame, error) {
	p, err := bench.LookupProtocol(version)
	if err != nil {
		return nil, err
	}
	spec, err := env.Lookup(game)
	if err != nil {
		return nil, err
	}
	if spec.Variant != "" {
		return nil, fmt.Errorf("protocol %s measures the games' default rules, not the %s variant", p.Version, spec.ID())
	}
	return p.Game(spec)
}

// protocolJSON is what pg_protocol describes.
type protocolJSON struct {
	Protocol   string          `json:"protocol"`
	Game       string          `json:"game"`
	Deals      bench.DealRange `json:"deals"`
	MaxSteps   int             `json:"max_steps"`
	AgentSeed  string          `json:"agent_seed"`
	Confidence float64         `json:"confidence"`
	// Dead are the deals with no legal move at the start.
	Dead []bench.DeadDeal `json:"dead"`
	// Build and Machine are the core's, for the result file.
	Build   bench.Build   `json:"build"`
	Machine bench.Machine `json:"machine"`
}

// pg_protocol writes, as JSON, what the protocol version fixes for game:
// the deals, the step limit, the agents' seed, the intervals' level and
// the deals with no legal move at the start (which an environment that
// skips them must record as lost at step 0), with the core's build and
// machine; it returns the length (call again with a larger buffer if it is
// not less than cap).
//
//export pg_protocol
func pg_protocol(version *C.char, game *C.char, out *C.char, cap C.int64_t, err *C.char, errcap C.int64_t) (code C.int64_t) {
	defer guard(&code, err, errcap)
	g, e := protocolGame(gostr(version), gostr(game))
	if e != nil {
		return fail(e, err, errcap)
	}
	dead, e := g.Dead()
	if e != nil {
		return fail(e, err, errcap)
	}
	return putJSON(protocolJSON{
		Protocol: g.Protocol.Version, Game: g.Spec.ID(),
		Deals:    bench.DealRange{Block: g.Block.Name, First: g.Block.First, Count: g.Block.Count},
		MaxSteps: g.MaxSteps, AgentSeed: "deal", Confidence: g.Protocol.Confidence, Dead: dead,
		Build: bench.ThisBuild(), Machine: bench.ThisMachine(),
	}, out, cap, err, errcap)
}

// rowInput is what pg_protocol_row reads: the agent and its episodes, one
// per deal of the protocol's block, in deal order.
type rowInput struct {
	Agent       string `json:"agent"`
	Settings    string `json:"settings"`
	Clairvoyant bool   `json:"clairvoyant"`
	Episodes    []struct {
		Deal     uint64 `json:"deal"`
		Outcome  string `json:"outcome"`
		Progress int    `json:"progress"`
		Steps    int    `json:"steps"`
		WallNs   int64  `json:"wall_ns"`
	} `json:"episodes"`
}

// pg_protocol_row computes the protocol's figures for one agent's
// episodes on game (JSON in, see rowInput) with the code of `patience
// bench --protocol`, and writes the result file's row, as JSON, into out;
// it returns the length (call again with a larger buffer if it is not less
// than cap).
//
//export pg_protocol_row
func pg_protocol_row(version *C.char, game *C.char, input *C.char, out *C.char, cap C.int64_t, err *C.char, errcap C.int64_t) (code C.int64_t) {
	defer guard(&code, err, errcap)
	g, e := protocolGame(gostr(version), gostr(game))
	if e != nil {
		return fail(e, err, errcap)
	}
	var in rowInput
	if e := decodeStrict(gostr(input), &in); e != nil {
		return fail(fmt.Errorf("pg_protocol_row: %w", e), err, errcap)
	}
	eps := make([]bench.Episode, len(in.Episodes))
	for i, x := range in.Episodes {
		switch x.Outcome {
		case "won", "lost", "truncated":
		default:
			return fail(fmt.Errorf("pg_protocol_row: deal %d: outcome %q (want won, lost or truncated)", x.Deal, x.Outcome), err, errcap)
		}
		if x.Progress < 0 || x.Progress > g.Spec.Cards || x.Steps < 0 {
			return fail(fmt.Errorf("pg_protocol_row: deal %d: progress %d, steps %d", x.Deal, x.Progress, x.Steps), err, errcap)
		}
		eps[i] = bench.Episode{
			Game: g.Spec.ID(), Agent: in.Agent, Seed: x.Deal, Won: x.Outcome == "won", Outcome: x.Outcome,
			Progress: x.Progress, Cards: g.Spec.Cards, Steps: x.Steps, Truncated: x.Outcome == "truncated",
			Wall: time.Duration(x.WallNs),
		}
	}
	if in.Agent == "" {
		return fail(errors.New("pg_protocol_row: the agent has no name"), err, errcap)
	}
	row, e := g.Row(in.Agent, in.Settings, in.Clairvoyant, eps)
	if e != nil {
		return fail(e, err, errcap)
	}
	return putJSON(row, out, cap, err, errcap)
}

// agentJSON is what pg_agent_describe writes.
type agentJSON struct {
	Label       string `json:"label"`
	Settings    string `json:"settings"`
	Clairvoyant bool   `json:"clairvoyant"`
}

// pg_agent_describe writes, as JSON, the label, the settings and whether it
// sees hidden cards of the Go agent an agent string names ("mc:rollouts=8"),
// as `patience bench` records them, after checking that it can play game;
// it returns the length (call again with a larger buffer if it is not less
// than cap).
//
//export pg_agent_describe
func pg_agent_describe(agent *C.char, game *C.char, out *C.char, cap C.int64_t, err *C.char, errcap C.int64_t) (code C.int64_t) {
	defer guard(&code, err, errcap)
	f, e := agents.Parse(gostr(agent))
	if e != nil {
		return fail(e, err, errcap)
	}
	spec, e := env.Lookup(gostr(game))
	if e != nil {
		return fail(e, err, errcap)
	}
	a := f.New()
	if e := agents.Prepare(a, spec); e != nil {
		return fail(e, err, errcap)
	}
	return putJSON(agentJSON{Label: f.Label(), Settings: a.Settings(), Clairvoyant: agents.IsClairvoyant(a)}, out, cap, err, errcap)
}

// putJSON writes v as JSON into out (capacity cap) and returns its length,
// as putString; PG_ERROR (with the message in err) if it does not marshal.
func putJSON(v any, out *C.char, cap C.int64_t, err *C.char, errcap C.int64_t) C.int64_t {
	b, e := json.Marshal(v)
	if e != nil {
		return fail(e, err, errcap)
	}
	return putString(string(b), out, cap)
}
