package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/agentstream/agentstream/source"
)

// Timeout and retry defaults for URL inputs.
const (
	defaultConnectTimeout = 30 * time.Second
	defaultIdleTimeout    = 5 * time.Minute
	defaultGETRetries     = 3
)

// httpOptions are the flags for URL inputs (docs/url-input.md).
type httpOptions struct {
	fs             *pflag.FlagSet
	method         string
	headers        []string
	data           string
	timeout        time.Duration
	connectTimeout time.Duration
	idleTimeout    time.Duration
	retry          int
	retryNoIDs     bool
	retryMaxWait   time.Duration
}

func addHTTPFlags(fs *pflag.FlagSet, o *httpOptions) {
	o.fs = fs
	fs.StringVarP(&o.method, "method", "X", "", "URL input: HTTP method (GET, or POST when -d is given)")
	fs.StringArrayVarP(&o.headers, "header", "H", nil, "URL input: request header 'Name: value' (repeatable)")
	fs.StringVarP(&o.data, "data", "d", "", "URL input: request body: a string, @FILE, or @- for stdin")
	fs.DurationVar(&o.timeout, "timeout", 0, "URL input: connect and idle timeout (sets both; see the two below)")
	fs.DurationVar(&o.connectTimeout, "connect-timeout", defaultConnectTimeout, "URL input: longest wait for the response headers (0: none)")
	fs.DurationVar(&o.idleTimeout, "idle-timeout", defaultIdleTimeout, "URL input: longest wait for the next byte of the stream (0: none)")
	o.retry = -1
	fs.Var(retryValue{&o.retry}, "retry", "URL input: reconnections in a row after a lost connection (default 3 for GET, resuming with Last-Event-ID; 0 otherwise)")
	fs.BoolVar(&o.retryNoIDs, "retry-without-ids", false, "URL input: reconnect even a stream whose events carry no id to resume after (events may repeat)")
	fs.DurationVar(&o.retryMaxWait, "retry-max-wait", source.DefaultMaxRetryDelay, "URL input: longest wait before a reconnection, whatever the server's retry: field asks")
}

// retryValue is the --retry flag: -1 until set, for "the method's default".
type retryValue struct{ n *int }

func (v retryValue) String() string {
	if v.n == nil || *v.n < 0 {
		return ""
	}
	return strconv.Itoa(*v.n)
}

func (v retryValue) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return fmt.Errorf("want a count of 0 or more, not %q", s)
	}
	*v.n = n
	return nil
}

func (retryValue) Type() string { return "int" }

// apply fills the HTTP part of so. stdin serves -d @-, read until ctx
// ends (Ctrl-C). It is an error to give HTTP flags when no input is a
// URL, or to read both the body and an input from stdin.
func (o *httpOptions) apply(ctx context.Context, so *source.Options, stdin io.Reader, inputs []string) error {
	anyURL, anyStdin := false, len(inputs) == 0
	for _, in := range inputs {
		anyURL = anyURL || source.IsURL(in)
		anyStdin = anyStdin || in == "-"
	}
	if !anyURL {
		for _, name := range []string{"method", "header", "data"} {
			if o.fs != nil && o.fs.Changed(name) {
				return fmt.Errorf("--%s applies to URL inputs only", name)
			}
		}
		return nil
	}
	so.Method = strings.ToUpper(o.method)
	if o.fs.Changed("data") {
		switch {
		case o.data == "@-":
			if anyStdin {
				return errors.New("-d @- and an input both read stdin")
			}
			b, err := io.ReadAll(source.Stdin(ctx, stdin))
			if err != nil {
				return fmt.Errorf("reading the request body from stdin: %w", err)
			}
			so.Data = b
		case strings.HasPrefix(o.data, "@"):
			b, err := os.ReadFile(o.data[1:])
			if err != nil {
				return err
			}
			so.Data = b
		default:
			so.Data = []byte(o.data)
		}
		if so.Data == nil {
			so.Data = []byte{}
		}
	}
	if len(o.headers) > 0 {
		so.Header = http.Header{}
	}
	for _, h := range o.headers {
		k, v, ok := strings.Cut(h, ":")
		k = strings.TrimSpace(k)
		if !ok || k == "" || strings.ContainsAny(k, " \t") {
			return fmt.Errorf("-H %q: want 'Name: value'", h)
		}
		so.Header.Add(k, strings.TrimSpace(v))
	}
	so.ConnectTimeout, so.IdleTimeout = o.connectTimeout, o.idleTimeout
	if o.fs.Changed("timeout") {
		if !o.fs.Changed("connect-timeout") {
			so.ConnectTimeout = o.timeout
		}
		if !o.fs.Changed("idle-timeout") {
			so.IdleTimeout = o.timeout
		}
	}
	if o.fs.Changed("retry-max-wait") {
		so.MaxRetryDelay = o.retryMaxWait
	}
	so.Retry = o.retry
	so.RetryWithoutIDs = o.retryNoIDs
	if o.retry < 0 {
		so.Retry = 0
		if so.Method == "" && so.Data == nil || so.Method == http.MethodGet {
			so.Retry = defaultGETRetries
		}
	}
	return nil
}
