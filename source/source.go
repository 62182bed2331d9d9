// Package source opens the inputs agentstream commands read: a file, "-"
// for standard input, or an http:// or https:// URL read as an SSE stream.
//
// A URL's reader yields the response body's bytes unchanged, so format
// detection and the decoders read a URL as they read a file. It hands them
// on one whole SSE message at a time (up to and including its blank line),
// as soon as that message has arrived. Rules (docs/url-input.md):
//
//   - An answer other than 2xx, or a 2xx that is not text/event-stream, is
//     an *HTTPError showing the status and the start of the body; 204 No
//     Content is an empty stream.
//   - Options.ConnectTimeout bounds the wait for the response headers;
//     Options.IdleTimeout the wait for each next byte (ErrConnectTimeout,
//     ErrIdleTimeout).
//   - After a lost connection, an idle timeout or a failed connection,
//     Options.Retry reconnections are allowed in a row (the count starts
//     again with every whole message), after the server's retry: delay or
//     Options.RetryDelay, sending Last-Event-ID with the id of the last
//     whole message. The message cut off is dropped, as EventSource drops
//     it. HTTP error answers are never retried.
//   - Without a retry left, a lost connection is an error after the bytes
//     that arrived, the partial message included.
//   - A message over Options.MaxEventBytes is handed on as it arrives, for
//     the decoder to report and skip, instead of being held whole.
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
		return io.NopCloser(in), nil
	case IsURL(name):
		return openURL(ctx, name, opts)
	}
	return os.Open(name)
}
