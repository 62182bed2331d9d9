// Package geminisession decodes the session logs Gemini CLI keeps on disk
// (~/.gemini/tmp/<project>/chats/session-*.jsonl) into canonical events.
//
// Grammar: one JSON object per line (LF or CRLF): a header
// {sessionId, projectHash, startTime, lastUpdated, kind}; message records
// {id, timestamp, type user|gemini|info|warning|error, content, ...}, a
// gemini record with thoughts, tokens, model and toolCalls; metadata
// patches {"$set": {...}}; and {"$rewindTo": id}. A record whose id was
// seen before is the same message again (the CLI writes a model message
// once when it arrives and again when its tool calls have run). The types
// are declared in internal/wire/gemini (chatRecordingTypes.ts).
//
// Mapping (docs/formats/gemini-session.md): the header opens the session,
// held until the first user text, its Prompt; each gemini message is a
// turn (its tokens the turn's usage: thoughts are output, and reasoning)
// with its thoughts as thinking blocks, its text, then its tool calls and,
// once they ran, their results (resultDisplay as text, the function
// response as Structured); what a message written again adds is written
// then, inside its turn. Later prompts, info and warning records and the
// patches that say something are notices; error records are errors. The
// log has no run end: none is made up.
//
// Tolerance: a bad line is a positioned *event.ParseError and reading
// goes on; a stream-json line says so; a line over MaxEventBytes is
// skipped and reported; a log still being written (its last line cut
// off) is read to its last whole line, then reported as
// event.ErrTruncated.
package geminisession
