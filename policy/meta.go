package policy

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// optionalKey is one optional metadata key: how its value is read into a
// Meta (an error says what the value should be), how a Meta writes it
// (false: the key is absent), and the keys it needs beside it.
type optionalKey struct {
	key   string
	read  func(m *Meta, v string) error
	write func(m *Meta) (string, bool)
	needs []need
}

// need is a key that an optional key needs in the same file (with the
// given value, unless value is ""), and why.
type need struct{ key, value, why string }

// optionalKeys are the optional keys in the order they are read: a key's
// value is read before the keys it needs are looked for.
var optionalKeys = []optionalKey{
	{key: KeyHead, read: readHead, write: func(m *Meta) (string, bool) { return m.Head, m.Head != "" }},
	{key: KeyEvalWeight, read: readEvalWeight, write: func(m *Meta) (string, bool) { return formatFloat(m.EvalWeight), m.EvalWeight != 0 },
		needs: []need{{KeyHead, HeadValue, "only a value network weighs the evaluation"}}},
	{key: KeyEvalTerms, read: readEvalTerms, write: func(m *Meta) (string, bool) { return writeTerms(m.EvalTerms) },
		needs: []need{{KeyEvalWeight, "", "the terms correct the weighted evaluation"}}},
	{key: KeyOpeningTerms, read: readOpeningTerms, write: func(m *Meta) (string, bool) { return writeTerms(m.OpeningTerms) },
		needs: []need{{KeyOpeningProgress, "", "it says where the opening ends"}, {KeyEvalTerms, "", "the opening's weights replace some of them"}}},
	{key: KeyOpeningProgress, read: readOpeningProgress,
		write: func(m *Meta) (string, bool) { return formatFloat(m.OpeningProgress), len(m.OpeningTerms) > 0 },
		needs: []need{{KeyOpeningTerms, "", "it says where the opening's weights end"}}},
	{key: KeyValueLink, read: readValueLink, write: func(m *Meta) (string, bool) { return m.ValueLink, m.ValueLink != "" },
		needs: []need{{KeyHead, HeadValue, "only a value network has a link"}}},
	{key: KeyValueFloor, read: readValueFloor, write: func(m *Meta) (string, bool) { return formatFloat(m.ValueFloor), m.ValueFloor != 0 },
		needs: []need{{KeyValueLink, LinkLogSigmoid, "a floor is a probability"}}},
	{key: KeyStacks, read: readStacks, write: func(m *Meta) (string, bool) { return formatStacks(m.Stacks), len(m.Stacks) > 0 }},
	{key: KeyStacksSorted, read: readStacksSorted, write: func(m *Meta) (string, bool) { return "1", len(m.Stacks) > 0 && m.StacksSorted },
		needs: []need{{KeyStacks, "", "it sorts the stacks that key names"}}},
	{key: KeyLookaheadSamples, read: readLookahead,
		write: func(m *Meta) (string, bool) { return strconv.Itoa(m.LookaheadSamples), m.LookaheadSamples != 0 },
		needs: []need{{KeyHead, HeadValue, "only a value network is played by looking ahead"}}},
	{key: KeyTrainedSteps, read: readTrainedSteps,
		write: func(m *Meta) (string, bool) { return strconv.FormatInt(m.TrainedSteps, 10), m.TrainedSteps > 0 }},
	{key: KeyNotes, read: func(m *Meta, v string) error { m.Notes = v; return nil }, write: func(m *Meta) (string, bool) { return m.Notes, m.Notes != "" }},
}

func readHead(m *Meta, v string) error {
	if v != HeadValue {
		return fmt.Errorf("this build reads %q (or no head: a policy)", HeadValue)
	}
	m.Head = v
	return nil
}

func readEvalWeight(m *Meta, v string) error {
	w, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(w) || math.IsInf(w, 0) {
		return errors.New("want a finite number")
	}
	m.EvalWeight = w
	return nil
}

func readEvalTerms(m *Meta, v string) (err error) {
	m.EvalTerms, err = readTerms(v, true)
	return err
}

func readOpeningTerms(m *Meta, v string) (err error) {
	m.OpeningTerms, err = readTerms(v, false)
	return err
}

// readTerms reads a JSON object of numbers by term name (eval_terms,
// eval_terms_opening); an empty one only when empty is allowed.
func readTerms(v string, empty bool) (map[string]float64, error) {
	var terms map[string]float64
	if err := json.Unmarshal([]byte(v), &terms); err != nil || (len(terms) == 0 && !empty) {
		return nil, errors.New(`want a JSON object of numbers by term name, as {"next_buried": -0.3}`)
	}
	return terms, nil
}

// writeTerms writes term weights as readTerms reads them; false for none.
func writeTerms(terms map[string]float64) (string, bool) {
	b, _ := json.Marshal(terms) // finite numbers by name: cannot fail
	return string(b), len(terms) > 0
}

func readOpeningProgress(m *Meta, v string) error {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || !(f > 0 && f < 1) {
		return errors.New("want a fraction of the cards above 0 and below 1")
	}
	m.OpeningProgress = f
	return nil
}

func readValueLink(m *Meta, v string) error {
	if v != LinkLogSigmoid {
		return fmt.Errorf("this build reads %q", LinkLogSigmoid)
	}
	m.ValueLink = v
	return nil
}

func readValueFloor(m *Meta, v string) error {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || !(f > 0 && f < 1) {
		return errors.New("want a probability above 0 and below 1")
	}
	m.ValueFloor = f
	return nil
}

func readStacks(m *Meta, v string) (err error) {
	m.Stacks, err = parseStacks(v)
	return err
}

func readStacksSorted(m *Meta, v string) error {
	switch v {
	case "", "0":
	case "1":
		m.StacksSorted = true
	default:
		return errors.New("want 0 or 1")
	}
	return nil
}

func readLookahead(m *Meta, v string) error {
	k, err := strconv.Atoi(v)
	if err != nil || k < 1 || k > MaxLookaheadSamples {
		return fmt.Errorf("want a whole number from 1 to %d", MaxLookaheadSamples)
	}
	m.LookaheadSamples = k
	return nil
}

func readTrainedSteps(m *Meta, v string) error {
	if v == "" {
		return nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return errors.New("want a whole number")
	}
	m.TrainedSteps = n
	return nil
}

// parseMeta reads and checks a model file's metadata: the required keys,
// then each optional key with its own reader, refusing the retired keys;
// the keys it does not know are kept in Extra. Every error names the key.
func parseMeta(md map[string]string) (Meta, error) {
	m, err := parseRequired(md)
	if err != nil {
		return Meta{}, err
	}
	known := slices.Clone(RequiredKeys)
	if m.Encoding == EncodingCards {
		known = append(known, KeyCardDim, KeyInputLen)
	}
	for _, k := range optionalKeys {
		known = append(known, k.key)
		v, ok := md[k.key]
		if !ok {
			continue
		}
		if err := k.read(&m, v); err != nil {
			return Meta{}, fmt.Errorf("metadata %s is %q; %w", k.key, v, err)
		}
		for _, n := range k.needs {
			if got, ok := md[n.key]; !ok || (n.value != "" && got != n.value) {
				want := n.key
				if n.value != "" {
					want += "=" + n.value
				}
				return Meta{}, fmt.Errorf("metadata has %s but no %s: %s", k.key, want, n.why)
			}
		}
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

// parseRequired reads the keys every file has (and a card-embedding
// file's two more), after refusing a file of another format and one with a
// retired key.
func parseRequired(md map[string]string) (Meta, error) {
	if md == nil {
		return Meta{}, fmt.Errorf("no __metadata__: a policy file says format=%q, its game and its sizes there", Format)
	}
	if f, ok := md["format"]; !ok || f != Format {
		if !ok {
			return Meta{}, fmt.Errorf("metadata has no format key: not a patience policy file (want format=%q)", Format)
		}
		return Meta{}, fmt.Errorf("metadata format is %q, not %q: not a patience policy file", f, Format)
	}
	var missing []string
	for _, k := range RequiredKeys {
		if _, ok := md[k]; !ok {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return Meta{}, fmt.Errorf("metadata lacks the required keys %s", strings.Join(missing, ", "))
	}
	for _, k := range RetiredKeys {
		if _, ok := md[k]; ok {
			return Meta{}, fmt.Errorf("metadata has %s, a key of the veto of the terms, which this build no longer plays "+
				"(it won no deal more on unseen deals; docs/models.md, retired keys): the file is refused rather than played without it", k)
		}
	}
	if v := md["format_version"]; v != strconv.Itoa(FormatVersion) {
		return Meta{}, fmt.Errorf("metadata format_version is %q; this build reads version %d", v, FormatVersion)
	}
	if v := md["obs_encoding"]; v != EncodingOneHot && v != EncodingCards {
		return Meta{}, fmt.Errorf("metadata obs_encoding is %q; this build reads %q and %q", v, EncodingOneHot, EncodingCards)
	}
	if v := md["activation"]; v != Activation {
		return Meta{}, fmt.Errorf("metadata activation is %q; this build supports only %q", v, Activation)
	}
	m := Meta{Game: md["game"], Command: md["command"], Encoding: md["obs_encoding"]}
	if m.Game == "" {
		return Meta{}, errors.New("metadata game is empty")
	}
	for _, f := range []struct {
		key string
		dst *int
		min int
	}{{"rules_version", &m.RulesVersion, 0}, {"obs_len", &m.ObsLen, 1}, {"onehot_len", &m.OneHotLen, 1}, {"actions", &m.Actions, 1}} {
		n, err := strconv.Atoi(md[f.key])
		if err != nil || n < f.min {
			return Meta{}, fmt.Errorf("metadata %s is %q; want a whole number of at least %d", f.key, md[f.key], f.min)
		}
		*f.dst = n
	}
	if h := strings.TrimSpace(md["hidden"]); h != "" {
		for item := range strings.SplitSeq(h, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(item))
			if err != nil || n <= 0 {
				return Meta{}, fmt.Errorf("metadata hidden is %q; want positive widths separated by commas, as \"256,256\"", md["hidden"])
			}
			m.Hidden = append(m.Hidden, n)
		}
	}
	if m.Encoding == EncodingCards {
		for _, f := range []struct {
			key string
			dst *int
		}{{KeyCardDim, &m.CardDim}, {KeyInputLen, &m.InputLen}} {
			n, err := strconv.Atoi(md[f.key])
			if err != nil || n < 1 {
				return Meta{}, fmt.Errorf("metadata %s is %q; a %s model needs a whole number of at least 1", f.key, md[f.key], EncodingCards)
			}
			*f.dst = n
		}
		if len(m.Hidden) == 0 {
			return Meta{}, fmt.Errorf("metadata hidden is empty; a %s model has at least one hidden layer", EncodingCards)
		}
	}
	return m, nil
}

// metadata returns m as a file's metadata map: its Extra keys, the
// required ones and the optional ones it holds.
func (m *Meta) metadata() map[string]string {
	out := map[string]string{}
	for k, v := range m.Extra {
		out[k] = v
	}
	hidden := make([]string, len(m.Hidden))
	for i, h := range m.Hidden {
		hidden[i] = strconv.Itoa(h)
	}
	for k, v := range map[string]string{
		"format":         Format,
		"format_version": strconv.Itoa(FormatVersion),
		"game":           m.Game,
		"rules_version":  strconv.Itoa(m.RulesVersion),
		"obs_len":        strconv.Itoa(m.ObsLen),
		"obs_encoding":   m.encoding(),
		"onehot_len":     strconv.Itoa(m.OneHotLen),
		"actions":        strconv.Itoa(m.Actions),
		"hidden":         strings.Join(hidden, ","),
		"activation":     Activation,
		"command":        m.Command,
	} {
		out[k] = v
	}
	if m.encoding() == EncodingCards {
		out[KeyCardDim] = strconv.Itoa(m.CardDim)
		out[KeyInputLen] = strconv.Itoa(m.InputLen)
	}
	for _, k := range optionalKeys {
		if v, ok := k.write(m); ok {
			out[k.key] = v
		}
	}
	return out
}
