package agents

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/policy"
)

// modelFile is an agent string's model setting, shared by every agent of
// one Factory: the path as written ({game} stands for the game's name) and
// the models read from it, each file read once. A path that names one file
// is read when the agent string is parsed, so that a missing or damaged
// file is an error at once; a {game} path is read at the first Prepare for
// each game.
type modelFile struct {
	pattern string
	mu      sync.Mutex
	models  map[string]*policy.Model // by game name; "" when pattern has no {game}
}

// newModelFile returns the model setting pattern; a pattern that names one
// file is read now.
func newModelFile(pattern string) (*modelFile, error) {
	f := &modelFile{pattern: pattern, models: map[string]*policy.Model{}}
	if strings.Contains(pattern, "{game}") {
		return f, nil
	}
	if _, err := f.forGame(""); err != nil {
		return nil, err
	}
	return f, nil
}

// forGame returns the model the setting names for the named game, reading
// the file the first time it is asked for.
func (f *modelFile) forGame(game string) (*policy.Model, error) {
	key := game
	if !strings.Contains(f.pattern, "{game}") {
		key = ""
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if m, ok := f.models[key]; ok {
		return m, nil
	}
	path, err := modelPath(f.pattern, game)
	if err != nil {
		return nil, err
	}
	m, err := readModel(path)
	if err != nil {
		return nil, err
	}
	f.models[key] = m
	return m, nil
}

// modelPath returns the file a model setting names for game: pattern with
// {game} replaced by the game's name, made absolute (a relative path is
// taken from the working directory). An error says where it looked.
func modelPath(pattern, game string) (string, error) {
	p := strings.ReplaceAll(pattern, "{game}", game)
	if p == "" {
		return "", errors.New("the model path is empty")
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", fmt.Errorf("model file %s: %w", p, err)
	}
	if _, err := os.Stat(abs); err != nil {
		if errors.Is(err, fs.ErrNotExist) && !filepath.IsAbs(p) {
			return "", fmt.Errorf("model file %s not found (looked for %s): %w", p, abs, fs.ErrNotExist)
		}
		return "", fmt.Errorf("model file %s: %w", abs, err)
	}
	return abs, nil
}

// readModel reads the model file at path, which must be a regular file.
func readModel(path string) (*policy.Model, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("model %s is not a regular file", path)
	}
	return policy.Load(path)
}

// model reads a model setting ({game} stands for the game's name);
// required marks the agents that always play with a model (the policy
// agent): for them an agent string that names none takes the factory's
// default (Factory.WithDefaultModel), and without one Factory.NeedsModel
// reports it. It returns the path as written, "" for none, and the setting
// that the agents the Maker makes share, nil for none. A path that cannot
// be a setting's value, or a file that cannot be read, is an error
// recorded in s.
func (s *Settings) model(doc string, required bool) (string, *modelFile) {
	def := ""
	if required {
		def = s.defaultModel
	}
	pattern := s.String("model", def, doc)
	s.needsModel = required && pattern == ""
	if pattern == "" {
		return "", nil
	}
	if strings.ContainsAny(pattern, " \t,") {
		s.Errorf("model=%s: a model path cannot hold spaces or commas (they separate settings)", pattern)
		return pattern, nil
	}
	f, err := newModelFile(pattern)
	if err != nil {
		s.Errorf("model=%s: %w", pattern, err)
		return pattern, nil
	}
	return pattern, f
}

// modelRef is one agent's use of a model setting: once prepared, a Net for
// the game being played over the weights the setting's file holds.
type modelRef struct {
	file *modelFile
	spec *env.Spec
	net  *policy.Net
}

// prepare readies the net for spec's game; it is a pointer comparison when
// the net is ready already.
func (r *modelRef) prepare(spec *env.Spec) error {
	if r.net != nil && r.spec == spec {
		return nil
	}
	if r.file == nil {
		return errors.New("no model file given: name one with model=FILE")
	}
	m, err := r.file.forGame(spec.Name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			err = fmt.Errorf("%w; train one (docs/models.md) or name one with model=FILE", err)
		}
		return err
	}
	n, err := m.NewNet(spec)
	if err != nil {
		return err
	}
	r.spec, r.net = spec, n
	return nil
}

// used returns the model the reference was prepared with, or nil.
func (r *modelRef) used() *policy.Model {
	if r.net == nil {
		return nil
	}
	return r.net.Model()
}
