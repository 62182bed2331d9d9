package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// stopSignals are the signals that end a command the way the end of its
// input would: SIGINT (Ctrl-C) and SIGTERM (kill, a supervisor, a CI
// timeout).
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM}

// errInterrupted is the cause of a context ended by a stop signal.
var errInterrupted = errors.New("interrupted")

// signalled is a context that a stop signal ends. The first signal ends
// it; the handler is then removed, so a second signal ends the process at
// once, as it would without agentstream's handling.
func signalled(parent context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, stopSignals...)
	var once sync.Once
	stop := func() {
		once.Do(func() {
			signal.Stop(ch)
			cancel(nil)
		})
	}
	go func() {
		select {
		case s := <-ch:
			signal.Stop(ch)
			cancel(fmt.Errorf("%w by %s", errInterrupted, signalName(s)))
		case <-ctx.Done():
		}
	}()
	return ctx, stop
}

func signalName(s os.Signal) string {
	switch s {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return s.String()
}

// interrupted returns the cause when ctx was ended by a stop signal.
func interrupted(ctx context.Context) error {
	if err := context.Cause(ctx); errors.Is(err, errInterrupted) {
		return err
	}
	return nil
}

// stopReader ends an input where a stop signal came: the next read is
// its end (io.EOF), so that the decoder reports what was left open as
// truncated and the command writes what it has, as at any end. The stop
// itself is reported once as a problem, so the command does not exit 0:
// what it read may not be the whole input.
type stopReader struct {
	ctx  context.Context
	r    io.Reader
	name string
	rep  *reporter
	done bool
}

func (s *stopReader) Read(p []byte) (int, error) {
	if s.done {
		return 0, io.EOF
	}
	if err := interrupted(s.ctx); err != nil {
		return s.stop(err)
	}
	n, err := s.r.Read(p)
	if err != nil && err != io.EOF {
		if ierr := interrupted(s.ctx); ierr != nil {
			return n, s.stopErr(ierr)
		}
	}
	return n, err
}

func (s *stopReader) stop(err error) (int, error) { return 0, s.stopErr(err) }

func (s *stopReader) stopErr(err error) error {
	s.done = true
	s.rep.problem(fmt.Errorf("%s: %v: the input ends here", s.name, err))
	return io.EOF
}
