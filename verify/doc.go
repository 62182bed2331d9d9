// Package verify tells whether two agent streams carry the same content:
// the same text, thinking, tool calls and results, citations, errors, file
// lists and outcome, per agent and in order, whatever their wire formats.
//
// It compares assembled blocks (package assemble), so transport never
// matters: chunk boundaries, escaping, SSE framing, key order, pings and
// keep-alives are gone before the comparison starts. Agents are matched by
// order of first appearance, not by id, since ids differ across formats.
//
// What counts as content, the field names (the vocabulary of --ignore and
// of format.Format.Lacks) and the report schema are in docs/verify.md.
package verify
