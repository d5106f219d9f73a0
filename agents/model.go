package agents

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
)

// A policy model file is a safetensors file (see docs/models.md) that holds
// an MLP over the one-hot observation of one game:
//
//	layers.0.weight [h0, OneHotLen]   layers.0.bias [h0]
//	layers.1.weight [h1, h0]          layers.1.bias [h1]
//	...
//	layers.K.weight [Actions, hK-1]   layers.K.bias [Actions]
//
// in the PyTorch nn.Linear layout (out × in, row-major), dtype F32 (F16 and
// BF16 are read too, widened exactly), with ReLU between the layers and the
// logits of the Actions actions out. The layers are numbered 0..K without
// gaps, whatever the trainer's module names were. The "__metadata__" map
// holds the keys ModelRequiredKeys lists (and may hold others, which are
// kept).

// The fixed values of a policy model file's metadata.
const (
	// ModelFormat is the value of the "format" key.
	ModelFormat = "patience-policy"
	// ModelFormatVersion is the value of the "format_version" key this
	// build reads.
	ModelFormatVersion = 1
	// ModelEncoding is the value of "obs_encoding" of a network whose first
	// layer has a row per one-hot input: its input is env.Spec.OneHot of
	// the observation.
	ModelEncoding = "onehot"
	// ModelEncodingCards is the value of "obs_encoding" of a card-embedding
	// network: its first layer sees each card cell through a card embedding
	// shared by all card cells (tensor "cards.weight", [CardCodes,
	// card_dim]) and every other cell one-hot. It is the same function of
	// the one-hot observation as a onehot network, whose first-layer weight
	// is the embedding's product with the compact one, stored in far fewer
	// bytes; the reader expands it (see docs/models.md).
	ModelEncodingCards = "card-embedding"
	// CardCodes is the number of values of a card cell (0 empty, 1..52 a
	// card, 53 face down): the rows of a card embedding.
	CardCodes = int(cards.FaceDown) + 1
	// ModelHeadValue is the value of the optional "head" key of a value
	// network: one output, the expected final progress fraction of the
	// position observed (see docs/models.md). Without the key a network is
	// a policy: one logit per action.
	ModelHeadValue = "value"
	// ModelEvalWeightKey is the optional metadata key of a value network
	// that learnt a correction to the game's evaluation: a number w, and
	// the network's output plus w times the game's evaluation over its
	// cards is a score of the position (a logit when the network was
	// trained on an agent's choices), not a progress fraction. The policy
	// agent then ranks its moves as the heuristic does (a win above all, a
	// dead end below all, ties at random) by that score instead of the
	// evaluation (see actByValue and docs/models.md).
	ModelEvalWeightKey = "eval_weight"
	// ModelEvalTermsKey is the optional metadata key of a value network
	// with eval_weight that also weighs the game's evaluation terms
	// (env.Spec.Terms): a JSON object from term names to numbers, as
	// {"next_buried": -0.3}. The agent adds each term of the position
	// times its number to the score, in the units of the network's output
	// (cards, when eval_weight is the game's card count). A name the game
	// does not have is an error at Check.
	ModelEvalTermsKey = "eval_terms"
	// ModelOpeningTermsKey and ModelOpeningProgressKey are the optional
	// metadata keys of a file with eval_terms that weighs the terms
	// differently in the opening: a JSON object of the same form as
	// eval_terms, and a fraction p of the game's cards (0 < p < 1). While
	// the position the agent moves from has placed less than p of the
	// cards, each term named in the object is weighed by its number there
	// instead of by eval_terms' (a term it does not name keeps eval_terms'
	// weight). All the moves of one position are scored with the same
	// weights. The one needs the other.
	ModelOpeningTermsKey    = "eval_terms_opening"
	ModelOpeningProgressKey = "opening_progress"
	// ModelVetoTermsKey and ModelVetoFloorKey are the optional metadata
	// keys of a file with eval_weight that holds the agent back from moves a
	// logistic model of the terms thinks likely lost: veto_terms is a JSON
	// object of numbers by term name, the weights of the logit z of the
	// chance that the position a move leads to can still be won (plus
	// veto_bias, 0 when absent), and veto_floor a probability f (0 < f <
	// 1). A running position's score gains veto_weight (1 when absent)
	// times min(0, log σ(z) − log f): nothing where the chance is f or
	// more, so that among those moves the file ranks as without the keys.
	// The one needs the other; the bias and the weight need both.
	ModelVetoTermsKey  = "veto_terms"
	ModelVetoFloorKey  = "veto_floor"
	ModelVetoBiasKey   = "veto_bias"
	ModelVetoWeightKey = "veto_weight"
	// ModelActivation is the value of "activation": ReLU between layers.
	ModelActivation = "relu"
	// ModelValueLinkKey is the optional metadata key that says how a value
	// network's output becomes the score the policy agent ranks by: absent
	// (the output as it is) or ModelLinkLogSigmoid.
	ModelValueLinkKey = "value_link"
	// ModelLinkLogSigmoid is the value_link of a network whose output is
	// the logit of a probability (that the position can be won, say): the
	// agent scores a position by the log of that probability,
	// log σ(output), plus the weighted evaluation where eval_weight is set.
	ModelLinkLogSigmoid = "logsigmoid"
	// ModelValueFloorKey is the optional metadata key of a value network
	// with value_link logsigmoid: a probability f (0 < f < 1), and the
	// score of a position is min(0, log σ(output) − log f). Every position
	// the network thinks winnable with a chance of f or more scores 0, so
	// that among them the evaluation ranks (ties at random), and the
	// network only holds the agent back from the moves it thinks likely
	// lost.
	ModelValueFloorKey = "value_floor"
	// ModelStacksKey is the optional metadata key that names groups of
	// stacks in the observation (columns, fans: cells filled from a
	// stack's first cell with no gaps), as OFFSET:COUNT:HEIGHT items
	// separated by semicolons. The network reads the observation with each
	// such stack turned over, its last card first (the card that can be
	// played, then the one under it, ...), and with ModelStacksSortedKey
	// = "1" the stacks of each group in ascending order of their turned
	// cells (so that the order of the columns, which the rules ignore,
	// does not matter). See ArrangeStacks and docs/models.md.
	ModelStacksKey       = "stacks"
	ModelStacksSortedKey = "stacks_sorted"
	// ModelLookaheadSamplesKey is the optional metadata key of a value
	// network for a game with hidden cards: a whole number k from 1 to
	// MaxLookaheadSamples. The policy agent looks one move ahead on k
	// copies of the position, each with the hidden cards reshuffled
	// (determinized), and scores each move by the mean of its k scores, so
	// that a move that draws hidden cards (Four Quarters' close-up) is
	// judged by what it brings on average rather than by one draw. Without
	// the key k is 1. A game without hidden cards has one copy to look at,
	// so Check refuses k above 1 there.
	ModelLookaheadSamplesKey = "lookahead_samples"
	// MaxLookaheadSamples is the largest lookahead_samples a file may
	// give.
	MaxLookaheadSamples = 256
)

// StackGroup is a group of Count stacks of Height cells each, the first at
// observation cell Offset and the others after it (metadata stacks).
type StackGroup struct{ Offset, Count, Height int }

// ArrangeStacks writes into dst (len(src) cells) the observation src as a
// network with stack groups reads it: every stack of each group turned
// over, its last non-empty cell first and empty cells after, and with
// sorted the stacks of each group in ascending lexicographic order of
// their turned cells (stable). Cells outside the groups are copied.
// scratch must hold the largest group's Count×Height cells and order its
// Count. It does not allocate.
func ArrangeStacks(dst, src []uint8, groups []StackGroup, sorted bool, scratch []uint8, order []int) {
	copy(dst, src)
	for _, g := range groups {
		h := g.Height
		turned := scratch[:g.Count*h]
		for s := range g.Count {
			in := src[g.Offset+s*h : g.Offset+(s+1)*h]
			n := 0
			for n < h && in[n] != 0 {
				n++
			}
			out := turned[s*h : (s+1)*h]
			for j := range h {
				if j < n {
					out[j] = in[n-1-j]
				} else {
					out[j] = 0
				}
			}
		}
		ord := order[:g.Count]
		for s := range ord {
			ord[s] = s
		}
		if sorted {
			for i := 1; i < len(ord); i++ { // insertion sort: stable, and groups are small
				k := ord[i]
				j := i
				for j > 0 && lessBytes(turned[k*h:(k+1)*h], turned[ord[j-1]*h:(ord[j-1]+1)*h]) {
					ord[j] = ord[j-1]
					j--
				}
				ord[j] = k
			}
		}
		for s, k := range ord {
			copy(dst[g.Offset+s*h:g.Offset+(s+1)*h], turned[k*h:(k+1)*h])
		}
	}
}

// lessBytes reports whether a sorts before b (equal lengths).
func lessBytes(a, b []uint8) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// ModelRequiredKeys are the metadata keys every policy model file has, all
// strings: format (ModelFormat), format_version ("1"), game (the game's
// registry name), rules_version, obs_len (Spec.ObsLen), obs_encoding
// (ModelEncoding), onehot_len (Spec.OneHotLen()), actions (Spec.Actions),
// hidden (the hidden layer widths, comma-separated: "256,256", or "" for
// none), activation (ModelActivation) and command (the command line that
// trained it). The optional keys are trained_steps (a whole number) and
// notes.
var ModelRequiredKeys = []string{"format", "format_version", "game", "rules_version", "obs_len", "obs_encoding",
	"onehot_len", "actions", "hidden", "activation", "command"}

// ModelMeta is what a policy model file says about itself.
type ModelMeta struct {
	// Game is the game's registry name; RulesVersion its rules version.
	Game         string
	RulesVersion int
	// ObsLen, OneHotLen and Actions are the game's observation length,
	// one-hot length and action count the network was built for.
	ObsLen, OneHotLen, Actions int
	// Hidden are the widths of the hidden layers, input side first.
	Hidden []int
	// Encoding is ModelEncoding or ModelEncodingCards ("" reads as
	// ModelEncoding).
	Encoding string
	// CardDim and InputLen are a card-embedding network's embedding width
	// and first-layer input width (metadata card_dim and input_len); 0
	// for a onehot network.
	CardDim, InputLen int
	// Head is "" for a policy network (one logit per action) or
	// ModelHeadValue for a value network (one output); metadata key head.
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
	// VetoTerms are the weights of the terms in the veto's logit (metadata
	// key veto_terms) by name, VetoBias its bias, VetoFloor its floor and
	// VetoWeight the weight of its penalty; none and zeros when the file
	// has no veto.
	VetoTerms                       map[string]float64
	VetoBias, VetoFloor, VetoWeight float64
	// ValueLink is a value network's link (metadata value_link): "" or
	// ModelLinkLogSigmoid.
	ValueLink string
	// ValueFloor is the probability of metadata value_floor, 0 when the
	// file has none.
	ValueFloor float64
	// Stacks are the stack groups the network reads turned over (and
	// Sorted, sorted); none when the file has no stacks key.
	Stacks       []StackGroup
	StacksSorted bool
	// LookaheadSamples is the number of determinized copies the policy
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

// metadata returns m as a policy file's metadata map.
func (m *ModelMeta) metadata() map[string]string {
	out := map[string]string{}
	for k, v := range m.Extra {
		out[k] = v
	}
	hidden := make([]string, len(m.Hidden))
	for i, h := range m.Hidden {
		hidden[i] = strconv.Itoa(h)
	}
	for k, v := range map[string]string{
		"format":         ModelFormat,
		"format_version": strconv.Itoa(ModelFormatVersion),
		"game":           m.Game,
		"rules_version":  strconv.Itoa(m.RulesVersion),
		"obs_len":        strconv.Itoa(m.ObsLen),
		"obs_encoding":   m.encoding(),
		"onehot_len":     strconv.Itoa(m.OneHotLen),
		"actions":        strconv.Itoa(m.Actions),
		"hidden":         strings.Join(hidden, ","),
		"activation":     ModelActivation,
		"command":        m.Command,
	} {
		out[k] = v
	}
	if m.Head != "" {
		out["head"] = m.Head
	}
	if m.EvalWeight != 0 {
		out[ModelEvalWeightKey] = strconv.FormatFloat(m.EvalWeight, 'g', -1, 64)
	}
	if len(m.EvalTerms) > 0 {
		b, _ := json.Marshal(m.EvalTerms) // finite numbers by name: cannot fail
		out[ModelEvalTermsKey] = string(b)
	}
	if len(m.OpeningTerms) > 0 {
		b, _ := json.Marshal(m.OpeningTerms) // finite numbers by name: cannot fail
		out[ModelOpeningTermsKey] = string(b)
		out[ModelOpeningProgressKey] = strconv.FormatFloat(m.OpeningProgress, 'g', -1, 64)
	}
	if len(m.VetoTerms) > 0 {
		b, _ := json.Marshal(m.VetoTerms) // finite numbers by name: cannot fail
		out[ModelVetoTermsKey] = string(b)
		out[ModelVetoFloorKey] = strconv.FormatFloat(m.VetoFloor, 'g', -1, 64)
		out[ModelVetoBiasKey] = strconv.FormatFloat(m.VetoBias, 'g', -1, 64)
		out[ModelVetoWeightKey] = strconv.FormatFloat(m.VetoWeight, 'g', -1, 64)
	}
	if m.ValueLink != "" {
		out[ModelValueLinkKey] = m.ValueLink
	}
	if m.ValueFloor != 0 {
		out[ModelValueFloorKey] = strconv.FormatFloat(m.ValueFloor, 'g', -1, 64)
	}
	if len(m.Stacks) > 0 {
		items := make([]string, len(m.Stacks))
		for i, g := range m.Stacks {
			items[i] = fmt.Sprintf("%d:%d:%d", g.Offset, g.Count, g.Height)
		}
		out[ModelStacksKey] = strings.Join(items, ";")
		if m.StacksSorted {
			out[ModelStacksSortedKey] = "1"
		}
	}
	if m.LookaheadSamples != 0 {
		out[ModelLookaheadSamplesKey] = strconv.Itoa(m.LookaheadSamples)
	}
	if m.encoding() == ModelEncodingCards {
		out["card_dim"] = strconv.Itoa(m.CardDim)
		out["input_len"] = strconv.Itoa(m.InputLen)
	}
	if m.TrainedSteps > 0 {
		out["trained_steps"] = strconv.FormatInt(m.TrainedSteps, 10)
	}
	if m.Notes != "" {
		out["notes"] = m.Notes
	}
	return out
}

// encoding returns m's obs_encoding.
func (m *ModelMeta) encoding() string {
	if m.Encoding == "" {
		return ModelEncoding
	}
	return m.Encoding
}

// outputs returns the width of the last layer: Actions for a policy, 1
// for a value network.
func (m *ModelMeta) outputs() int {
	if m.Head == ModelHeadValue {
		return 1
	}
	return m.Actions
}

// firstInputs returns the input width of the first layer: OneHotLen, or a
// card-embedding network's InputLen.
func (m *ModelMeta) firstInputs() int {
	if m.encoding() == ModelEncodingCards {
		return m.InputLen
	}
	return m.OneHotLen
}

// parseModelMeta reads and checks a policy file's metadata.
func parseModelMeta(md map[string]string) (ModelMeta, error) {
	if md == nil {
		return ModelMeta{}, fmt.Errorf("no __metadata__: a policy file says format=%q, its game and its sizes there", ModelFormat)
	}
	if f, ok := md["format"]; !ok || f != ModelFormat {
		if !ok {
			return ModelMeta{}, fmt.Errorf("metadata has no format key: not a patience policy file (want format=%q)", ModelFormat)
		}
		return ModelMeta{}, fmt.Errorf("metadata format is %q, not %q: not a patience policy file", f, ModelFormat)
	}
	var missing []string
	for _, k := range ModelRequiredKeys {
		if _, ok := md[k]; !ok {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return ModelMeta{}, fmt.Errorf("metadata lacks the required keys %s", strings.Join(missing, ", "))
	}
	if v := md["format_version"]; v != strconv.Itoa(ModelFormatVersion) {
		return ModelMeta{}, fmt.Errorf("metadata format_version is %q; this build reads version %d", v, ModelFormatVersion)
	}
	if v := md["obs_encoding"]; v != ModelEncoding && v != ModelEncodingCards {
		return ModelMeta{}, fmt.Errorf("metadata obs_encoding is %q; this build reads %q and %q", v, ModelEncoding, ModelEncodingCards)
	}
	if v := md["activation"]; v != ModelActivation {
		return ModelMeta{}, fmt.Errorf("metadata activation is %q; this build supports only %q", v, ModelActivation)
	}
	m := ModelMeta{Game: md["game"], Command: md["command"], Notes: md["notes"], Encoding: md["obs_encoding"], Head: md["head"]}
	if m.Head != "" && m.Head != ModelHeadValue {
		return ModelMeta{}, fmt.Errorf("metadata head is %q; this build reads %q (or no head: a policy)", m.Head, ModelHeadValue)
	}
	if m.Game == "" {
		return ModelMeta{}, errors.New("metadata game is empty")
	}
	if v, ok := md[ModelEvalWeightKey]; ok {
		w, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(w) || math.IsInf(w, 0) {
			return ModelMeta{}, fmt.Errorf("metadata %s is %q; want a finite number", ModelEvalWeightKey, v)
		}
		if m.Head != ModelHeadValue {
			return ModelMeta{}, fmt.Errorf("metadata has %s but no head=%s: only a value network weighs the evaluation", ModelEvalWeightKey, ModelHeadValue)
		}
		m.EvalWeight = w
	}
	if v, ok := md[ModelEvalTermsKey]; ok {
		terms, err := parseTermWeights(ModelEvalTermsKey, v, true)
		if err != nil {
			return ModelMeta{}, err
		}
		if _, ok := md[ModelEvalWeightKey]; !ok {
			return ModelMeta{}, fmt.Errorf("metadata has %s but no %s: the terms correct the weighted evaluation", ModelEvalTermsKey, ModelEvalWeightKey)
		}
		m.EvalTerms = terms
	}
	if err := m.parseOpening(md); err != nil {
		return ModelMeta{}, err
	}
	if err := m.parseVeto(md); err != nil {
		return ModelMeta{}, err
	}
	if v, ok := md[ModelValueLinkKey]; ok {
		if v != ModelLinkLogSigmoid {
			return ModelMeta{}, fmt.Errorf("metadata %s is %q; this build reads %q", ModelValueLinkKey, v, ModelLinkLogSigmoid)
		}
		if m.Head != ModelHeadValue {
			return ModelMeta{}, fmt.Errorf("metadata has %s but no head=%s: only a value network has a link", ModelValueLinkKey, ModelHeadValue)
		}
		m.ValueLink = v
	}
	if v, ok := md[ModelValueFloorKey]; ok {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || !(f > 0 && f < 1) {
			return ModelMeta{}, fmt.Errorf("metadata %s is %q; want a probability above 0 and below 1", ModelValueFloorKey, v)
		}
		if m.ValueLink != ModelLinkLogSigmoid {
			return ModelMeta{}, fmt.Errorf("metadata has %s but no %s=%s: a floor is a probability", ModelValueFloorKey, ModelValueLinkKey, ModelLinkLogSigmoid)
		}
		m.ValueFloor = f
	}
	if v, ok := md[ModelStacksKey]; ok {
		for item := range strings.SplitSeq(v, ";") {
			var g StackGroup
			parts := strings.Split(strings.TrimSpace(item), ":")
			ok := len(parts) == 3
			for i, dst := range []*int{&g.Offset, &g.Count, &g.Height} {
				if !ok {
					break
				}
				n, err := strconv.Atoi(parts[i])
				ok = err == nil && n >= 0 && n <= 1<<20 && (i == 0 || n > 0)
				*dst = n
			}
			if !ok {
				return ModelMeta{}, fmt.Errorf("metadata %s is %q; want OFFSET:COUNT:HEIGHT items (counts positive) separated by semicolons, as \"0:15:31\"", ModelStacksKey, v)
			}
			m.Stacks = append(m.Stacks, g)
		}
		switch s := md[ModelStacksSortedKey]; s {
		case "", "0":
		case "1":
			m.StacksSorted = true
		default:
			return ModelMeta{}, fmt.Errorf("metadata %s is %q; want 0 or 1", ModelStacksSortedKey, s)
		}
	} else if _, ok := md[ModelStacksSortedKey]; ok {
		return ModelMeta{}, fmt.Errorf("metadata has %s but no %s", ModelStacksSortedKey, ModelStacksKey)
	}
	if v, ok := md[ModelLookaheadSamplesKey]; ok {
		k, err := strconv.Atoi(v)
		if err != nil || k < 1 || k > MaxLookaheadSamples {
			return ModelMeta{}, fmt.Errorf("metadata %s is %q; want a whole number from 1 to %d", ModelLookaheadSamplesKey, v, MaxLookaheadSamples)
		}
		if m.Head != ModelHeadValue {
			return ModelMeta{}, fmt.Errorf("metadata has %s but no head=%s: only a value network is played by looking ahead", ModelLookaheadSamplesKey, ModelHeadValue)
		}
		m.LookaheadSamples = k
	}
	for _, f := range []struct {
		key string
		dst *int
		min int
	}{{"rules_version", &m.RulesVersion, 0}, {"obs_len", &m.ObsLen, 1}, {"onehot_len", &m.OneHotLen, 1}, {"actions", &m.Actions, 1}} {
		n, err := strconv.Atoi(md[f.key])
		if err != nil || n < f.min {
			return ModelMeta{}, fmt.Errorf("metadata %s is %q; want a whole number of at least %d", f.key, md[f.key], f.min)
		}
		*f.dst = n
	}
	if h := strings.TrimSpace(md["hidden"]); h != "" {
		for item := range strings.SplitSeq(h, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(item))
			if err != nil || n <= 0 {
				return ModelMeta{}, fmt.Errorf("metadata hidden is %q; want positive widths separated by commas, as \"256,256\"", md["hidden"])
			}
			m.Hidden = append(m.Hidden, n)
		}
	}
	if m.Encoding == ModelEncodingCards {
		for _, f := range []struct {
			key string
			dst *int
		}{{"card_dim", &m.CardDim}, {"input_len", &m.InputLen}} {
			n, err := strconv.Atoi(md[f.key])
			if err != nil || n < 1 {
				return ModelMeta{}, fmt.Errorf("metadata %s is %q; a %s model needs a whole number of at least 1", f.key, md[f.key], ModelEncodingCards)
			}
			*f.dst = n
		}
		if len(m.Hidden) == 0 {
			return ModelMeta{}, fmt.Errorf("metadata hidden is empty; a %s model has at least one hidden layer", ModelEncodingCards)
		}
	}
	if v, ok := md["trained_steps"]; ok && v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return ModelMeta{}, fmt.Errorf("metadata trained_steps is %q; want a whole number", v)
		}
		m.TrainedSteps = n
	}
	known := append(slices.Clone(ModelRequiredKeys), "trained_steps", "notes", "head", ModelEvalWeightKey, ModelEvalTermsKey, ModelValueLinkKey,
		ModelValueFloorKey, ModelStacksKey, ModelStacksSortedKey, ModelOpeningTermsKey, ModelOpeningProgressKey, ModelLookaheadSamplesKey,
		ModelVetoTermsKey, ModelVetoFloorKey, ModelVetoBiasKey, ModelVetoWeightKey)
	if m.Encoding == ModelEncodingCards {
		known = append(known, "card_dim", "input_len")
	}
	for k, v := range md {
		if !slices.Contains(known, k) {
			if m.Extra == nil {
				m.Extra = map[string]string{}
			}
			m.Extra[k] = v
		}
	}
	return m, nil
}

// Model is a policy network loaded from a file: read-only weights that any
// number of goroutines share. Evaluate it through a Net (NewNet), which
// holds the buffers of one goroutine.
type Model struct {
	meta   ModelMeta
	source string // the file it came from, for messages
	sum    string // the hex SHA-256 of the file's bytes ("" if built in memory)
	// w0t is the first layer's weight transposed, [OneHotLen][width0]
	// row-major: the row of one-hot input j is contiguous, so a one-hot
	// input is a sum of rows.
	w0t   []float32
	b0    []float32
	dense []denseLayer // the layers after the first

	// A card-embedding network's stored first layer: the embedding
	// [CardCodes][CardDim] and the compact weight [width0][InputLen]. Its
	// w0t is computed from them, for the game's cell layout, by the first
	// NewNet (expand).
	cards, w0c []float32
	expand     *sync.Once
}

// denseLayer is one layer after the first: w is [out][in] row-major.
type denseLayer struct {
	w, b    []float32
	in, out int
}

// NewModel builds a model from its metadata and its layers' weights and
// biases in the PyTorch layout (weights[i] is out × in, row-major). The
// shapes must agree with meta; the slices are copied. A card-embedding
// model (meta.Encoding) is built by NewCardModel.
func NewModel(meta ModelMeta, weights, biases [][]float32) (*Model, error) {
	if meta.encoding() != ModelEncoding {
		return nil, fmt.Errorf("NewModel builds %s models; a %s model needs its card embedding (NewCardModel)", ModelEncoding, meta.encoding())
	}
	return newModel(meta, nil, weights, biases)
}

// NewCardModel builds a card-embedding model (meta.Encoding is
// ModelEncodingCards) from its card embedding (CardCodes × meta.CardDim,
// row-major) and its layers, the first of which is hidden[0] ×
// meta.InputLen. The slices are copied.
func NewCardModel(meta ModelMeta, embedding []float32, weights, biases [][]float32) (*Model, error) {
	if meta.encoding() != ModelEncodingCards || meta.CardDim < 1 || meta.InputLen < 1 || len(meta.Hidden) == 0 {
		return nil, fmt.Errorf("NewCardModel needs metadata of encoding %s with card_dim, input_len and a hidden layer", ModelEncodingCards)
	}
	if len(embedding) != CardCodes*meta.CardDim {
		return nil, fmt.Errorf("card embedding: want %d×%d values, got %d", CardCodes, meta.CardDim, len(embedding))
	}
	return newModel(meta, embedding, weights, biases)
}

func newModel(meta ModelMeta, embedding []float32, weights, biases [][]float32) (*Model, error) {
	k := len(meta.Hidden) + 1
	if len(weights) != k || len(biases) != k {
		return nil, fmt.Errorf("hidden %v needs %d layers, got %d weights and %d biases", meta.Hidden, k, len(weights), len(biases))
	}
	widths := append(append([]int{meta.firstInputs()}, meta.Hidden...), meta.outputs())
	for i := range k {
		in, out := widths[i], widths[i+1]
		if len(weights[i]) != in*out || len(biases[i]) != out {
			return nil, fmt.Errorf("layer %d: want weight %d×%d and bias %d, got %d and %d values", i, out, in, out, len(weights[i]), len(biases[i]))
		}
	}
	meta.Encoding = meta.encoding()
	m := &Model{meta: meta}
	in0, out0 := widths[0], widths[1]
	if embedding != nil {
		m.cards, m.w0c, m.expand = slices.Clone(embedding), slices.Clone(weights[0]), new(sync.Once)
	} else {
		m.w0t = make([]float32, in0*out0)
		for o := range out0 {
			for j, x := range weights[0][o*in0 : (o+1)*in0] {
				m.w0t[j*out0+o] = x
			}
		}
	}
	m.b0 = slices.Clone(biases[0])
	for i := 1; i < k; i++ {
		m.dense = append(m.dense, denseLayer{w: slices.Clone(weights[i]), b: slices.Clone(biases[i]), in: widths[i], out: widths[i+1]})
	}
	return m, nil
}

// layerName returns the tensor names of layer i.
func layerName(i int, part string) string { return "layers." + strconv.Itoa(i) + "." + part }

// DecodeModel reads a policy model file held in data; source names it in
// messages (a path).
func DecodeModel(data []byte, source string) (*Model, error) {
	m, err := decodeModel(data)
	if err != nil {
		return nil, fmt.Errorf("model %s: %w", source, err)
	}
	m.source = source
	h := sha256.Sum256(data)
	m.sum = hex.EncodeToString(h[:])
	return m, nil
}

func decodeModel(data []byte) (*Model, error) {
	f, err := decodeSafetensors(data)
	if err != nil {
		return nil, err
	}
	meta, err := parseModelMeta(f.metadata)
	if err != nil {
		return nil, err
	}
	k := len(meta.Hidden) + 1
	widths := append(append([]int{meta.firstInputs()}, meta.Hidden...), meta.outputs())
	cardModel := meta.encoding() == ModelEncodingCards
	for name := range f.tensors {
		ok := cardModel && name == cardsTensor
		for i := range k {
			ok = ok || name == layerName(i, "weight") || name == layerName(i, "bias")
		}
		if !ok {
			return nil, fmt.Errorf("unexpected tensor %q: with hidden=%q the file holds layers.0 to layers.%d, each .weight and .bias",
				name, joinInts(meta.Hidden), k-1)
		}
	}
	var embedding []float32
	if cardModel {
		if embedding, err = tensorFloats(f, cardsTensor, []int{CardCodes, meta.CardDim}, "[54 card codes, card_dim]"); err != nil {
			return nil, err
		}
	}
	weights, biases := make([][]float32, k), make([][]float32, k)
	for i := range k {
		in, out := widths[i], widths[i+1]
		for _, p := range []struct {
			part  string
			shape []int
			dst   *[]float32
		}{{"weight", []int{out, in}, &weights[i]}, {"bias", []int{out}, &biases[i]}} {
			name := layerName(i, p.part)
			if _, ok := f.tensors[name]; !ok {
				return nil, fmt.Errorf("tensor %s is missing (hidden=%q means layers.0 to layers.%d)", name, joinInts(meta.Hidden), k-1)
			}
			why := shapeWhy(i, k, p.part, meta.Head)
			if cardModel && i == 0 && p.part == "weight" {
				why = "[hidden[0], input_len]"
			}
			if *p.dst, err = tensorFloats(f, name, p.shape, why); err != nil {
				return nil, err
			}
		}
	}
	return newModel(meta, embedding, weights, biases)
}

// cardsTensor is the name of a card-embedding model's embedding tensor.
const cardsTensor = "cards.weight"

// tensorFloats returns tensor name of f as float32s after checking its
// presence, dtype and shape (why says where the shape comes from).
func tensorFloats(f *stFile, name string, shape []int, why string) ([]float32, error) {
	t, ok := f.tensors[name]
	if !ok {
		return nil, fmt.Errorf("tensor %s is missing", name)
	}
	if t.dtype != "F32" && t.dtype != "F16" && t.dtype != "BF16" {
		return nil, fmt.Errorf("tensor %s has dtype %s; want F32 (or F16, BF16)", name, t.dtype)
	}
	if !slices.Equal(t.shape, shape) {
		return nil, fmt.Errorf("tensor %s has shape %v, want %v (%s)", name, t.shape, shape, why)
	}
	return t.floats()
}

// shapeWhy says where the expected shape of layer i's part comes from.
func shapeWhy(i, k int, part, head string) string {
	out, last := "hidden", "actions"
	if head == ModelHeadValue {
		last = "1 (a value head)"
	}
	if i == k-1 {
		out = last
	}
	switch {
	case part == "bias":
		return "[" + out + "]"
	case i == 0 && k == 1:
		return "[" + last + ", onehot_len]"
	case i == 0:
		return "[hidden[0], onehot_len]"
	}
	return "[" + out + ", previous hidden]"
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}

// MaxModelFile bounds the size of a model file LoadModel reads: the
// committed models are a few MB, and a larger file is refused before it is
// read, so that naming the wrong file (a dataset, a device) cannot fill the
// memory.
const MaxModelFile = 256 << 20

// LoadModel reads the policy model file at path. It refuses, before
// reading, anything but a regular file of at most MaxModelFile bytes, and
// the reader allocates nothing a header declares beyond the file's own
// size: a header's shapes and offsets are checked against the bytes that
// are really there first.
func LoadModel(path string) (*Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("model %s: not a regular file (%s)", path, fi.Mode().Type())
	}
	if fi.Size() > MaxModelFile {
		return nil, fmt.Errorf("model %s: %d bytes, more than a model file may have (%d MiB); is it a model?", path, fi.Size(), MaxModelFile>>20)
	}
	// Read at most one byte past the limit, in case the file grew since Stat.
	data, err := io.ReadAll(io.LimitReader(f, MaxModelFile+1))
	if err != nil {
		return nil, fmt.Errorf("model %s: %w", path, err)
	}
	if len(data) > MaxModelFile {
		return nil, fmt.Errorf("model %s: more than a model file may have (%d MiB)", path, MaxModelFile>>20)
	}
	return DecodeModel(data, path)
}

// Meta returns what the file says about the model.
func (m *Model) Meta() ModelMeta { return m.meta }

// Source returns the file the model was read from ("" if built by NewModel).
func (m *Model) Source() string { return m.source }

// SHA256 returns the hex SHA-256 of the file the model was read from (""
// if built by NewModel): what a dataset records to name the model exactly.
func (m *Model) SHA256() string { return m.sum }

// name is how messages refer to the model.
func (m *Model) name() string {
	if m.source == "" {
		return "model"
	}
	return "model " + m.source
}

// Check returns an error, naming both values, unless the model was made for
// the game spec describes: the same game, rules version, observation
// length, one-hot length and action count.
func (m *Model) Check(spec *env.Spec) error {
	mm := &m.meta
	switch {
	case mm.Game != spec.Name:
		return fmt.Errorf("%s was trained for %s, not %s", m.name(), mm.Game, spec.Name)
	case mm.RulesVersion != spec.RulesVersion:
		return fmt.Errorf("%s was trained under %s rules version %d; this build plays rules version %d", m.name(), mm.Game, mm.RulesVersion, spec.RulesVersion)
	case mm.ObsLen != spec.ObsLen:
		return fmt.Errorf("%s expects observations of %d cells; %s's have %d", m.name(), mm.ObsLen, spec.Name, spec.ObsLen)
	case mm.OneHotLen != spec.OneHotLen():
		return fmt.Errorf("%s expects a one-hot input of %d; %s's one-hot observation has %d", m.name(), mm.OneHotLen, spec.Name, spec.OneHotLen())
	case mm.Actions != spec.Actions:
		return fmt.Errorf("%s has %d actions; %s has %d", m.name(), mm.Actions, spec.Name, spec.Actions)
	case mm.encoding() == ModelEncodingCards && mm.InputLen != CardInputLen(spec, mm.CardDim):
		return fmt.Errorf("%s has a first-layer input of %d; %s's cells with card_dim %d make %d",
			m.name(), mm.InputLen, spec.Name, mm.CardDim, CardInputLen(spec, mm.CardDim))
	}
	if mm.LookaheadSamples > 1 && !spec.Hidden {
		return fmt.Errorf("%s looks ahead on %s=%d copies, but %s has no hidden cards: its one copy is exact (want %s 1 or none)",
			m.name(), ModelLookaheadSamplesKey, mm.LookaheadSamples, spec.Name, ModelLookaheadSamplesKey)
	}
	// Every term the file weighs is one of the game's.
	for _, terms := range []map[string]float64{mm.EvalTerms, mm.OpeningTerms, mm.VetoTerms} {
		for name := range terms {
			if spec.TermIndex(name) < 0 {
				return fmt.Errorf("%s weighs the evaluation term %q; %s", m.name(), name, termList(spec))
			}
		}
	}
	// Each stack group lies within one card segment.
	for _, g := range mm.Stacks {
		ok := false
		for _, seg := range spec.Segments {
			if seg.Card && g.Offset >= seg.Offset && g.Offset+g.Count*g.Height <= seg.Offset+seg.Len {
				ok = true
			}
		}
		if !ok {
			return fmt.Errorf("%s: stacks %d:%d:%d (cells %d to %d) do not lie within one of %s's card segments",
				m.name(), g.Offset, g.Count, g.Height, g.Offset, g.Offset+g.Count*g.Height-1, spec.Name)
		}
	}
	return nil
}

// parseTermWeights reads the value v of metadata key key, a JSON object of
// numbers by term name (eval_terms, eval_terms_opening); an empty one only
// when empty is allowed.
func parseTermWeights(key, v string, empty bool) (map[string]float64, error) {
	var terms map[string]float64
	if err := json.Unmarshal([]byte(v), &terms); err != nil || (len(terms) == 0 && !empty) {
		return nil, fmt.Errorf("metadata %s is %q; want a JSON object of numbers by term name, as {\"next_buried\": -0.3}", key, v)
	}
	return terms, nil
}

// parseOpening reads the opening's term weights and where the opening ends
// (ModelOpeningTermsKey, ModelOpeningProgressKey) from the metadata md of a
// file whose eval_terms m holds.
func (m *ModelMeta) parseOpening(md map[string]string) error {
	v, ok := md[ModelOpeningTermsKey]
	p, pok := md[ModelOpeningProgressKey]
	switch {
	case !ok && !pok:
		return nil
	case !ok:
		return fmt.Errorf("metadata has %s but no %s: it says where the opening's weights end", ModelOpeningProgressKey, ModelOpeningTermsKey)
	case !pok:
		return fmt.Errorf("metadata has %s but no %s: it says where the opening ends", ModelOpeningTermsKey, ModelOpeningProgressKey)
	case len(m.EvalTerms) == 0:
		return fmt.Errorf("metadata has %s but no %s: the opening's weights replace some of them", ModelOpeningTermsKey, ModelEvalTermsKey)
	}
	terms, err := parseTermWeights(ModelOpeningTermsKey, v, false)
	if err != nil {
		return err
	}
	f, err := strconv.ParseFloat(p, 64)
	if err != nil || !(f > 0 && f < 1) {
		return fmt.Errorf("metadata %s is %q; want a fraction of the cards above 0 and below 1", ModelOpeningProgressKey, p)
	}
	m.OpeningTerms, m.OpeningProgress = terms, f
	return nil
}

// parseVeto reads the veto's keys (ModelVetoTermsKey and the others) from
// the metadata md of a file whose eval_weight m holds.
func (m *ModelMeta) parseVeto(md map[string]string) error {
	v, ok := md[ModelVetoTermsKey]
	f, fok := md[ModelVetoFloorKey]
	_, bok := md[ModelVetoBiasKey]
	_, wok := md[ModelVetoWeightKey]
	switch {
	case !ok && !fok && !bok && !wok:
		return nil
	case !ok:
		return fmt.Errorf("metadata has %s, %s or %s but no %s: they belong to the veto's terms", ModelVetoFloorKey, ModelVetoBiasKey, ModelVetoWeightKey, ModelVetoTermsKey)
	case !fok:
		return fmt.Errorf("metadata has %s but no %s: the chance below which a move is held back", ModelVetoTermsKey, ModelVetoFloorKey)
	case m.EvalWeight == 0:
		return fmt.Errorf("metadata has %s but no %s: the veto adds to the weighted evaluation", ModelVetoTermsKey, ModelEvalWeightKey)
	}
	terms, err := parseTermWeights(ModelVetoTermsKey, v, false)
	if err != nil {
		return err
	}
	m.VetoTerms, m.VetoWeight = terms, 1
	if m.VetoFloor, err = strconv.ParseFloat(f, 64); err != nil || !(m.VetoFloor > 0 && m.VetoFloor < 1) {
		return fmt.Errorf("metadata %s is %q; want a probability above 0 and below 1", ModelVetoFloorKey, f)
	}
	for _, k := range []struct {
		key, want string
		dst       *float64
		positive  bool
	}{
		{ModelVetoBiasKey, "a finite number", &m.VetoBias, false},
		{ModelVetoWeightKey, "a finite number above 0", &m.VetoWeight, true},
	} {
		s, ok := md[k.key]
		if !ok {
			continue
		}
		x, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) || (k.positive && x <= 0) {
			return fmt.Errorf("metadata %s is %q; want %s", k.key, s, k.want)
		}
		*k.dst = x
	}
	return nil
}

// vetoWeights returns the veto's term weights in the order of spec.Terms
// (0 for a term it does not weigh), or nil when the file has no veto.
// Check has made sure that every name is spec's.
func (m *Model) vetoWeights(spec *env.Spec) []float64 {
	if len(m.meta.VetoTerms) == 0 {
		return nil
	}
	w := make([]float64, len(spec.Terms))
	for i, t := range spec.Terms {
		w[i] = m.meta.VetoTerms[t.Name]
	}
	return w
}

// termList says which evaluation terms spec's game has.
func termList(spec *env.Spec) string {
	if len(spec.Terms) == 0 {
		return spec.Name + "'s evaluation has no named terms"
	}
	names := make([]string, len(spec.Terms))
	for i, t := range spec.Terms {
		names[i] = t.Name
	}
	return spec.Name + "'s are " + strings.Join(names, ", ")
}

// termWeights returns the file's eval_terms in the order of spec.Terms (0
// for a term it does not weigh), or nil when it weighs none, and the same
// for the opening (eval_terms_opening over eval_terms), nil when the file
// has no opening. Check has made sure that every name is spec's.
func (m *Model) termWeights(spec *env.Spec) (w, opening []float64) {
	if len(m.meta.EvalTerms) == 0 {
		return nil, nil
	}
	w = make([]float64, len(spec.Terms))
	for i, t := range spec.Terms {
		w[i] = m.meta.EvalTerms[t.Name]
	}
	if len(m.meta.OpeningTerms) == 0 {
		return w, nil
	}
	opening = slices.Clone(w)
	for i, t := range spec.Terms {
		if x, ok := m.meta.OpeningTerms[t.Name]; ok {
			opening[i] = x
		}
	}
	return w, opening
}

// CardInputLen returns the first-layer input width of a card-embedding
// network of spec's game: cardDim per card cell, Max+1 per other cell.
func CardInputLen(spec *env.Spec, cardDim int) int {
	n := 0
	for _, g := range spec.Segments {
		if g.Card {
			n += g.Len * cardDim
		} else {
			n += g.Len * (int(g.Max) + 1)
		}
	}
	return n
}

// expandCards computes a card-embedding model's first-layer weight over
// the one-hot input (w0t, [OneHotLen][width0]) for spec's cell layout: the
// row of card cell c at value v is the compact weight's card_dim columns of
// c times the embedding of v; the row of another cell at value v is the
// compact weight's column for v. Check has approved spec.
func (m *Model) expandCards(spec *env.Spec) {
	d, in, out0 := m.meta.CardDim, m.meta.InputLen, len(m.b0)
	w0t := make([]float32, spec.OneHotLen()*out0)
	row, col := 0, 0
	for _, g := range spec.Segments {
		for range g.Len {
			for v := 0; v <= int(g.Max); v++ {
				dst := w0t[(row+v)*out0 : (row+v+1)*out0]
				for o := range dst {
					w := m.w0c[o*in+col:]
					if g.Card {
						var s float32
						for j, e := range m.cards[v*d : (v+1)*d] {
							s += w[j] * e
						}
						dst[o] = s
					} else {
						dst[o] = w[v]
					}
				}
			}
			row += int(g.Max) + 1
			if g.Card {
				col += d
			} else {
				col += int(g.Max) + 1
			}
		}
	}
	m.w0t = w0t
}

// WriteTo writes the model as a policy model file (F32).
func (m *Model) WriteTo(w io.Writer) (int64, error) {
	k := len(m.dense) + 1
	names := make([]string, 0, 2*k)
	shapes := make([][]int, 0, 2*k)
	data := make([][]float32, 0, 2*k)
	in0, out0 := m.meta.firstInputs(), len(m.b0)
	w0 := m.w0c
	if m.cards != nil {
		names = append(names, cardsTensor)
		shapes = append(shapes, []int{CardCodes, m.meta.CardDim})
		data = append(data, m.cards)
	} else {
		w0 = make([]float32, in0*out0)
		for j := range in0 {
			for o := range out0 {
				w0[o*in0+j] = m.w0t[j*out0+o]
			}
		}
	}
	names = append(names, layerName(0, "weight"), layerName(0, "bias"))
	shapes = append(shapes, []int{out0, in0}, []int{out0})
	data = append(data, w0, m.b0)
	for i, l := range m.dense {
		names = append(names, layerName(i+1, "weight"), layerName(i+1, "bias"))
		shapes = append(shapes, []int{l.out, l.in}, []int{l.out})
		data = append(data, l.w, l.b)
	}
	bw := bufio.NewWriter(w)
	n, err := writeSafetensors(bw, names, shapes, data, m.meta.metadata())
	if err == nil {
		err = bw.Flush()
	}
	return n, err
}

// Net evaluates a Model on the observations of one game. It holds the
// buffers of one goroutine (the weights stay shared), so computing logits
// allocates nothing. It is not safe for concurrent use.
type Net struct {
	m      *Model
	cells  []int32     // the one-hot offset of each observation cell
	max    []uint8     // the largest value of each cell (larger ones clip)
	acts   [][]float32 // the output of each layer; the last is the logits
	probs  []float64   // scratch for sampling and log-probabilities
	logits []float32
	// The observation as the network reads it, when the model has stack
	// groups (ArrangeStacks), and its scratch.
	arranged, turned []uint8
	order            []int
}

// NewNet checks that m was made for spec's game (see Check) and returns a
// Net for it.
func (m *Model) NewNet(spec *env.Spec) (*Net, error) {
	if err := m.Check(spec); err != nil {
		return nil, err
	}
	if m.cards != nil {
		m.expand.Do(func() { m.expandCards(spec) })
	}
	n := &Net{m: m, cells: make([]int32, spec.ObsLen), max: make([]uint8, spec.ObsLen), probs: make([]float64, spec.Actions)}
	o := 0
	for _, g := range spec.Segments {
		for i := g.Offset; i < g.Offset+g.Len; i++ {
			n.cells[i], n.max[i] = int32(o), g.Max
			o += int(g.Max) + 1
		}
	}
	n.acts = append(n.acts, make([]float32, len(m.b0)))
	for _, l := range m.dense {
		n.acts = append(n.acts, make([]float32, l.out))
	}
	n.logits = n.acts[len(n.acts)-1]
	if len(m.meta.Stacks) > 0 {
		big, cnt := 0, 0
		for _, g := range m.meta.Stacks {
			big, cnt = max(big, g.Count*g.Height), max(cnt, g.Count)
		}
		n.arranged, n.turned, n.order = make([]uint8, spec.ObsLen), make([]uint8, big), make([]int, cnt)
	}
	return n, nil
}

// Score returns a value network's score of the position observed: its
// output, or log σ(output) with value_link logsigmoid, less log f and
// capped at 0 with value_floor f. It does not allocate.
func (n *Net) Score(obs []uint8) float64 {
	v := float64(n.Value(obs))
	if n.m.meta.ValueLink == ModelLinkLogSigmoid {
		s := logSigmoid(v)
		if f := n.m.meta.ValueFloor; f > 0 {
			s = min(0, s-math.Log(f))
		}
		return s
	}
	return v
}

// logSigmoid is log σ(v) = −log(1 + e^−v), computed without overflow.
func logSigmoid(v float64) float64 {
	if v >= 0 {
		return -math.Log1p(math.Exp(-v))
	}
	return v - math.Log1p(math.Exp(v))
}

// Model returns the model the net evaluates.
func (n *Net) Model() *Model { return n.m }

// IsValue reports whether the model is a value network (metadata head
// "value"): one output, read with Value, instead of a logit per action.
func (m *Model) IsValue() bool { return m.meta.Head == ModelHeadValue }

// Value computes a value network's output for observation obs: the
// expected final progress fraction from that position, as trained. It does
// not allocate. On a policy network it returns the first logit.
func (n *Net) Value(obs []uint8) float32 { return n.Logits(obs)[0] }

// Logits computes the network's output for observation obs (Spec.ObsLen
// cells) and returns it: one logit per action (a value network's single
// value), in a buffer of the Net that
// the next call overwrites. It does not allocate.
//
// The first layer over the one-hot input is a sum of rows: each cell has
// exactly one hot input, so the layer adds ObsLen rows of the transposed
// weight to the bias instead of multiplying a mostly-zero vector. The other
// layers are dense matrix-vector products (gonum's BLAS).
func (n *Net) Logits(obs []uint8) []float32 {
	m := n.m
	if n.arranged != nil {
		ArrangeStacks(n.arranged, obs[:len(n.arranged)], m.meta.Stacks, m.meta.StacksSorted, n.turned, n.order)
		obs = n.arranged
	}
	h := n.acts[0]
	w := len(h)
	if w == 1 {
		// A first layer one unit wide (a linear value file): the sum of
		// one weight per cell, in the order and with the rounding of the
		// Axpy calls below, without their cost per call.
		s := m.b0[0]
		for i, v := range obs[:len(n.cells)] {
			s += m.w0t[int(n.cells[i])+int(min(v, n.max[i]))]
		}
		h[0] = s
	} else {
		copy(h, m.b0)
		y := blas32.Vector{N: w, Inc: 1, Data: h}
		for i, v := range obs[:len(n.cells)] {
			r := (int(n.cells[i]) + int(min(v, n.max[i]))) * w
			blas32.Axpy(1, blas32.Vector{N: w, Inc: 1, Data: m.w0t[r : r+w]}, y)
		}
	}
	for i, l := range m.dense {
		x := n.acts[i]
		for j, v := range x {
			x[j] = max(v, 0) // ReLU
		}
		out := n.acts[i+1]
		copy(out, l.b)
		blas32.Gemv(blas.NoTrans, 1, blas32.General{Rows: l.out, Cols: l.in, Stride: l.in, Data: l.w},
			blas32.Vector{N: l.in, Inc: 1, Data: x}, 1, blas32.Vector{N: l.out, Inc: 1, Data: out})
	}
	return n.logits
}

// argmaxMasked returns the legal action with the largest logit, the lowest
// id among equals; a NaN logit counts as −∞. The mask must not be empty.
func argmaxMasked(logits []float32, mask *env.Mask) int {
	best, bv := -1, float32(0)
	for a := mask.Next(0); a >= 0; a = mask.Next(a + 1) {
		v := logits[a]
		if v != v {
			v = float32(math.Inf(-1))
		}
		if best < 0 || v > bv {
			best, bv = a, v
		}
	}
	return best
}

// Argmax returns the legal action (in mask, which must not be empty) with the
// largest of the last logits, the lowest id among equals. It never returns
// an action outside the mask.
func (n *Net) Argmax(mask *env.Mask) int { return argmaxMasked(n.logits, mask) }

// Sample draws a legal action from the softmax of the last logits over the
// actions in mask (which must not be empty), at the given temperature, with
// rng. A temperature of 0 (or less) is Argmax. It does not allocate.
func (n *Net) Sample(mask *env.Mask, temperature float64, rng *cards.Rand) int {
	best := argmaxMasked(n.logits, mask)
	top := float64(n.logits[best])
	if temperature <= 0 || math.IsInf(top, 0) || math.IsNaN(top) {
		return best
	}
	sum := 0.0
	for a := mask.Next(0); a >= 0; a = mask.Next(a + 1) {
		p := math.Exp((float64(n.logits[a]) - top) / temperature) // NaN logits: p is NaN
		if p != p {
			p = 0
		}
		n.probs[a] = p
		sum += p
	}
	u := rng.Float64() * sum
	for a := mask.Next(0); a >= 0; a = mask.Next(a + 1) {
		u -= n.probs[a]
		if u < 0 {
			return a
		}
	}
	return best // rounding left u at 0
}

// LogProbs writes into dst, at the id of every action in mask, the log of
// its probability under the softmax of the last logits over the legal
// actions (0 for the best, negative for the others). Other entries of dst
// are left alone. It does not allocate.
func (n *Net) LogProbs(mask *env.Mask, dst []float64) {
	best := argmaxMasked(n.logits, mask)
	top := float64(n.logits[best])
	sum := 0.0
	for a := mask.Next(0); a >= 0; a = mask.Next(a + 1) {
		if p := math.Exp(float64(n.logits[a]) - top); p == p {
			sum += p
		}
	}
	lse := top + math.Log(sum)
	for a := mask.Next(0); a >= 0; a = mask.Next(a + 1) {
		v := float64(n.logits[a]) - lse
		if v != v || math.IsInf(top, 0) {
			v = math.Inf(-1)
			if a == best {
				v = 0
			}
		}
		dst[a] = v
	}
}
