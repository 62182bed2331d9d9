// Package agui writes canonical events as an AG-UI event stream
// (protocol 1.0, @ag-ui/core 1.0.0), framed as AG-UI's HTTP transport
// frames it: one "data: <event JSON>" line and a blank line per event.
//
// A run is RUN_STARTED (threadId the session id, else the main agent's id;
// runId the main agent's id), its events, then RUN_FINISHED, or RUN_ERROR
// when the run failed. Text blocks become TEXT_MESSAGE_START (role
// assistant), _CONTENT per delta and _END; thinking blocks a reasoning
// span (REASONING_START, REASONING_MESSAGE_START, _CONTENT per delta, the
// signature as REASONING_ENCRYPTED_VALUE of subtype message, _END,
// REASONING_END). Every message gets an id made by agentstream
// ("agentstream-N"): a source's message ids name turns, not AG-UI's
// messages. A tool call is TOOL_CALL_START (parentMessageId the last text
// message of its turn, if any), one TOOL_CALL_ARGS per argument fragment
// the source streamed (one for the whole input otherwise) and
// TOOL_CALL_END; a tool result is TOOL_CALL_RESULT (content a string, or
// text and image parts). A model turn is a step: STEP_STARTED and
// STEP_FINISHED named by the turn's message id (turn-N when it has none).
//
// Subagents: a SessionStart with a parent agent is SUBAGENT_STARTED
// (subagentRunId the agent's id, name, description, parentToolCallId, the
// parent subagent); every event of an agent other than the main one
// carries its id as subagentRunId, announced or not. A subagent's segment
// ends (SUBAGENT_FINISHED, or SUBAGENT_ERROR when it failed) at its run
// end, at its parent's result of the tool call that started it, or before
// RUN_FINISHED.
//
// Errors: a fatal error of the main agent, or a failed turn, is RUN_ERROR
// (message, code the error type); events that follow start a new run
// (RUN_STARTED with the same ids), since AG-UI accepts nothing after a
// RUN_ERROR. A fatal error of an announced subagent is SUBAGENT_ERROR.
// AG-UI has no error that does not end what it reports on: any other
// error is a CUSTOM event named "agentstream.error" with value {message,
// type}, after the agent's open messages are closed. Unknown events read
// from AG-UI are written back verbatim; from other formats, as RAW events
// (event the item's JSON, source the format's name).
//
// Accounting: RUN_FINISHED (or RUN_ERROR) carries the run's usage as one
// TokenUsage (inputTokens the total, cache reads and writes and reasoning
// tokens as its parts) and its result text. Stop reasons, cost, per-turn
// usage, models, session metadata, citations, tool result is_error, exit
// codes, statuses and structured output, server and MCP tool markers,
// notices, files, file changes, todo lists and pending frontend tools
// have no place in AG-UI and are reported once per kind to Config.Warn.
//
// A cut stream stays cut: no RUN_FINISHED is written when the source was
// cut (Cut, which event.End calls after a decoder reported
// event.ErrTruncated) or a message or the main agent's turn is still
// open, and returns an error wrapping event.ErrTruncated; a stream whose last turn ended and that had no run
// end gets its RUN_FINISHED at Close.
package agui
