// Package xmlstream decodes the legacy XML stream of the anthropic_agent
// producer (its "xml" formatter: content-block-* elements sent as SSE data)
// into canonical events.
//
// # Framing
//
// The XML document is the concatenation of the SSE data payloads. Message
// boundaries mean nothing to the XML (a tag may be split anywhere), but
// they decide the per-message escaping, so the decoder keeps them.
//
// The framing is read by this package, not by go-sse, because the oldest
// producer wrote chunks with raw newlines, which break SSE framing: a
// chunk "a\n\nb" arrives as the line "data: a", a blank line, and the line
// "b", which an SSE parser drops. The producer only ever writes
// "data: " + chunk + "\n\n", so the chunk can be rebuilt: a line that is
// not an SSE field continues the data (with the line breaks before it),
// and blank lines beyond the one that ends a message are newlines of its
// chunk. Otherwise the rules are SSE's: "data:" with or without the space,
// several data lines joined with "\n", event:, id:, retry: and comments
// ignored, LF, CRLF or CR line ends (decided by the first line end). So a
// raw line of the oldest producer's text that looks like such a field
// (": x", "id: 3") is lost. In a stream framed with LF or CRLF a lone CR
// is content: the current producer writes raw CRs inside text (its bug
// B1).
// A line before the first data line that is neither blank nor an SSE
// field is not SSE at all: the first of a run of them is reported as
// "expected an SSE data: line" and the run is skipped.
// "data: [DONE]" ends a stream: with Config.StopAtDone (a live connection)
// nothing after it is read; otherwise what follows is read as the next
// stream (a resumed run, recordings joined into one file), as package
// jsonenv does. An input that ends inside a line ends inside an SSE
// message: SSE discards that message, and it is reported as a truncation
// (once, with what was open), never read as text. "data: Error: ..." (older servers, plain
// text, recognised between elements only, since a text delta may start so)
// and the JSON line {"error": ..., "message": ..., "traceback": ...} become
// fatal event.Error events.
//
// # Escaping
//
// Three generations of the producer escape each message differently:
//
//   - none: raw; the framing breaks as described above.
//   - newline: LF written as the two characters \n; backslashes not
//     doubled; tool results raw.
//   - full (current): formatter messages (tags, text and thinking deltas,
//     tool calls, citations, server results, errors) double every
//     backslash and write LF as \n; tool results write LF as \n only;
//     meta_init, meta_final, awaiting_frontend_tools and meta_files are
//     not escaped. A message's origin is known from how it starts, unless
//     it arrives inside a text or thinking block, where it is a delta.
//
// Config.Escaping forces one. By default (auto) the decoder assumes the
// current generation and changes its mind on evidence: broken framing
// outside a tool result means none; a backslash that full escaping cannot
// have written (one not followed by \, n or r) means an older generation,
// newline if the stream began with a meta_init, none otherwise; a
// meta_init with parent_agent_uuid settles full; a tool call, server
// result or error whose JSON the full unescaping would break (a JSON \n
// turned into a raw LF) means an older generation, which leaves JSON as it
// is. When the JSON reads both ways in a stream whose meta_init is of the
// older kind, full is kept and a warning (event.ErrWarning) says so, once.
// Only messages holding a
// backslash decode differently across generations, so a late decision
// changes nothing before it. The newline generation is lossy (a written \n
// may have been a backslash and an n); so is the full generation's tool
// result escaping (B5). In the newline generation the JSON-bearing
// messages (tool calls, server results, errors) are not unescaped: JSON
// never holds a raw LF, so their \n is JSON's own escape.
//
// # Grammar
//
// Top-level elements, in any order, with white space between them ignored:
//
//	<meta_init data="JSON"></meta_init>             -> SessionStart (a new agent scope)
//	<content-block-thinking>raw</content-block-thinking> -> BlockStart, Delta..., BlockEnd
//	<content-block-text>raw</content-block-text>     -> BlockStart, Delta..., BlockEnd
//	<citations><citation type=".." ...>CDATA</citation>...</citations> -> Citations
//	<content-block-tool_call id name arguments="JSON"></content-block-tool_call> -> ToolCall
//	<content-block-server_tool_call ...></content-block-server_tool_call>     -> ToolCall{Server}
//	<content-block-tool_result id name>CDATA | <text>CDATA</text><image src media_type/>...</...> -> ToolResult
//	<content-block-server_tool_result id name>CDATA</...>  -> ToolResult{Server}
//	<content-block-X_tool_result ...>, <X_tool_result ...> -> ToolResult{Server} (compatibility)
//	<awaiting_frontend_tools data="JSON"></awaiting_frontend_tools> -> AwaitingTools
//	<content-block-meta_files>CDATA</content-block-meta_files> -> Files
//	<content-block-error>CDATA</content-block-error>   -> Error
//	<meta_final data="JSON"></meta_final>             -> RunEnd
//
// # Tolerance
//
//   - Text and thinking are raw: unknown tags, chart and table, a lone <,
//     &, x<y, a start tag of any element and the end tag of another block
//     are all text. Only the end tag of the open block ends it, and only
//     when what follows it is the start of a known element or the end of
//     the input: the producer writes deltas raw, so "</content-block-text>"
//     followed by more text was the model's. Deltas go out as they arrive,
//     at most one per SSE message; an end tag waits for the next message
//     to be decided. White space is content.
//   - The document is made valid UTF-8 as it arrives, so every event's
//     text (deltas, ids, names, tool inputs and results, errors) is: a
//     character split across messages is held until it is whole, and each
//     byte that is invalid once the bytes after it are known (or the input
//     ended) becomes U+FFFD, one per byte.
//   - Attribute values may be double-, single- or unquoted; quotes are
//     honoured, so a > inside one does not end the tag. Values are
//     entity-decoded once (&amp;#60; is the text &#60;), then JSON in data
//     and arguments is parsed. arguments="" or the JSON string "" (the
//     producer's bug B3 for an empty input) is the input {}; arguments that
//     are not JSON are kept as a JSON string (event.JSONText).
//   - A CDATA section ends at a "]]>" followed by another CDATA section,
//     the element's end tag, or the end of the input: the producer leaves
//     "]]>" unescaped in server results, errors, citations and meta_files.
//     The split form "]]]]><![CDATA[>" is two sections and joins back.
//     Text outside CDATA in those bodies is taken verbatim; white space
//     between nested elements is dropped.
//   - content-block-tool_call with an id starting srvtoolu_ (old streams)
//     is a server tool call, and content-block-tool_result with such an id
//     a server result. Any *_tool_result element is a server result whose
//     name is its name attribute or the tag without content-block-.
//   - Citations become one event.Citations after the text block's
//     BlockEnd. document_title="" is the producer's None and decodes as
//     absent.
//   - Agent scopes: the first meta_init names the main agent; one with a
//     parent_agent_uuid starts a subagent, whose events carry its id. The
//     scope returns to an ancestor when a tool result arrives for one of
//     the ancestor's tool calls (XML has no other sign that a subagent
//     ended). Events before any meta_init carry Config.Agent. The scope
//     stack holds at most 1024 scopes (openset.DefaultMax): one more lets
//     go of the oldest subagent's scope, above the main agent's; and at
//     most 1024 tool calls are kept waiting for their result (a result
//     lets its call go): one more lets go of the oldest. Either is
//     reported once, wrapping event.ErrTooManyOpen.
//   - Text outside any element (an orphan end tag, an unknown element) is
//     kept as a text block of its own and reported as a *event.ParseError
//     wrapping event.ErrSyntax. awaiting_frontend_tools data that is not a
//     JSON array is reported too and kept as an event.Unknown holding the
//     element, which the xml encoder writes back.
//   - The end of the input inside an element: what was read is emitted (a
//     partial tool result, the citations so far, the text deltas; a text
//     block stays open, as in the other formats), then a *event.ParseError
//     wrapping event.ErrTruncated, then io.EOF. An end tag of the open text
//     block at the very end of the input is its end.
//
// Memory is bounded by the largest SSE message, tag or element body
// (Config.MaxEventBytes, event.DefaultMaxBytes by default); a text block is
// streamed and never held whole.
package xmlstream
