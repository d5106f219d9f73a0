package main

/*
#include <stdint.h>
*/
import "C"

import (
	"fmt"
	"unsafe"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/env"
)

// teacher is one Go agent per environment of a handle, asked for moves by
// pg_agent_act: a Python trainer's teacher (behaviour cloning on the
// positions its student reaches) or a Go baseline played from Python.
type teacher struct {
	label  string
	seed   uint64
	agents []agents.Agent
	dealt  []uint64 // the deal each agent was last reset for
	fresh  []bool   // the agent has not been reset yet
}

// teacherFor returns h's agents for the agent string s and seed offset,
// making them (and checking that they can play the game) the first time.
func (h *handle) teacherFor(s string, seed uint64) (*teacher, error) {
	if h.teacher != nil && h.teacher.label == s && h.teacher.seed == seed {
		return h.teacher, nil
	}
	f, err := agents.Parse(s)
	if err != nil {
		return nil, err
	}
	t := &teacher{label: s, seed: seed, dealt: make([]uint64, h.v.Len()), fresh: make([]bool, h.v.Len())}
	for i := range h.v.Len() {
		a := f.New()
		if err := agents.Prepare(a, h.v.Spec()); err != nil {
			return nil, err
		}
		// A clairvoyant agent (the solver) is fair where nothing is hidden:
		// in the open games it can teach (DAgger with the solver).
		if agents.IsClairvoyant(a) && h.v.Spec().Hidden {
			return nil, fmt.Errorf("agent %s sees the hidden cards of %s; pg_agent_act plays fair agents only in games with hidden cards", f.Label(), h.v.Spec().Name)
		}
		t.agents = append(t.agents, a)
		t.fresh[i] = true
	}
	h.teacher = t
	return t, nil
}

// act writes into out the move each environment's agent chooses in its
// current position, in the vector's workers (env.Vector.Each: each agent is
// asked by the worker that steps its environment, and a panic in an agent
// breaks its environment as a panic in a step does). An agent is reset
// (with the deal number plus the seed offset) whenever its environment is
// at the first step of an episode or has been dealt a new deal since the
// last call; otherwise it remembers the positions it was asked about in
// this episode (the heuristic avoids repeating them).
func (t *teacher) act(h *handle, out []int64, where []uint8) error {
	seeds := h.v.Seeds()
	return h.v.Each(func(i int, e *env.Env) {
		if e.Done() || (where != nil && where[i] == 0) {
			out[i] = -1
			return
		}
		deal := seeds[i]
		if t.fresh[i] || e.Steps() == 0 || deal != t.dealt[i] {
			t.agents[i].Reset(deal + t.seed)
			t.fresh[i], t.dealt[i] = false, deal
		}
		out[i] = int64(t.agents[i].Act(agents.NewView(e)))
	})
}

// pg_agent_act asks a Go agent (an agent string as the command line takes
// it: "heuristic", "mc:rollouts=8") for its move in every environment's
// current position and writes the n action ids into actions, -1 for an
// environment whose episode has ended (next-step autoreset mode, before
// its reset) and for one whose byte in where is 0 (where may be NULL: ask
// every environment). An environment left out this way is not shown to its
// agent, which does not remember its position. Each environment has its
// own agent, seeded with its deal number plus seed; it is made on the
// first call with this agent string and seed and kept until a call with
// another. Agents that see hidden cards are refused. The environments are
// not changed.
//
//export pg_agent_act
func pg_agent_act(id C.int64_t, agent *C.char, seed C.uint64_t, actions *C.int64_t, n C.int64_t, where *C.uint8_t) C.int64_t {
	return onLive(id, "actions", unsafe.Pointer(actions), n, func(h *handle) C.int64_t {
		t, err := h.teacherFor(gostr(agent), uint64(seed))
		if err != nil {
			return status(h, fmt.Errorf("pg_agent_act: %w", err))
		}
		var only []uint8
		if where != nil {
			only = unsafe.Slice((*uint8)(unsafe.Pointer(where)), int(n))
		}
		return status(h, t.act(h, unsafe.Slice((*int64)(unsafe.Pointer(actions)), int(n)), only))
	})
}
