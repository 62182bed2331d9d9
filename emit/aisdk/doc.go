// Package aisdk writes canonical events as the Vercel AI SDK's UI message
// stream (protocol v1, what useChat reads): SSE data: chunks ending with
// data: [DONE], the chunks both ai 5.x and 7.x accept. Served over HTTP it
// goes with Content-Type text/event-stream and the header
// x-vercel-ai-ui-message-stream: v1 (parse/aisdk's Format says so).
//
// The stream is one assistant message of one agent: the first event's
// agent is the main one, and other agents' events (a subagent's) are
// reported lost. SessionStart is the start chunk (written back verbatim
// when it was one, messageId and messageMetadata included; else with
// neither), written before the first chunk if no SessionStart came;
// TurnStart and TurnEnd are start-step and finish-step; text and thinking
// blocks are text and reasoning parts, whose ids the encoder numbers
// (text-1, reasoning-2, ...: the model has none); a ToolCall is
// tool-input-available (providerExecuted for a server tool), after a
// tool-input-start and a tool-input-delta per fragment when the source
// streamed it (InputDeltas); a ToolResult of a call in the stream is
// tool-output-error with its text as errorText when it failed,
// tool-output-denied for the status "denied", else tool-output-available
// with its text as a string output (parts joined with a newline), or its
// structured output when it has no text; Citations are source-url (a
// citation with a URL) or source-document (one with a document title)
// chunks with sourceIds numbered source-1, ...; an Error is an error
// chunk, or the abort chunk it was (the parts it interrupted get no end:
// the client leaves them streaming, as assemble leaves them truncated);
// RunEnd is finish.
//
// finishReason is written only where the source says how the run ended:
// error for a failed run (RunEnd.IsError, a fatal Error, a TurnEnd with
// Error), else the stop reason of the RunEnd or of the last TurnEnd
// mapped (end_turn and stop_sequence: stop, max_tokens: length, tool_use:
// tool-calls, refusal: content-filter; other, unknown, interrupted as
// they are); none when the source gave none, and none, reported lost,
// for a reason that does not map (pause_turn, say).
//
// A cut stays a cut: when a text or reasoning part is still open at
// Close, nothing more is written (no finish, no [DONE]; not abort either,
// which says the stream was stopped on purpose), and Close returns an
// error wrapping event.ErrTruncated. The SDK's client then ends with the
// part still streaming and no finish reason, as after a dropped
// connection. Otherwise Close finishes the open step, writes finish if
// the run's end did not, and data: [DONE].
//
// What the stream cannot carry is reported once per kind through
// Config.Warn as *event.LossError: model, usage, cost, run summary,
// session metadata, turn message ids, thinking signatures, citations'
// cited text and locations, MCP server names, tool result images, exit
// codes, status and structured output beside text, error types,
// awaiting tools, generated files, file changes, todo lists, notices,
// subagent output, results of calls not in the stream (the SDK's client
// throws on them) and unknown items of other formats. Unknown items read
// from a UI message stream (data parts, files, metadata, custom parts)
// are written back verbatim.
package aisdk
