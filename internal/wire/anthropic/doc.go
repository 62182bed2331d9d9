// Package anthropic is the wire vocabulary of the Anthropic Messages API,
// declared once: its stream events (StreamEvent and what they hold: the
// message, its content blocks, deltas, usage and errors) and their type
// strings. The format anthropic (the SSE body of one API call) is these
// events; Claude Code's stream-json (package internal/wire/claude) wraps
// them in its stream_event lines and carries these content blocks in its
// assistant lines. The translation between them and canonical events is
// package internal/messages.
//
// The one-pass readers in read_wire.go are generated from these
// declarations by internal/wire/gen; read.go adds the reader of the
// delta events as the API writes them (two constant heads around the
// index), the usage reader (which notes the counts given) and
// UnmarshalBlock.
package anthropic

//go:generate go run ../gen
