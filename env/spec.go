package env

import (
	"fmt"

	"github.com/patience-gym/patience/env/cards"
)

// Spec describes one game: its name, rules version, action space, observation
// layout and defaults. A Spec is shared and must not be modified.
type Spec struct {
	// Name is the registry name, lower case without spaces ("royalparade").
	Name string
	// Title is the name a person reads ("Royal Parade").
	Title string
	// Summary is one line about the game.
	Summary string
	// RulesVersion is bumped whenever a rule fix changes play.
	RulesVersion int
	// Variant names the variant of the rules this Spec describes ("" for
	// the default rules; see Varianter). A variant's Spec has the default's
	// Name and RulesVersion; ID and Rules tell them apart.
	Variant string
	// Actions is the size of the flat discrete action space.
	Actions int
	// ActionRanges documents the action space: id ranges and their meaning.
	ActionRanges []ActionRange
	// ObsLen is the length of the observation vector.
	ObsLen int
	// Segments name the parts of the observation, in order, covering it all.
	Segments []Segment
	// MaxSteps is the default step limit after which an episode is truncated.
	MaxSteps int
	// Hidden reports whether some cards are hidden from the player.
	Hidden bool
	// Cards is the number of cards progress counts towards (104).
	Cards int
	// Terms are the named parts of the game's evaluation when the game is
	// a Termer (see Termer), none otherwise.
	Terms []Term
}

// Term is a named part of a game's evaluation (see Termer).
type Term struct {
	// Name is the term's name, lower case with underscores ("king_depth").
	Name string
	// Weight is what the game's Evaluate weighs the term by, in cards per
	// unit (0 for a term only a learner weighs).
	Weight float64
	// Doc says what the term counts.
	Doc string
}

// TermIndex returns the index of the term named name in s.Terms, or -1.
func (s *Spec) TermIndex(name string) int {
	for i, t := range s.Terms {
		if t.Name == name {
			return i
		}
	}
	return -1
}

// ActionRange is a run of action ids with one meaning.
type ActionRange struct {
	// First and Last are the first and last id of the range, inclusive.
	First, Last int
	// Meaning says what the ids do and how an id is composed.
	Meaning string
}

// Segment is a named run of observation cells.
type Segment struct {
	// Name is the segment's name ("fans", "foundations").
	Name string
	// Offset is the index of the segment's first cell.
	Offset int
	// Len is the number of cells.
	Len int
	// Card is true when every cell holds a card code (0 empty, 1..52 a card,
	// 53 face down); otherwise cells hold small counters.
	Card bool
	// Max is the largest value a cell can take (53 for card cells).
	Max uint8
	// Doc says what the cells hold and in which order.
	Doc string
}

// ID returns the game's name with its variant, "cromwell:noswap", or the
// name alone for the default rules. Make accepts it as a game name.
func (s *Spec) ID() string {
	if s.Variant == "" {
		return s.Name
	}
	return s.Name + ":" + s.Variant
}

// Rules returns the rules version as people read it: "v1" for the default
// rules, "v1+noswap" for a variant.
func (s *Spec) Rules() string {
	v := fmt.Sprintf("v%d", s.RulesVersion)
	if s.Variant != "" {
		v += "+" + s.Variant
	}
	return v
}

// Segment returns the segment with the given name, or false.
func (s *Spec) Segment(name string) (Segment, bool) {
	for _, g := range s.Segments {
		if g.Name == name {
			return g, true
		}
	}
	return Segment{}, false
}

// validate checks that the spec is complete and its segments tile the
// observation.
func (s *Spec) validate() error {
	if s.Name == "" || s.Title == "" {
		return fmt.Errorf("spec: missing name or title")
	}
	if s.Actions <= 0 || s.ObsLen <= 0 || s.MaxSteps <= 0 || s.Cards <= 0 {
		return fmt.Errorf("spec %s: actions, observation length, step limit and cards must be positive", s.Name)
	}
	off := 0
	for _, g := range s.Segments {
		if g.Offset != off || g.Len <= 0 {
			return fmt.Errorf("spec %s: segment %q at %d (len %d), want offset %d", s.Name, g.Name, g.Offset, g.Len, off)
		}
		if g.Card && g.Max != uint8(cards.FaceDown) {
			return fmt.Errorf("spec %s: card segment %q must have Max %d", s.Name, g.Name, cards.FaceDown)
		}
		off += g.Len
	}
	if off != s.ObsLen {
		return fmt.Errorf("spec %s: segments cover %d cells, observation has %d", s.Name, off, s.ObsLen)
	}
	next := 0
	for _, r := range s.ActionRanges {
		if r.First != next || r.Last < r.First {
			return fmt.Errorf("spec %s: action range %d-%d, want it to start at %d", s.Name, r.First, r.Last, next)
		}
		next = r.Last + 1
	}
	if next != s.Actions {
		return fmt.Errorf("spec %s: action ranges cover %d ids, the space has %d", s.Name, next, s.Actions)
	}
	return nil
}

// OneHotLen returns the length of the one-hot expansion of an observation:
// each cell becomes Max+1 floats.
func (s *Spec) OneHotLen() int {
	n := 0
	for _, g := range s.Segments {
		n += g.Len * (int(g.Max) + 1)
	}
	return n
}

// OneHot writes the one-hot float32 expansion of obs into dst, which must have
// length OneHotLen(): cell by cell in observation order, each cell becomes
// Max+1 floats with a 1 at its value (values above Max are clipped to Max).
// It does not allocate.
func (s *Spec) OneHot(obs []uint8, dst []float32) {
	clear(dst)
	o := 0
	for _, g := range s.Segments {
		w := int(g.Max) + 1
		for _, v := range obs[g.Offset : g.Offset+g.Len] {
			dst[o+int(min(v, g.Max))] = 1
			o += w
		}
	}
}

// Flag is the observation cell of a yes-or-no fact: 1 when b holds, else 0.
func Flag(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}
