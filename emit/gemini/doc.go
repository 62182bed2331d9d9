// Package gemini writes canonical events as Gemini CLI stream-json
// (`--output-format stream-json`), the format package parse/gemini reads.
//
// One line per event it can carry: the session start as init (the
// source's own init line when it was read from this format) and its
// prompt as a user message; each text delta as an assistant message with
// delta true; tool calls and results as tool_use and tool_result; a
// non-fatal error as an error line; the run's end as the result (the
// source's own line when it has one, else one made of what the run said:
// its status, its fatal error, its usage and, when its turns name models,
// the usage per model). Timestamps are not kept by events: lines this
// package makes have "timestamp": "".
//
// What stream-json cannot carry is reported once per kind through
// Config.Warn (*event.LossError): thinking and signatures, stop reasons,
// cost, subagents' events, exit codes and statuses, structured tool
// output, images, citations, pending tools, file lists and changes, todo
// lists. A text block left open at Close is a cut: no result is written
// and Close reports event.ErrTruncated.
package gemini
