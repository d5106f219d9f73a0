// Command patience plays, checks, benchmarks and records the patience
// environments. Run `patience help` for the commands.
//
// Each command is one value of type command, declared beside its code in a
// file of its own (generate.go, inspect.go, ...), and listed in commands
// below. Exit codes are the same for every command: 0 success, 1 a failure
// (an error, a check that failed, a replay that differs), 2 a mistake on the
// command line, 130 interrupted by Ctrl-C or SIGTERM.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	_ "github.com/patience-gym/patience/env/all"    // the games
	_ "github.com/patience-gym/patience/solver/all" // their search knowledge, for the solver and the agents that search
)

// Exit codes.
const (
	exitOK          = 0
	exitFailure     = 1
	exitUsage       = 2
	exitInterrupted = 130
)

// A command is one patience command: its usage, declared once, and the code
// that runs it.
type command struct {
	// name is what the user types; args the arguments after it, as the
	// usage line shows them; summary one line for `patience help`; long
	// the rest of `patience NAME --help` (summary when empty).
	name, args, summary, long string
	// run runs the command. ctx is cancelled on Ctrl-C and SIGTERM; a
	// command that runs for long checks it, stops within a second and
	// returns ctx's error.
	run func(ctx context.Context, inv *invocation, args []string) error
}

// invocation is one run of a command: where it reads and writes.
type invocation struct {
	cmd    *command
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
}

// commands lists the commands in the order `patience help` shows them.
var commands []*command

func init() {
	commands = []*command{
		generateCmd, inspectCmd, replayCmd,
		listCmd, rulesCmd, playCmd, runCmd, agentsCmd,
		checkCmd, speedCmd, benchCmd, solveCmd, labelCmd, dealsCmd, versionCmd,
	}
}

// usageError marks an error caused by the command line; run prints the
// usage hint with it and exits with code 2.
type usageError struct{ err error }

func (u usageError) Error() string { return u.err.Error() }
func (u usageError) Unwrap() error { return u.err }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// errFailed is returned by a command that already reported its failure.
var errFailed = errors.New("failed")

func usage(w io.Writer) {
	fmt.Fprintln(w, "patience: reinforcement-learning environments for two-deck patience games")
	fmt.Fprintln(w, "\nUsage: patience COMMAND [arguments]\n\nCommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun `patience COMMAND --help` for a command's arguments and options.")
	fmt.Fprintln(w, "Exit codes: 0 success, 1 failure, 2 a command-line mistake, 130 interrupted.")
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop() // a second Ctrl-C ends the process at once
		// Every long command stops within a second; this is the backstop
		// for one stuck in a long computation. Files are safe: what is
		// written appears complete or not at all, and a rerun removes the
		// temporary files left.
		time.Sleep(time.Second)
		fmt.Fprintln(os.Stderr, "patience: interrupted")
		os.Exit(exitInterrupted)
	}()
	os.Exit(run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run dispatches to a command and returns the exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 1 && args[0] == "--version" {
		args = []string{"version"}
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		if len(args) == 2 {
			if c := find(args[1]); c != nil {
				return run(ctx, []string{c.name, "--help"}, stdin, stdout, stderr)
			}
		}
		usage(stdout)
		return exitOK
	}
	c := find(args[0])
	if c == nil {
		fmt.Fprintf(stderr, "patience: unknown command %q\n\n", args[0])
		usage(stderr)
		return exitUsage
	}
	err := c.run(ctx, &invocation{cmd: c, stdin: stdin, stdout: stdout, stderr: stderr}, args[1:])
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.As(err, new(usageError)):
		fmt.Fprintf(stderr, "patience %s: %v\n(run `patience %s --help` for usage)\n", c.name, err, c.name)
		return exitUsage
	case errors.Is(err, context.Canceled) && ctx.Err() != nil:
		if err == context.Canceled {
			err = errors.New("interrupted")
		}
		fmt.Fprintf(stderr, "patience %s: %v\n", c.name, err)
		return exitInterrupted
	case errors.Is(err, errFailed):
		return exitFailure
	}
	fmt.Fprintf(stderr, "patience %s: %v\n", c.name, err)
	return exitFailure
}

// find returns the command called name, or nil.
func find(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}
