// Package aisdk decodes the Vercel AI SDK's UI message stream (protocol
// v1, what useChat reads; ai 5.x and 7.x) into canonical events.
//
// Grammar: SSE messages with a data: line each and no event: line; each
// data is one JSON chunk {"type": ...} (internal/wire/aisdk declares
// them all) and the body ends with data: [DONE]. A stream is one
// assistant message of one agent: start, then steps (start-step ...
// finish-step, one per model call) holding text-start/-delta/-end and
// reasoning-start/-delta/-end parts (by id), tool-input-start/-delta/
// -available/-error and tool-output-available/-error/-denied chunks (by
// toolCallId), sources, files and data parts, then finish or abort.
//
// Mapping: start is a SessionStart that keeps the chunk verbatim (Meta,
// MetaKind "aisdk": its messageId and messageMetadata); start-step a
// TurnStart, finish-step a TurnEnd (with neither stop reason nor usage:
// the stream has none); text and reasoning parts are text and thinking
// blocks; tool-input-available a ToolCall (providerExecuted is Server;
// the input fragments, when they spell the input exactly, its
// InputDeltas); tool-input-error a ToolCall and an error ToolResult with
// the errorText; tool-output-available a ToolResult whose text is a
// string output, or whose Structured is any other output;
// tool-output-error an error ToolResult; tool-output-denied a ToolResult
// with Status "denied"; source-url and source-document a Citations with
// one citation of that type (URL and title, or the document's title;
// Raw keeps the chunk); error a non-fatal Error; abort a fatal Error of
// Type "abort"; reset-step a Notice of Kind event.NoticeAbandoned (the
// step's open parts are given up); finish a RunEnd (Meta keeps the
// chunk) whose stop reason is the finishReason mapped (stop: end_turn,
// length: max_tokens, tool-calls: tool_use, content-filter: refusal,
// other, unknown and interrupted as they are; error sets IsError
// instead). Data parts, file, reasoning-file, message-metadata, custom,
// the tool approval chunks, steering-message and types to come are kept
// as Unknown events.
//
// Tolerance: framing is frame.SSE (LF, CRLF or CR, "data:" with or
// without the space, comments); [DONE] is optional. Data that is not JSON
// is a *event.ParseError and reading goes on; so is a delta or end of a
// part that is not open, or a tool-input-delta without its start. The
// event model keeps one open block per kind: a part started while
// another of its kind is open ends that one. One SSE message, and the
// streamed input of the tool calls open at once, may be at most
// MaxEventBytes. A stream that ends without finish or abort yields what
// arrived (tool calls whose input was streaming, with the input so far,
// as a JSON string when it does not parse; open parts stay open) and
// then a ParseError wrapping event.ErrTruncated.
package aisdk
