// Package event is agentstream's canonical event model: the one vocabulary
// every decoder (package parse/...) produces and every encoder (package
// emit/...) consumes, so that N wire formats need N decoders and N encoders,
// never N×N converters.
//
// A stream is a sequence of Events. Streamed content (text, thinking) is a
// BlockStart, any number of Deltas and a BlockEnd, keyed by (agent, kind);
// everything else (tool calls, tool results, citations, metadata) arrives as
// one complete event. Every event carries its agent scope, so events of
// several agents may interleave freely.
//
// Events hold no input positions: two streams in different formats that
// carry the same content decode to events that compare equal field by field,
// except for the fields documented as verbatim producer payloads (Meta, Raw).
// Positions belong to decoders and appear in ParseError.
//
// This package imports only the standard library. docs/model.md documents
// every type and field and how each wire format maps onto it.
package event
