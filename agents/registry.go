package agents

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/patience-gym/patience/env"
)

// An agent is named on the command line, in bench lists and in datasets by
// a string of the form
//
//	name
//	name:key=value,key=value
//
// where the settings after the colon may also be separated by spaces, as an
// agent's Settings method prints them ("mc:rollouts=16 width=6"). Each agent
// reads its own settings, as a database/sql driver reads its data source
// name, so settings of one agent never reach another.

// Maker reads an agent's settings and returns the constructor of agents
// with them. It reads every setting it knows through s (which records the
// key, the default and the doc, so that unknown keys are refused and Help
// can list them) and returns s.Err() if a value did not parse. Parse calls
// it once per agent string: the constructor holds the typed settings, and
// the agents it makes share them (a model file among them, read once).
type Maker func(s *Settings) (func() Agent, error)

var registry struct {
	sync.RWMutex
	agents map[string]entry
}

type entry struct {
	name string
	doc  string
	make Maker
}

// Register makes an agent available under name (normalized like game
// names: lower case, letters and digits only). Agent files call it from
// init. It panics on an empty or duplicate name: both are programming
// errors.
func Register(name, doc string, make Maker) {
	key := env.Normalize(name)
	if key == "" || key != name {
		panic(fmt.Sprintf("agents: invalid agent name %q (want lower-case letters and digits)", name))
	}
	registry.Lock()
	defer registry.Unlock()
	if registry.agents == nil {
		registry.agents = map[string]entry{}
	}
	if _, dup := registry.agents[key]; dup {
		panic("agents: agent registered twice: " + name)
	}
	registry.agents[key] = entry{name: key, doc: doc, make: make}
}

// Names returns the registered agent names, sorted.
func Names() []string {
	registry.RLock()
	defer registry.RUnlock()
	out := make([]string, 0, len(registry.agents))
	for n := range registry.agents {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

func lookup(name string) (entry, error) {
	registry.RLock()
	defer registry.RUnlock()
	if e, ok := registry.agents[env.Normalize(name)]; ok {
		return e, nil
	}
	names := make([]string, 0, len(registry.agents))
	for n := range registry.agents {
		names = append(names, n)
	}
	slices.Sort(names)
	return entry{}, fmt.Errorf("unknown agent %q; the agents are: %s", name, strings.Join(names, ", "))
}

// Factory makes agents of one kind with fixed settings: one per goroutine,
// all alike. Parse makes one from an agent string, reading its settings
// once.
type Factory struct {
	entry
	given      []setting // the settings as written, in order
	label      string
	newAgent   func() Agent // the Maker's constructor
	needsModel bool         // see NeedsModel
	// defaultModel is the model of an agent that needs one and names none
	// (WithDefaultModel).
	defaultModel string
	known        []Setting // the settings the Maker read (Help)
}

// setting is one key=value pair.
type setting struct{ key, value string }

// Parse reads an agent string ("mc", "mc:rollouts=8,width=4") once: an
// unknown agent, an unknown setting or a bad value is an error that says
// which, and so is a model file it names that cannot be read.
func Parse(s string) (*Factory, error) {
	name, rest, _ := strings.Cut(strings.TrimSpace(s), ":")
	e, err := lookup(name)
	if err != nil {
		return nil, err
	}
	f := &Factory{entry: e}
	for item := range strings.FieldsFuncSeq(rest, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		k, v, ok := strings.Cut(item, "=")
		k = strings.ToLower(strings.TrimSpace(k))
		if !ok || k == "" {
			return nil, fmt.Errorf("agent %s: setting %q: want key=value", e.name, item)
		}
		if err := f.add(k, strings.TrimSpace(v)); err != nil {
			return nil, err
		}
	}
	if err := f.build(); err != nil {
		return nil, err
	}
	return f, nil
}

// add appends the setting key=value to the given ones and updates the
// label; a key given twice is an error.
func (f *Factory) add(key, value string) error {
	for _, g := range f.given {
		if g.key == key {
			return fmt.Errorf("agent %s: setting %s is given twice", f.name, key)
		}
	}
	f.given = append(f.given, setting{key, value})
	parts := make([]string, len(f.given))
	for i, g := range f.given {
		parts[i] = g.key + "=" + g.value
	}
	f.label = f.name + ":" + strings.Join(parts, ",")
	return nil
}

// build reads the factory's settings with its agent's Maker.
func (f *Factory) build() error {
	if f.label == "" {
		f.label = f.name
	}
	st := &Settings{agent: f.name, given: f.given, defaultModel: f.defaultModel}
	mk, err := f.make(st)
	if err == nil {
		err = st.Err()
	}
	if err == nil {
		err = st.unknown()
	}
	if err != nil {
		return fmt.Errorf("agent %s: %w", f.name, err)
	}
	f.newAgent, f.needsModel, f.known = mk, st.needsModel, st.known
	return nil
}

// WithModel returns a factory of the same agent that plays with the policy
// model file at path ({game} stands for the game's name), as the setting
// model=PATH in its agent string would; the label shows it. It is an error
// for an agent that takes no model, and for one whose string names a model
// already.
func (f *Factory) WithModel(path string) (*Factory, error) {
	g := &Factory{entry: f.entry, given: slices.Clip(f.given), label: f.label, defaultModel: f.defaultModel}
	if err := g.add("model", path); err != nil {
		return nil, err
	}
	if err := g.build(); err != nil {
		return nil, err
	}
	return g, nil
}

// WithDefaultModel returns a factory of the same agent that, if it needs a
// model file (NeedsModel), plays with the one at path ({game} stands for
// the game's name). Unlike WithModel the label does not show it: the agent
// string did not name it. A factory that needs no model is returned as it
// is. The patience command gives the policy agent the repository's models,
// models/{game}.safetensors, this way.
func (f *Factory) WithDefaultModel(path string) (*Factory, error) {
	if !f.needsModel {
		return f, nil
	}
	g := &Factory{entry: f.entry, given: f.given, label: f.label, defaultModel: path}
	if err := g.build(); err != nil {
		return nil, err
	}
	return g, nil
}

// NeedsModel reports whether the agent always plays with a model file and
// has none yet: the policy agent when neither its string (model=FILE),
// WithModel nor WithDefaultModel gave it one. Such an agent cannot play
// (Prepare says so).
func (f *Factory) NeedsModel() bool { return f.needsModel }

// Help returns the settings the agent reads, with their defaults (as this
// factory applies them: WithDefaultModel sets the model's) and what each
// does.
func (f *Factory) Help() []Setting { return slices.Clone(f.known) }

// New returns a fresh agent with the factory's settings. It is safe for
// concurrent use.
func (f *Factory) New() Agent { return f.newAgent() }

// Name returns the agent's registry name ("mc").
func (f *Factory) Name() string { return f.name }

// Label returns the agent string as given, normalized ("mc" or
// "mc:rollouts=8,width=4"): what tells two settings of one agent apart in a
// report.
func (f *Factory) Label() string { return f.label }

// Doc returns the agent's one-line description.
func (f *Factory) Doc() string { return f.doc }

// New returns a fresh agent from an agent string (see Parse).
func New(s string) (Agent, error) {
	f, err := Parse(s)
	if err != nil {
		return nil, err
	}
	return f.New(), nil
}

// Settings are the settings given to one agent; its Maker reads them with
// Int, Float and String, each naming the key, the default and what the
// setting does.
type Settings struct {
	agent string
	given []setting
	known []Setting
	errs  []error
	// defaultModel is the model of an agent that always plays with one
	// when its string names none (Factory.WithDefaultModel); needsModel
	// is set by model when there is none either.
	defaultModel string
	needsModel   bool
}

// Setting describes one setting an agent reads.
type Setting struct {
	// Key is the setting's name, Default its value when not given, and Doc
	// what it does.
	Key, Default, Doc string
}

// lookup records key as known and returns its given value.
func (s *Settings) lookup(key, def, doc string) (string, bool) {
	s.known = append(s.known, Setting{Key: key, Default: def, Doc: doc})
	for _, g := range s.given {
		if g.key == key {
			return g.value, true
		}
	}
	return "", false
}

// lookupGiven returns the value given for key without recording it as
// known: for a Maker's checks of settings that depend on each other.
func (s *Settings) lookupGiven(key string) (string, bool) {
	for _, g := range s.given {
		if g.key == key {
			return g.value, true
		}
	}
	return "", false
}

// Int reads an integer setting.
func (s *Settings) Int(key string, def int, doc string) int {
	v, ok := s.lookup(key, strconv.Itoa(def), doc)
	if !ok {
		return def
	}
	n, err := strconv.Atoi(strings.ReplaceAll(v, "_", ""))
	if err != nil {
		s.errs = append(s.errs, fmt.Errorf("%s=%s: want a whole number", key, v))
		return def
	}
	return n
}

// Float reads a number setting.
func (s *Settings) Float(key string, def float64, doc string) float64 {
	v, ok := s.lookup(key, strconv.FormatFloat(def, 'g', -1, 64), doc)
	if !ok {
		return def
	}
	x, err := strconv.ParseFloat(v, 64)
	if err != nil {
		s.errs = append(s.errs, fmt.Errorf("%s=%s: want a number", key, v))
		return def
	}
	return x
}

// String reads a text setting.
func (s *Settings) String(key, def, doc string) string {
	v, ok := s.lookup(key, def, doc)
	if !ok {
		return def
	}
	return v
}

// Errorf records an error about a setting's value (a Maker's own check).
func (s *Settings) Errorf(format string, args ...any) {
	s.errs = append(s.errs, fmt.Errorf(format, args...))
}

// Err returns the errors met reading the settings, or nil.
func (s *Settings) Err() error { return errors.Join(s.errs...) }

// checkTableBits records an error unless bits, the log2 of a solver's
// transposition table entries, is from 10 to 30.
func (s *Settings) checkTableBits(bits int) {
	if bits < 10 || bits > 30 {
		s.Errorf("table-bits must be from 10 to 30")
	}
}

// toggle is a setting that takes one of two words, off or on (on where
// byDefault is set, off otherwise, when not given): one declaration serves
// to read it (read) and to print it in an agent's Settings (word).
type toggle struct {
	key, off, on, doc string
	byDefault         bool
}

// read reads t's setting from s and reports whether it is on; a value that
// is neither word is an error ("key=value: want default or the other").
func (t toggle) read(s *Settings) bool {
	def, other := t.word(t.byDefault), t.word(!t.byDefault)
	v := s.String(t.key, def, t.doc)
	if v != def && v != other {
		s.Errorf("%s=%s: want %s or %s", t.key, v, def, other)
	}
	return v == t.on
}

// word returns t's value as the setting takes it: on or off.
func (t toggle) word(on bool) string {
	if on {
		return t.on
	}
	return t.off
}

// checked returns the errors met reading s, or else a factory that builds
// an agent from the settings o with build, which cannot fail on them since
// they were checked while read.
func checked[O any, A Agent](s *Settings, o O, build func(O) (A, error)) (func() Agent, error) {
	if err := s.Err(); err != nil {
		return nil, err
	}
	return func() Agent {
		a, err := build(o)
		if err != nil {
			panic(err) // the settings were checked as they were read
		}
		return a
	}, nil
}

// unknown returns an error naming the given settings the agent did not
// read, and the ones it knows.
func (s *Settings) unknown() error {
	for _, g := range s.given {
		if !slices.ContainsFunc(s.known, func(k Setting) bool { return k.Key == g.key }) {
			if len(s.known) == 0 {
				return fmt.Errorf("unknown setting %q: %s takes no settings", g.key, s.agent)
			}
			keys := make([]string, len(s.known))
			for i, k := range s.known {
				keys[i] = k.Key
			}
			return fmt.Errorf("unknown setting %q; %s's settings are: %s", g.key, s.agent, strings.Join(keys, ", "))
		}
	}
	return nil
}
