package source

import (
	"context"
	"io"
	"net/http"
	"os"
	"strings"
	"time"
)

// Options configure how inputs are opened. The zero value opens files and
// standard input; the HTTP fields apply to URLs only.
type Options struct {
	Stdin io.Reader // read for "-"

	Method         string      // GET by default, POST when Data is set
	Header         http.Header // extra request headers
	Data           []byte      // request body
	ConnectTimeout time.Duration
	IdleTimeout    time.Duration // longest wait for the next byte
	Retry          int           // reconnections allowed in a row (GET resumes with Last-Event-ID)
	RetryDelay     time.Duration // wait before reconnecting until the server sets one with retry: (1s if 0)
	MaxEventBytes  int           // cap on one SSE event

	// RetryWithoutIDs allows reconnecting a stream whose events cannot be
	// resumed exactly (events without an id: field were read): the
	// server may send again events already read. Without it such a
	// stream is not reconnected.
	RetryWithoutIDs bool
	// MinRetryDelay is the shortest wait before a reconnection, whatever
	// the server's retry: field says (DefaultMinRetryDelay if 0).
	MinRetryDelay time.Duration
	// MaxRetryDelay is the longest wait before a reconnection, whatever
	// the server's retry: field says (DefaultMaxRetryDelay if 0).
	MaxRetryDelay time.Duration
	// MaxReconnects caps the reconnections of one input in all, however
	// many events arrive between them (DefaultMaxReconnects if 0).
	MaxReconnects int
	// Warn, when set, is told of every reconnection, and of the events a
	// server sent again after one (dropped).
	Warn func(msg string)
	// Sleep, when set, is called to wait d before a reconnection instead
	// of a timer (tests record the waits instead of waiting).
	Sleep func(ctx context.Context, d time.Duration) error

	// Client is the HTTP client used for URLs (http.DefaultClient's
	// transport when nil).
	Client *http.Client
}

// IsURL reports whether name is read over HTTP.
func IsURL(name string) bool {
	return strings.HasPrefix(name, "http://") || strings.HasPrefix(name, "https://")
}

// Open opens the input called name. The caller closes it.
func Open(ctx context.Context, name string, opts *Options) (io.ReadCloser, error) {
	if opts == nil {
		opts = &Options{}
	}
	switch {
	case name == "-":
		in := opts.Stdin
		if in == nil {
			in = os.Stdin
		}
		return Stdin(ctx, in), nil
	case IsURL(name):
		return openURL(ctx, name, opts)
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	if info, err := f.Stat(); err == nil && !info.Mode().IsRegular() && !info.IsDir() {
		// A FIFO or a device can block a read as a pipe does: read it
		// as standard input is read, so that the context's end ends it.
		return &ownedStdin{ReadCloser: Stdin(ctx, f), f: f}, nil
	}
	return f, nil
}

// ownedStdin is a named pipe or device read as standard input is, which
// Close closes.
type ownedStdin struct {
	io.ReadCloser
	f *os.File
}

func (o *ownedStdin) Close() error {
	o.ReadCloser.Close()
	return o.f.Close()
}

// Live says whether reading name may wait for data that has not arrived
// yet: a URL, a pipe, a device, or standard input that is not a regular
// file. A regular file (standard input redirected from one included)
// holds all its data already. stdin is what "-" reads (os.Stdin when nil).
func Live(name string, stdin io.Reader) bool {
	if IsURL(name) {
		return true
	}
	if name != "-" {
		info, err := os.Stat(name)
		return err != nil || !info.Mode().IsRegular()
	}
	if stdin == nil {
		stdin = os.Stdin
	}
	f, ok := stdin.(*os.File)
	if !ok {
		return true
	}
	info, err := f.Stat()
	return err != nil || !info.Mode().IsRegular()
}
