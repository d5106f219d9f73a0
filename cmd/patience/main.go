// Command patience plays, checks, benchmarks and records the patience
// environments. Run `patience help` for the commands.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	_ "github.com/patience-gym/patience/env/all"
)

type command struct {
	name    string
	args    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}

var commands []command

func init() {
	commands = []command{
		{"generate", "[--game G --agent A --episodes N --out DIR]", "play episodes with an agent and write a Parquet dataset; --shard i/n for many machines", cmdGenerate},
		{"inspect", "PATH", "a dataset's schema, metadata, totals, win rate and return statistics", cmdInspect},
		{"replay", "PATH --episode K [--quiet]", "re-play a recorded episode through the game; exit 1 if a row differs", cmdReplay},
		{"list", "", "the games: actions, observation length, hidden information, rules version", cmdList},
		{"play", "GAME [--seed N]", "play a game yourself in the terminal", cmdPlay},
		{"run", "GAME [--agent NAME] [--seed N] [--render]", "one game played by an agent, with the final board and result", cmdRun},
		{"check", "GAME|all [--games N]", "play random games and verify every game property; exit 1 on a failure", cmdCheck},
		{"speed", "[GAME|all] [--duration D]", "steps per second: one environment, and the vector environment on 1 and all cores", cmdSpeed},
		{"bench", "[--games G,..] [--agents A,..] [--deals N]", "agents measured on the same deals: tables, CSV, JSON, chart", cmdBench},
		{"solve", "GAME [--deals N --budget 10s|5M --show --verify]", "how many deals can be won: the solver's verdict per deal and the winnable share", cmdSolve},
	}
}

// errUsage marks an error caused by the command line; main prints the usage
// hint with it and exits with code 2.
type usageError struct{ err error }

func (u usageError) Error() string { return u.err.Error() }
func (u usageError) Unwrap() error { return u.err }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

func usage(w io.Writer) {
	fmt.Fprintln(w, "patience: reinforcement-learning environments for six two-deck patience games")
	fmt.Fprintln(w, "\nUsage: patience COMMAND [arguments]\n\nCommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-8s %-44s %s\n", c.name, c.args, c.summary)
	}
	fmt.Fprintln(w, "\nRun `patience COMMAND --help` for a command's options.")
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run dispatches to a command and returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout)
		return 0
	}
	for _, c := range commands {
		if c.name != args[0] {
			continue
		}
		err := c.run(args[1:], stdout, stderr)
		switch {
		case err == nil:
			return 0
		case errors.Is(err, flag.ErrHelp):
			return 0
		case errors.As(err, new(usageError)):
			fmt.Fprintf(stderr, "patience %s: %v\n(run `patience %s --help` for usage)\n", c.name, err, c.name)
			return 2
		case errors.Is(err, errFailed):
			return 1
		default:
			fmt.Fprintf(stderr, "patience %s: %v\n", c.name, err)
			return 1
		}
	}
	fmt.Fprintf(stderr, "patience: unknown command %q\n\n", args[0])
	usage(stderr)
	return 2
}

// errFailed is returned by a command that already reported its failure.
var errFailed = errors.New("failed")

// flags is a command's flag set with its usage text.
type flags struct {
	*flag.FlagSet
	usage func()
}

// newFlags makes a flag set for a command whose usage lists its options. The
// flag package itself prints nothing: parse reports errors once, and --help
// prints the usage.
func newFlags(name, args, summary string, stderr io.Writer) *flags {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return &flags{FlagSet: fs, usage: func() {
		fmt.Fprintf(stderr, "Usage: patience %s %s\n\n%s\n\nOptions:\n", name, args, summary)
		fs.SetOutput(stderr)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
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

// parseSeed reads a deal number: a non-negative integer below 2^64
// (underscores allowed, as in 1_000_000).
func parseSeed(v string) (uint64, error) {
	n, err := strconv.ParseUint(strings.ReplaceAll(strings.TrimSpace(v), "_", ""), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("invalid seed %q: want a whole number from 0 to %d", v, uint64(1<<64-1))
	}
	return n, nil
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
