package geminisession

import (
	"io"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
)

// Format describes Gemini CLI's session log to the rest of agentstream.
func Format() format.Format {
	return format.Format{
		Name:        "gemini-session",
		Description: "Gemini CLI session log (~/.gemini/tmp/<project>/chats/session-*.jsonl; read only)",
		Detect:      Detect,
		NewDecoder: func(r io.Reader, o *format.Options) event.Decoder {
			return NewDecoder(r, &Config{Source: o.Source, MaxEventBytes: o.MaxEventBytes, Agent: o.Agent, Foreign: o.Foreign})
		},
		// docs/formats/gemini-session.md: the log names a model per
		// message, never the session's; it has no run end (no result,
		// no stop reason, no cost, no failure: an API error leaves no
		// line), no error types, no exit codes, no subagent's text (a
		// subagent's log is a file of its own), and it keeps each answer
		// trimmed of white space.
		Lacks: []format.Content{
			format.Model, format.MetaFinal, format.StopReason, format.Cost, format.Kind, format.ExitCode,
			format.SubagentText, format.TextEdges, format.Signature, format.Citations, format.CitationExtras,
			format.Images, format.Server, format.MCPServer, format.ServerToolCall, format.ServerToolResult,
			format.AwaitingTools, format.MetaFiles, format.FileChange, format.TodoList,
			// An API error leaves no line in the log: the error blocks of
			// its stdout are not compared with it.
			format.ErrorBlock,
		},
	}
}
