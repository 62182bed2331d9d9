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
