// Package messages is the translation between the Anthropic Messages API
// stream (its wire vocabulary is package internal/wire/anthropic) and
// canonical events, shared by four format packages: parse/anthropic and
// emit/anthropic (the raw SSE body of one API call), and parse/claude and
// emit/claude (Claude Code's stream-json, whose stream_event lines wrap
// exactly these events and whose assistant lines carry these content
// blocks).
//
// The house rule is that format packages never import each other and that
// a wire vocabulary is written once. Claude Code's stream-json embeds the
// Messages API vocabulary verbatim, so instead of letting parse/claude
// import parse/anthropic, the shared translation lives here, in a package
// named for what it is.
//
// The package has two halves:
//
//   - Builder turns stream events (message_start ... message_stop) and whole
//     content blocks (Claude Code's assistant snapshots) into canonical
//     events. Text and thinking deltas are emitted as they arrive; tool
//     input is assembled from input_json_delta fragments and emitted as one
//     ToolCall when its block ends, with the fragments' lengths
//     (InputDeltas). A block is keyed by (message id, content
//     index) and is never emitted twice: a snapshot of a block already built
//     from deltas is compared with it, not repeated. The comparison uses a
//     digest (length and a seeded 64-bit hash, hash/maphash) of the streamed text, never the text
//     itself, so what a Builder holds is bounded by the messages it
//     remembers, not by the length of their blocks.
//   - Streamer is the inverse: canonical events of one agent in, Messages
//     API stream events out (message_start, content_block_start, deltas,
//     content_block_stop, message_delta, message_stop), with a callback for
//     every completed content block so that Claude Code's assistant
//     snapshots can be written.
//
// Content that the canonical model has no field for (redacted_thinking,
// compaction and other block types, unknown delta types) becomes an
// event.Unknown with Format "anthropic": its vocabulary is the Messages
// API's, whichever of the two formats it was read from, so both encoders
// can write it back.
package messages
