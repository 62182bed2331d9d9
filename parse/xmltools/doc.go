// Package xmltools reads model text written with netdata's XML tool
// transport: tool calls in nonce-tagged slots, a final report, progress
// and meta blocks, and the XML-PAST results the orchestrator feeds back.
//
// # Grammar
//
//	text   = { free-text | think | slot }
//	think  = "<think" space* ">" raw "</think" space* ">"
//	slot   = "<ai-agent-" NONCE "-" SLOT attrs ">" payload "</ai-agent-" NONCE "-" SLOT space* ">"
//	SLOT   = 4+ digits | "FINAL" | "PROGRESS" | "META"
//	attrs  = { space name space* "=" space* ( '"' any '"' | "'" any "'" | bare ) }
//
// NONCE is Config.Nonce or, when empty, the first eight hex digits a tag
// starts with. A slot is valid when its nonce matches, the slot is declared
// (a number from 0001, at most Config.Slots when set, or a named slot), a
// numbered slot's tool attribute names an allowed tool (Config.Tools; any
// when nil), and the payload is not empty. An invalid tag is reported as
// an *event.ParseError with the reason and kept as text; so is a tool
// payload that is not JSON, an unclosed slot at the end, a close tag
// without its open tag, and a self-closing tag. Names are case-sensitive.
//
// # Events
//
//   - numbered slot: ToolCall{ID: NONCE-SLOT (".N" added when reused),
//     Name: tool, Input: the payload, trimmed};
//   - numbered slot with a status attribute (XML-PAST): ToolResult with the
//     <response> text, IsError for status="failed";
//   - FINAL: its content streams as a Text block of its own (META blocks
//     inside it are taken out), then at the end of the text a RunEnd with
//     Result (trimmed), StopReason the status (success by default), IsError
//     for failure, and Meta {"slot", "status", "format"} (MetaKind
//     "xmltools"). An unclosed FINAL is accepted and reported;
//   - PROGRESS: Notice{Kind: "progress"} (the "progress" member of a JSON
//     payload as its message);
//   - META: Notice{Kind: "meta", Message: plugin, Raw: the JSON payload};
//   - <think> anywhere outside a slot: a Thinking block; slots inside it
//     are thinking.
//
// # Streaming and tolerance
//
// Each byte is read once; what is held back is a possible tag (at most
// 4 KiB), the open slot's payload, and white space. FINAL's report and
// thinking stream without lag. Any split of the input gives the same events.
// Invalid UTF-8 becomes U+FFFD, one per invalid byte, before the scanner
// sees it; a character split across reads is joined.
// Attribute values may hold '>' and use either quote; a close tag may have
// white space before '>'; "<" right before a tag does not hide it; a
// trailing partial tag at the end is text. What the end of the text cuts
// off is reported after the events of that text; at the end of the input
// the report wraps event.ErrTruncated and is the last thing before io.EOF.
// Wrap leaves the blocks of a source text block cut off open, as the
// source left them, and reports the source's truncation, once. The bugs of netdata's parser
// this avoids are listed in docs/formats/xmltools.md.
package xmltools
