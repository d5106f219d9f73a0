// Package specjson is the one JSON form of an env.Spec: what the C ABI
// hands to Python (pg_specs) and what every dataset's metadata holds under
// "spec". Its field names follow env.Spec's, in snake case.
package specjson

import "github.com/patience-gym/patience/env"

// Spec is the JSON form of an env.Spec.
type Spec struct {
	// Name is the game's registry name ("royalparade"); Variant the
	// variant of its rules, absent for the default rules.
	Name    string `json:"name"`
	Variant string `json:"variant,omitempty"`
	// Title and Summary are what a person reads.
	Title   string `json:"title"`
	Summary string `json:"summary"`
	// RulesVersion is bumped whenever a rule fix changes play.
	RulesVersion int `json:"rules_version"`
	// Actions is the size of the action space; ActionRanges documents it.
	Actions      int     `json:"actions"`
	ActionRanges []Range `json:"action_ranges"`
	// ObsLen is the observation's length; Segments name its parts, in
	// order.
	ObsLen   int       `json:"obs_len"`
	Segments []Segment `json:"segments"`
	// MaxSteps is the game's default step limit.
	MaxSteps int `json:"max_steps"`
	// Hidden reports whether some cards are hidden from the player.
	Hidden bool `json:"hidden"`
	// Cards is the number of cards progress counts towards.
	Cards int `json:"cards"`
	// OneHotLen is the length of the observation's one-hot expansion.
	OneHotLen int `json:"one_hot_len"`
	// Terms are the named parts of the game's evaluation (env.Term);
	// absent for a game without them.
	Terms []Term `json:"terms,omitempty"`
}

// Term is a named part of a game's evaluation (env.Term).
type Term struct {
	Name   string  `json:"name"`
	Weight float64 `json:"weight"`
	Doc    string  `json:"doc"`
}

// Range is a run of action ids with one meaning (env.ActionRange).
type Range struct {
	First   int    `json:"first"`
	Last    int    `json:"last"`
	Meaning string `json:"meaning"`
}

// Segment is a named run of observation cells (env.Segment).
type Segment struct {
	Name   string `json:"name"`
	Offset int    `json:"offset"`
	Len    int    `json:"len"`
	Card   bool   `json:"card"`
	Max    int    `json:"max"`
	Doc    string `json:"doc"`
}

// Of returns the JSON form of s.
func Of(s *env.Spec) Spec {
	j := Spec{
		Name: s.Name, Variant: s.Variant, Title: s.Title, Summary: s.Summary, RulesVersion: s.RulesVersion,
		Actions: s.Actions, ObsLen: s.ObsLen, OneHotLen: s.OneHotLen(), MaxSteps: s.MaxSteps, Hidden: s.Hidden, Cards: s.Cards,
	}
	for _, r := range s.ActionRanges {
		j.ActionRanges = append(j.ActionRanges, Range{First: r.First, Last: r.Last, Meaning: r.Meaning})
	}
	for _, g := range s.Segments {
		j.Segments = append(j.Segments, Segment{Name: g.Name, Offset: g.Offset, Len: g.Len, Card: g.Card, Max: int(g.Max), Doc: g.Doc})
	}
	for _, t := range s.Terms {
		j.Terms = append(j.Terms, Term{Name: t.Name, Weight: t.Weight, Doc: t.Doc})
	}
	return j
}

// OneHotLenOf returns the one-hot length of an observation made of
// segments: Max+1 cells for each of their cells, as env.Spec.OneHotLen
// counts them. It fills OneHotLen where a form was written without it.
func OneHotLenOf(segments []Segment) int {
	n := 0
	for _, g := range segments {
		n += g.Len * (g.Max + 1)
	}
	return n
}
