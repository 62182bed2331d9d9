// Package render writes an event stream for people and assembled blocks
// for programs.
//
// [Transcript] is the view people read: it consumes canonical events, so
// that in live mode text and thinking appear delta by delta, and shows tool
// calls by what they do (shell commands, edits as unified diffs, reads,
// writes, todo lists, searches, MCP calls) with each result under its call,
// subagents nested under the call that started them, citations as
// footnotes, notices as one-liners and a summary of the run. It writes
// terminal text, coloured through [Styles], or Markdown. docs/assemble.md
// describes the view and the order it prints things in.
//
// [JSON] writes assembled blocks (package assemble) as NDJSON, the schema of
// docs/blocks.md. Package render/htmlview writes a run as one HTML page; it
// shows tool calls through [DescribeCall], as the transcript does.
package render
