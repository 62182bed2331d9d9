// Package claudesession decodes the session logs Claude Code keeps on disk
// (~/.claude/projects/<escaped cwd>/<session id>.jsonl) into canonical
// events.
//
// Grammar: one JSON object per line (LF or CRLF). user and assistant
// lines carry a Messages API message (an assistant line holds one content
// block, with the message's final stop reason and usage); lines link by
// uuid and parentUuid; sessionId, cwd, version and gitBranch are fields of
// every message line (there is no init line and no result line). Other
// line types: system (compact_boundary and other subtypes), attachment,
// queue-operation, last-prompt, summary, and more that are kept as
// event.Unknown.
//
// Mapping: the session opens with a SessionStart made from the lines'
// own fields (held until the first assistant message names the model);
// each message id is one turn, its usage counted once; <synthetic> API
// error lines are event.Error where they happen; tool results carry
// toolUseResult as Structured; a fork in the parentUuid chain (an edited
// prompt, a retry) is read in file order and marked with a "branch"
// notice; at the end of the log the run ends with the totals the lines
// carry. A subagent's transcript, kept in a file of its own, is read
// where its Agent tool call returns, when Config.Subagent can open it
// (package source/sessions finds it beside the log).
//
// Tolerance: a bad line is a positioned *event.ParseError and reading
// goes on; a line over MaxEventBytes is skipped and reported; a log still
// being written (its last line cut off) is read to its last whole line and
// then reported as event.ErrTruncated. docs/formats/claude-session.md has
// the details.
package claudesession
