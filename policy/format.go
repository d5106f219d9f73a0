package policy

import (
	"strconv"

	"github.com/patience-gym/patience/env/cards"
)

// A model file is a safetensors file (see docs/models.md) that holds an MLP
// over the one-hot observation of one game:
//
//	layers.0.weight [h0, OneHotLen]   layers.0.bias [h0]
//	layers.1.weight [h1, h0]          layers.1.bias [h1]
//	...
//	layers.K.weight [Actions, hK-1]   layers.K.bias [Actions]
//
// in the PyTorch nn.Linear layout (out × in, row-major), dtype F32 (F16 and
// BF16 are read too, widened exactly), with ReLU between the layers and the
// logits of the Actions actions out (one output for a value network). The
// layers are numbered 0..K without gaps, whatever the trainer's module
// names were. The "__metadata__" map holds the keys RequiredKeys lists,
// the optional keys below, and may hold others, which are kept (Meta.Extra).

// The fixed values of a model file's metadata.
const (
	// Format is the value of the "format" key.
	Format = "patience-policy"
	// FormatVersion is the value of the "format_version" key this build
	// reads.
	FormatVersion = 1
	// EncodingOneHot is the value of "obs_encoding" of a network whose
	// first layer has a row per one-hot input: its input is env.Spec.OneHot
	// of the observation.
	EncodingOneHot = "onehot"
	// EncodingCards is the value of "obs_encoding" of a card-embedding
	// network: its first layer sees each card cell through a card embedding
	// shared by all card cells (tensor "cards.weight", [CardCodes,
	// card_dim]) and every other cell one-hot. It is the same function of
	// the one-hot observation as a onehot network, whose first-layer weight
	// is the embedding's product with the compact one, stored in far fewer
	// bytes; the reader expands it (see docs/models.md).
	EncodingCards = "card-embedding"
	// CardCodes is the number of values of a card cell (0 empty, 1..52 a
	// card, 53 face down): the rows of a card embedding.
	CardCodes = int(cards.FaceDown) + 1
	// HeadValue is the value of the optional "head" key of a value
	// network: one output, the expected final progress fraction of the
	// position observed (see docs/models.md). Without the key a network is
	// a policy: one logit per action.
	HeadValue = "value"
	// Activation is the value of "activation": ReLU between layers.
	Activation = "relu"
	// LinkLogSigmoid is the value_link of a network whose output is the
	// logit of a probability (that the position can be won, say): the
	// agent scores a position by the log of that probability,
	// log σ(output), plus the weighted evaluation where eval_weight is set.
	LinkLogSigmoid = "logsigmoid"
	// MaxLookaheadSamples is the largest lookahead_samples a file may
	// give.
	MaxLookaheadSamples = 256
)

// The optional metadata keys a value file may hold (docs/models.md says
// what each means; Meta holds them parsed).
const (
	// KeyHead says the network's head: HeadValue, or absent for a policy.
	KeyHead = "head"
	// KeyEvalWeight is a value network's weight w of the game's
	// evaluation: the network's output plus w times the evaluation over
	// the game's cards is the score of a position (a logit when the network
	// was trained on an agent's choices), not a progress fraction. The
	// policy agent then ranks its moves as the heuristic does, by that
	// score.
	KeyEvalWeight = "eval_weight"
	// KeyEvalTerms weighs the game's evaluation terms (env.Spec.Terms) in
	// a file with eval_weight: a JSON object from term names to numbers,
	// as {"next_buried": -0.3}, each term of the position times its number
	// added to the score. A name the game does not have is an error at
	// Check.
	KeyEvalTerms = "eval_terms"
	// KeyOpeningTerms and KeyOpeningProgress weigh the terms differently
	// in the opening, in a file with eval_terms: an object of the same form
	// and a fraction p of the game's cards (0 < p < 1). While the position
	// the agent moves from has placed less than p of the cards, each term
	// the object names is weighed by its number there instead of by
	// eval_terms'. The one needs the other.
	KeyOpeningTerms    = "eval_terms_opening"
	KeyOpeningProgress = "opening_progress"
	// KeyValueLink says how a value network's output becomes a score:
	// absent (the output as it is) or LinkLogSigmoid.
	KeyValueLink = "value_link"
	// KeyValueFloor is a probability f (0 < f < 1) of a file with
	// value_link logsigmoid: the score of a position is min(0, log
	// σ(output) − log f), so that the network only holds the agent back
	// from the moves it thinks likely lost.
	KeyValueFloor = "value_floor"
	// KeyStacks names groups of stacks in the observation (columns, fans:
	// cells filled from a stack's first cell with no gaps), as
	// OFFSET:COUNT:HEIGHT items separated by semicolons. The network reads
	// each such stack turned over, and with KeyStacksSorted = "1" the
	// stacks of each group in ascending order of their turned cells (see
	// ArrangeStacks).
	KeyStacks       = "stacks"
	KeyStacksSorted = "stacks_sorted"
	// KeyLookaheadSamples is a whole number k from 1 to
	// MaxLookaheadSamples of a value file for a game with hidden cards:
	// the agent looks one move ahead on k copies of the position, each
	// with the hidden cards reshuffled, and scores each move by the mean
	// of its k scores. Check refuses k above 1 for a game without hidden
	// cards, whose one copy is exact.
	KeyLookaheadSamples = "lookahead_samples"
	// KeyTrainedSteps is the number of environment steps trained on, and
	// KeyNotes free text.
	KeyTrainedSteps = "trained_steps"
	KeyNotes        = "notes"
	// KeyCardDim and KeyInputLen are a card-embedding network's embedding
	// width and first-layer input width; required with EncodingCards.
	KeyCardDim  = "card_dim"
	KeyInputLen = "input_len"
)

// RetiredKeys are metadata keys of stages that were removed from the
// product: a file that carries one is refused, naming the key, rather than
// played without the stage it was written for. veto_terms, veto_floor,
// veto_bias and veto_weight held round 20's veto of the terms, which never
// won a deal more on unseen deals (docs/research/training.md, round 20).
var RetiredKeys = []string{"veto_terms", "veto_floor", "veto_bias", "veto_weight"}

// RequiredKeys are the metadata keys every model file has, all strings:
// format (Format), format_version ("1"), game (the game's registry name),
// rules_version, obs_len (Spec.ObsLen), obs_encoding (EncodingOneHot or
// EncodingCards), onehot_len (Spec.OneHotLen()), actions (Spec.Actions),
// hidden (the hidden layer widths, comma-separated: "256,256", or "" for
// none), activation (Activation) and command (the command line that
// trained it).
var RequiredKeys = []string{"format", "format_version", "game", "rules_version", "obs_len", "obs_encoding",
	"onehot_len", "actions", "hidden", "activation", "command"}

// StackGroup is a group of Count stacks of Height cells each, the first at
// observation cell Offset and the others after it (metadata stacks).
type StackGroup struct{ Offset, Count, Height int }

// Meta is what a model file says about itself, parsed once when the file
// is read.
type Meta struct {
	// Game is the game's registry name; RulesVersion its rules version.
	Game         string
	RulesVersion int
	// ObsLen, OneHotLen and Actions are the game's observation length,
	// one-hot length and action count the network was built for.
	ObsLen, OneHotLen, Actions int
	// Hidden are the widths of the hidden layers, input side first.
	Hidden []int
	// Encoding is EncodingOneHot or EncodingCards ("" reads as
	// EncodingOneHot).
	Encoding string
	// CardDim and InputLen are a card-embedding network's embedding width
	// and first-layer input width (metadata card_dim and input_len); 0
	// for a onehot network.
	CardDim, InputLen int
	// Head is "" for a policy network (one logit per action) or HeadValue
	// for a value network (one output); metadata key head.
	Head string
	// EvalWeight is a value network's weight of the game's evaluation
	// (metadata key eval_weight); 0 when the file has none.
	EvalWeight float64
	// EvalTerms are the weights of the game's evaluation terms (metadata
	// key eval_terms) by name; none when the file has none.
	EvalTerms map[string]float64
	// OpeningTerms are the weights of the terms in the opening (metadata
	// key eval_terms_opening), by name, and OpeningProgress the fraction
	// of the cards placed at which the opening ends (opening_progress);
	// none and 0 when the file has none.
	OpeningTerms    map[string]float64
	OpeningProgress float64
	// ValueLink is a value network's link (metadata value_link): "" or
	// LinkLogSigmoid.
	ValueLink string
	// ValueFloor is the probability of metadata value_floor, 0 when the
	// file has none.
	ValueFloor float64
	// Stacks are the stack groups the network reads turned over (and
	// StacksSorted, sorted); none when the file has no stacks key.
	Stacks       []StackGroup
	StacksSorted bool
	// LookaheadSamples is the number of reshuffled copies the policy
	// agent's look-ahead averages over (metadata lookahead_samples); 0
	// when the file does not say, which plays as 1.
	LookaheadSamples int
	// Command is the command line that trained the model.
	Command string
	// TrainedSteps is the number of environment steps trained on, or 0
	// when the file does not say.
	TrainedSteps int64
	// Notes is free text, or "".
	Notes string
	// Extra holds the metadata keys this build does not know.
	Extra map[string]string
}

// encoding returns m's obs_encoding.
func (m *Meta) encoding() string {
	if m.Encoding == "" {
		return EncodingOneHot
	}
	return m.Encoding
}

// outputs returns the width of the last layer: Actions for a policy, 1
// for a value network.
func (m *Meta) outputs() int {
	if m.Head == HeadValue {
		return 1
	}
	return m.Actions
}

// firstInputs returns the input width of the first layer: OneHotLen, or a
// card-embedding network's InputLen.
func (m *Meta) firstInputs() int {
	if m.encoding() == EncodingCards {
		return m.InputLen
	}
	return m.OneHotLen
}

// formatFloat writes a float metadata value as the reader reads it back.
func formatFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
