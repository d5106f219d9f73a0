package env

import "github.com/patience-gym/patience/env/cards"

// Game is the rules of one patience game together with one state of it: the
// core every game implements. Each game package implements it once; Env gives
// every Game the same Gym semantics. Methods other than Clone must not
// allocate on the hot path (Legal, Apply, Observe, Progress, Won, CopyFrom).
//
// A game may also implement the optional interfaces Determinizer (required
// when Spec().Hidden is set), Classifier, Evaluator and AnyLegaler; Env detects them
// once, when it wraps the game.
type Game interface {
	// Spec returns the game's description. It is shared and read-only.
	Spec() *Spec
	// Deal sets the state to the start of deal number seed, dealt from
	// cards.Deal(seed) in the order the game's rules describe.
	Deal(seed uint64)
	// Legal writes the exact set of legal actions into m, which covers
	// Spec().Actions ids; ids not legal are cleared.
	Legal(m *Mask)
	// Explain returns nil if action a is legal now, or an error saying in a
	// person's words why it is not. It is the rules' own check, written apart
	// from Legal; the checker verifies that the two agree on every action.
	// Build the reasons with Reasonf, which formats them only when read.
	Explain(a int) error
	// Apply plays action a, which must be legal (Env checks the mask first),
	// including the automatic events the rules attach to it.
	Apply(a int)
	// Progress returns the number of cards that have reached their final
	// place (out of Spec().Cards). It never decreases during an episode.
	Progress() int
	// Won reports whether the game's goal is met.
	Won() bool
	// Observe writes the observation (Spec().ObsLen cells) into dst.
	Observe(dst []uint8)
	// Hash returns a 64-bit hash of the full state (hidden cards included):
	// equal states have equal hashes.
	Hash() uint64
	// Clone returns an independent copy.
	Clone() Game
	// CopyFrom makes the receiver an independent copy of src, which must be
	// of the same concrete type, without allocating.
	CopyFrom(src Game)
	// ActionString returns the name of action a as a person types it
	// ("7>12", "7>F"). Names do not depend on the state.
	ActionString(a int) string
	// ParseActions reads a move a person typed and returns the action ids it
	// stands for: usually one, more when one move of the rules spans several
	// actions (a move that picks two cards, one action each). It does not
	// depend on the state and never checks legality.
	ParseActions(s string) ([]int, error)
	// Render returns a text picture of the state a person reads at a glance.
	Render() string
}

// Determinizer is implemented by games with hidden cards (Spec().Hidden);
// Register refuses a hidden game without it.
type Determinizer interface {
	// Determinize reshuffles exactly the cards a player cannot see among the
	// places they cannot see. The result depends only on what a player sees
	// and on rng, never on the hidden order it replaces. The observation and
	// the legal actions do not change.
	Determinize(rng *cards.Rand)
}

// Classifier is implemented by games that have words of their own for some
// states (a class of win, for example).
type Classifier interface {
	// Class returns the game's word for the state, or "" when it has none.
	Class() string
}

// AnyLegaler is implemented by games that can tell whether any action is
// legal faster than by listing them all (most often: a move that is nearly
// always there, such as turning the stock, settles it at once). The answer
// must be exactly whether Legal would set any bit. Env.Try uses it, so
// that an agent's one-step look-ahead, which needs of each position it
// tries only whether it is won, lost or neither, does not list the legal
// actions of every position it tries.
type AnyLegaler interface {
	// AnyLegal reports whether any action is legal now.
	AnyLegal() bool
}

// Evaluator is implemented by games that can score a position better than
// by its progress alone; the heuristic agent and the search agents use it.
type Evaluator interface {
	// Evaluate scores the state: progress plus game knowledge, in cards,
	// higher is better. It uses only what a player sees.
	Evaluate() float64
}

// Termer is implemented by an Evaluator whose evaluation is a weighted sum
// of named terms (Spec.Terms): Evaluate equals the sum of each term times
// its Term.Weight. A game may list terms its evaluation weighs 0, so that
// a learner can weigh them (a policy file's eval_terms; see
// docs/models.md).
type Termer interface {
	// Terms writes the position's value of each of Spec.Terms, in that
	// order, into dst[:len(Spec.Terms)]. It uses only what a player sees.
	Terms(dst []float64)
}

// Evaluate returns g's evaluation when it is an Evaluator, and its progress
// otherwise.
func Evaluate(g Game) float64 {
	if ev, ok := g.(Evaluator); ok {
		return ev.Evaluate()
	}
	return float64(g.Progress())
}

// Class returns g's word for its state when it is a Classifier, and ""
// otherwise.
func Class(g Game) string {
	if c, ok := g.(Classifier); ok {
		return c.Class()
	}
	return ""
}

// Varianter is implemented by games that offer variants of their rules
// besides the default. A variant is chosen before dealing (Options.Variant,
// or "game:variant" as the name given to Make); the game's Spec then
// describes the variant (Spec.Variant is its name).
type Varianter interface {
	// Variants returns the names of the game's variants, the default ("")
	// excluded.
	Variants() []string
	// SetVariant selects a variant by name, "" for the default rules; an
	// unknown name is an error. It resets the state to an empty game.
	SetVariant(name string) error
}
