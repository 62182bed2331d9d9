// Package codex is the wire vocabulary of Codex's two formats, declared
// once: the lines of codex exec --json (Line, Item and what they hold; the
// format codex, read by parse/codex and written by emit/codex) and the
// lines of a rollout log (RolloutLine, Payload and what they hold; the
// format codex-session, read by parse/codexsession), which share the
// token usage object (Usage). The one-pass readers in read_wire.go are
// generated from these declarations by internal/wire/gen.
package codex

//go:generate go run ../gen
