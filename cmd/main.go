// Package cmd is agentstream's command line: cobra wiring that binds flags
// to option structs and calls plain run functions.
package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"
)

// Exit codes, the same for every command.
const (
	ExitOK      = 0 // clean
	ExitNo      = 1 // finished, but the answer is no: problems reported, streams differ, violations found
	ExitFailure = 2 // usage error, unreadable input, or a --strict stop
)

// IOStreams are the streams a command uses, injected so tests can run
// commands without a terminal.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	Err    io.Writer
	OutTTY bool                    // Out is a terminal
	Getenv func(key string) string // environment lookup (NO_COLOR, TERM)
}

// System returns the process's own streams.
func System() *IOStreams {
	return &IOStreams{
		In: os.Stdin, Out: os.Stdout, Err: os.Stderr,
		OutTTY: isatty.IsTerminal(os.Stdout.Fd()) || isatty.IsCygwinTerminal(os.Stdout.Fd()),
		Getenv: os.Getenv,
	}
}

// Main runs agentstream with the process's arguments and streams and
// returns the exit code.
// SIGINT and SIGTERM end the command as the end of its input would
// (README.md, Signals).
func Main() int {
	ctx, stop := signalled(context.Background())
	defer stop()
	return Run(ctx, os.Args[1:], System())
}

// Run runs agentstream with args and returns the exit code. Errors are
// printed once, on ios.Err, as "agentstream: message".
func Run(ctx context.Context, args []string, ios *IOStreams) int {
	if ios.Getenv == nil {
		ios.Getenv = func(string) string { return "" }
	}
	root := newRootCmd(ios)
	if len(args) > 0 && strings.HasPrefix(args[0], cobra.ShellCompRequestCmd) {
		// Only a completion request (the scripts of `completion` run
		// `agentstream __complete ...`) needs the flags' value
		// completions: registering them walks every flag of every
		// command, which every other command line would pay for.
		registerCompletions(root)
	}
	root.SetArgs(args)
	// cobra writes help, usage and --version itself and drops write
	// errors: catch them, so that `--help > /dev/full` fails.
	help := &errWriter{w: ios.Out}
	root.SetOut(help)
	err := root.ExecuteContext(ctx)
	if err == nil && help.err != nil {
		err = failure(fmt.Errorf("writing output: %w", help.err))
	}
	if err == nil {
		return ExitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintf(ios.Err, "agentstream: %s\n", bounded(ee.err.Error()))
		}
		return ee.code
	}
	fmt.Fprintf(ios.Err, "agentstream: %s\n", bounded(err.Error()))
	return ExitFailure
}

// errWriter remembers the first error writing to w.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	n, err := e.w.Write(p)
	if err != nil && e.err == nil {
		e.err = err
	}
	return n, err
}

// exitError carries an exit code; err, when set, is printed.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// errNo ends a command that finished with a "no" answer (exit 1) whose
// reasons were already reported.
var errNo = &exitError{code: ExitNo}

// failure wraps err as an exit-2 error.
func failure(err error) error { return &exitError{code: ExitFailure, err: err} }
