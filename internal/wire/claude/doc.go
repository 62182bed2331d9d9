// Package claude is the wire vocabulary of Claude Code's session log
// (~/.claude/projects/<project>/<session>.jsonl, the format
// claude-session, read by parse/claudesession), declared once: its lines
// (SessionLine) and the messages they carry (SessionMessage, whose
// content blocks are the Messages API's, package internal/wire/anthropic). The
// one-pass readers in read_wire.go are generated from these declarations
// by internal/wire/gen.
package claude

//go:generate go run ../gen
