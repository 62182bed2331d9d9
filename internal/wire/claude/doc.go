// Package claude is the wire vocabulary of Claude Code, declared once:
// its stream-json lines (the format claude, read by parse/claude and
// written by emit/claude: Line and StreamLine (a line read with its
// message, event and result fields), Init, Result, ModelUsage,
// UserMessage, Notice and the line types) and its session log (~/.claude/projects/<project>/<session>.jsonl,
// the format claude-session, read by parse/claudesession: SessionLine and
// the messages it carries, SessionMessage). Message content blocks are the
// Messages API's, package internal/wire/anthropic.
//
// The one-pass readers in read_wire.go are generated from these
// declarations by internal/wire/gen; stream.go adds InitReader (for
// emit/claude and parse/claude) and UnmarshalKind, the generated readers'
// callers.
package claude

//go:generate go run ../gen
