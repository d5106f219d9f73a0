package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/internal/runner"
)

// flags is a command's flag set with its usage text.
type flags struct {
	*flag.FlagSet
	usage func()
}

// flags makes the invocation's flag set; --help prints the command's usage,
// declared once in its command value, and its options. The flag package
// itself prints nothing: parse reports errors once.
func (inv *invocation) flags() *flags {
	c := inv.cmd
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	long := c.long
	if long == "" {
		long = c.summary
	}
	return &flags{FlagSet: fs, usage: func() {
		fmt.Fprintf(inv.stderr, "Usage: patience %s %s\n\n%s\n", c.name, c.args, long)
		n := 0
		fs.VisitAll(func(*flag.Flag) { n++ })
		if n > 0 {
			fmt.Fprintln(inv.stderr, "\nOptions:")
			fs.SetOutput(inv.stderr)
			fs.PrintDefaults()
			fs.SetOutput(io.Discard)
		}
	}}
}

// parse parses flags that may come before, between or after the positional
// arguments, and returns the positional ones.
func parse(fs *flags, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fs.usage()
				return nil, err
			}
			return nil, usageError{err}
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// maxSeed is the largest deal number the commands take: 2^63−1, so that a
// deal number is the same in every tool (datasets store it as int64).
const maxSeed = 1<<63 - 1

// seedRange states the deal numbers the commands take, the same way
// everywhere.
const seedRange = "deal numbers run from 0 to 2^63-1 (9223372036854775807)"

// seedFlag is a deal number given on the command line.
type seedFlag struct {
	v   uint64
	set bool
}

func (s *seedFlag) String() string { return strconv.FormatUint(s.v, 10) }

func (s *seedFlag) Set(v string) error {
	n, err := parseSeed(v)
	if err != nil {
		return err
	}
	s.v, s.set = n, true
	return nil
}

// parseSeed reads a deal number (underscores allowed, as in 1_000_000).
func parseSeed(v string) (uint64, error) {
	n, err := strconv.ParseUint(strings.ReplaceAll(strings.TrimSpace(v), "_", ""), 10, 64)
	if err != nil || n > maxSeed {
		return 0, fmt.Errorf("invalid seed %q: %s", v, seedRange)
	}
	return n, nil
}

// checkSeeds checks that n deals from start stay within the deal numbers.
func checkSeeds(start uint64, n int64) error {
	if n > 0 && start > maxSeed-uint64(n-1) {
		return usagef("deals %d to %d: %s", start, start+uint64(n-1), seedRange)
	}
	return nil
}

// optionalArg sets *dst to the positional argument when there is one, keeps
// it (the flag's value) when there is none, and is a usage error for more.
func optionalArg(pos []string, dst *string) error {
	switch len(pos) {
	case 0:
	case 1:
		*dst = pos[0]
	default:
		return usagef("unexpected arguments %q", pos[1:])
	}
	return nil
}

// parseNone parses the command line of a command that takes options only.
func parseNone(inv *invocation, fs *flags, args []string) error {
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("unexpected arguments %q (%s takes options only)", pos, inv.cmd.name)
	}
	return nil
}

// parseOne parses the command line of a command that takes one
// positional argument, what, and returns it.
func parseOne(fs *flags, args []string, what string) (string, error) {
	pos, err := parse(fs, args)
	if err != nil {
		return "", err
	}
	return oneArg(pos, what)
}

// gameFlag declares --game, the game of a command that also takes it as its
// one positional argument (parseGameFlag).
func gameFlag(fs *flags) *string {
	return fs.String("game", "cromwell", "the game: "+joinNames(env.Names()))
}

// parseGameFlag parses the command line of a command whose game is the
// flag game or its one positional argument, and resolves the game as
// lookupGame does.
func parseGameFlag(fs *flags, args []string, game *string) (*env.Spec, error) {
	pos, err := parse(fs, args)
	if err != nil {
		return nil, err
	}
	if err := optionalArg(pos, game); err != nil {
		return nil, err
	}
	return lookupGame(*game)
}

// oneArg returns the single positional argument or a usage error naming it.
func oneArg(pos []string, what string) (string, error) {
	switch len(pos) {
	case 0:
		return "", usagef("missing %s", what)
	case 1:
		return pos[0], nil
	}
	return "", usagef("unexpected arguments %q (want one %s)", pos[1:], what)
}

// splitList splits a comma-separated flag value, dropping empty items.
func splitList(s string) []string {
	var out []string
	for item := range strings.SplitSeq(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

// gameList reads a list of games: "all" or names, comma-separated. Each
// name is resolved here, once: the commands pass the Specs on.
func gameList(s string) ([]*env.Spec, error) {
	list := splitList(s)
	if len(list) == 1 && strings.EqualFold(list[0], "all") {
		specs := env.Specs()
		if len(specs) == 0 {
			return nil, errors.New("no games are registered")
		}
		return specs, nil
	}
	if len(list) == 0 {
		return nil, usagef("the list of games is empty (name games, comma-separated, or all)")
	}
	var out []*env.Spec
	for _, g := range list {
		spec, err := env.Lookup(g)
		if err != nil {
			return nil, usageError{err}
		}
		out = append(out, spec)
	}
	return out, nil
}

// lookupGame resolves one game name (a flag's value or an argument).
func lookupGame(name string) (*env.Spec, error) {
	spec, err := env.Lookup(name)
	if err != nil {
		return nil, usageError{err}
	}
	return spec, nil
}

// parseGame parses the command line of a command that takes one
// positional argument, a game, and resolves it as lookupGame does.
func parseGame(fs *flags, args []string) (*env.Spec, error) {
	name, err := parseOne(fs, args, "GAME")
	if err != nil {
		return nil, err
	}
	return lookupGame(name)
}

// agentList reads a list of agent strings separated by commas, where the
// settings of one agent are separated by commas too: an item with "=" and
// no ":" before it continues the agent before it ("mc:rollouts=8,width=4,
// uct" is two agents). "all" is every registered agent with its defaults
// that can play all of games: the policy agent only when every game has its
// model. policyModel, if not "", is the model of the policy agents that do
// not name one (bench --model); without it they get the default one
// (defaultModel).
func agentList(s string, games []*env.Spec, policyModel string) ([]*agents.Factory, error) {
	items := splitList(s)
	if len(items) == 1 && strings.EqualFold(items[0], "all") {
		var out []*agents.Factory
	next:
		for _, name := range agents.Names() {
			f, err := agents.Parse(name)
			if err == nil && policyModel != "" && f.NeedsModel() {
				f, err = f.WithModel(policyModel)
			}
			if err == nil {
				f, err = withDefaultModel(f)
			}
			if err != nil {
				continue
			}
			a := f.New()
			for _, spec := range games {
				if agents.Prepare(a, spec) != nil {
					continue next
				}
			}
			out = append(out, f)
		}
		return out, nil
	}
	var strs []string
	for _, item := range items {
		colon, eq := strings.Index(item, ":"), strings.Index(item, "=")
		if eq >= 0 && (colon < 0 || colon > eq) {
			if len(strs) == 0 {
				return nil, usagef("setting %q comes before any agent", item)
			}
			strs[len(strs)-1] += "," + item
			continue
		}
		strs = append(strs, item)
	}
	if len(strs) == 0 {
		return nil, usagef("the list of agents is empty (name agents, comma-separated, or all)")
	}
	out := make([]*agents.Factory, len(strs))
	used := false
	for i, a := range strs {
		f, err := agents.Parse(a)
		if err == nil && policyModel != "" && f.NeedsModel() {
			f, err = f.WithModel(policyModel)
			used = true
		}
		if err == nil {
			f, err = withDefaultModel(f)
		}
		if err != nil {
			return nil, usageError{err}
		}
		out[i] = f
	}
	if policyModel != "" && !used {
		return nil, usagef("--model %s: no policy agent in --agents goes without a model of its own", policyModel)
	}
	return out, nil
}

// agentHelp is the --agent flag's help text.
func agentHelp() string {
	return "the agent, with its settings after a colon (mc:rollouts=8,width=4): " + joinNames(agents.Names()) +
		"; `patience agents` lists their settings"
}

// modelHelp is the --model flag's help text.
const modelHelp = "the policy model file of the agent (policy, or mc and uct to guide their search): " +
	"short for the agent setting model=FILE; {game} stands for the game's name (default for policy: models/{game}.safetensors)"

// agentFlags are --agent and --model, the agent a command plays and the
// model file it gives it.
type agentFlags struct{ agent, model *string }

// addAgentFlags declares --agent, whose default is def, and --model.
func addAgentFlags(fs *flags, def string) agentFlags {
	return agentFlags{agent: fs.String("agent", def, agentHelp()), model: fs.String("model", "", modelHelp)}
}

// parse reads the two flags' values once the command line is parsed, as
// parseAgent does.
func (a agentFlags) parse() (*agents.Factory, error) { return parseAgent(*a.agent, *a.model) }

// parseAgent reads an --agent value and, when model is not "", gives the
// agent that model file (--model: short for the setting model=FILE); a
// policy agent given none gets the default one (defaultModel).
func parseAgent(s, model string) (*agents.Factory, error) {
	f, err := agents.Parse(s)
	if err == nil && model != "" {
		f, err = f.WithModel(model)
	}
	if err == nil {
		f, err = withDefaultModel(f)
	}
	if err != nil {
		return nil, usageError{err}
	}
	return f, nil
}

// parseEnv parses the command line of a command that takes one positional
// argument, a game, and makes its environment with the step limit the
// flag maxSteps holds once parsed.
func parseEnv(fs *flags, args []string, maxSteps *int) (*env.Env, error) {
	game, err := parseOne(fs, args, "GAME")
	if err != nil {
		return nil, err
	}
	e, err := env.Make(game, env.Options{MaxSteps: *maxSteps})
	if err != nil {
		return nil, usageError{err}
	}
	return e, nil
}

func joinNames(names []string) string { return strings.Join(names, ", ") }

// shardFlag is --shard i/n: this machine's share of a run that several
// split (internal/runner's Shard).
type shardFlag struct{ i, n int }

func (s *shardFlag) String() string { return fmt.Sprintf("%d/%d", s.i, s.n) }

func (s *shardFlag) Set(v string) error {
	sh, err := runner.ParseShard(strings.TrimSpace(v))
	if err != nil || sh.Whole() && sh.Count != 1 {
		return fmt.Errorf("invalid shard %q: want i/n with 0 <= i < n, as 0/4", v)
	}
	s.i, s.n = sh.Index, max(sh.Count, 1)
	return nil
}
