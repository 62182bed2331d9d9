// Package source opens the inputs agentstream commands read: a file, "-"
// for standard input, or an http:// or https:// URL read as an SSE stream.
//
// # Names
//
// Open takes the name as the command line gives it:
//
//   - "-" is standard input (Options.Stdin, os.Stdin when nil); closing
//     the reader does not close it.
//   - A name that starts with http:// or https:// (IsURL) is a URL, read
//     as an SSE stream.
//   - Anything else is a file, opened with os.Open.
//
// Files and standard input are handed on as they are: the decoders frame
// and tell their format. [Follow] opens a file to be read as tail -F reads
// it (--follow): what is appended after its end, again from the start when
// it is truncated or replaced. The rest of this documentation is about URLs.
//
// # URLs
//
// A URL's reader yields the response body's bytes unchanged, so format
// detection and the decoders read a URL as they read a file. It hands them
// on one whole SSE message at a time (up to and including its blank line),
// as soon as that message has arrived. Lines may end in LF, CRLF or CR, as
// in any SSE stream.
//
// The request is a GET, or a POST when Options.Data is set, unless
// Options.Method says otherwise. It sends Accept: text/event-stream and
// Cache-Control: no-cache unless Options.Header sets them; a body without
// a Content-Type is sent as application/json when it is valid JSON,
// application/octet-stream otherwise. Rules (docs/url-input.md):
//
//   - An answer other than 2xx, or a 2xx that is not text/event-stream, is
//     an *HTTPError showing the status and the start of the body; 204 No
//     Content is an empty stream.
//   - Options.ConnectTimeout bounds the wait for the response headers;
//     Options.IdleTimeout the wait for each next byte (ErrConnectTimeout,
//     ErrIdleTimeout).
//   - After a lost connection, an idle timeout or a failed connection,
//     Options.Retry reconnections are allowed in a row: the count starts
//     again only with an event that brings a new id (comments, blank lines
//     and repeated ids do not), and Options.MaxReconnects caps them in all.
//     The wait before each is the server's retry: (or Options.RetryDelay),
//     at least Options.MinRetryDelay, doubled with every reconnection in a
//     row up to 30s. The request sends Last-Event-ID with the id of the last
//     whole message. The message cut off is dropped, as EventSource drops
//     it; part of a message over the cap already handed on is ended with a
//     blank line, so that the decoder's skip of it ends there. HTTP error
//     answers and redirect loops (ErrRedirectLoop) are never retried.
//   - A stream cannot be resumed exactly once an event without an id: was
//     handed on (the server would send it again): it is then not
//     reconnected, unless Options.RetryWithoutIDs allows it, and
//     Options.Warn says that events may repeat.
//   - Without a retry left, a lost connection is an error after the bytes
//     that arrived, the partial message included. So is a cancelled
//     context: a recording stopped by Ctrl-C keeps what arrived.
//   - A message over Options.MaxEventBytes is handed on as it arrives, for
//     the decoder to report and skip, instead of being held whole.
//
// Standard input is read on a goroutine of its own when the context can
// end, so that a read blocked on a silent pipe returns at the context's
// end (Ctrl-C on `record -`).
//
// Tolerance: an id: field holding a NUL byte, and a retry: field that is
// not a whole number of milliseconds, are ignored, as EventSource ignores
// them; the bytes are handed on all the same.
package source
