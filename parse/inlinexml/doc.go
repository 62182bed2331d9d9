// Package inlinexml reads model text written in the inline XML tool
// protocol of Cline, Roo Code and probe: free text, <thinking> blocks, and
// tool calls written as XML elements named after the tool.
//
// # Grammar
//
//	text        = { free-text | thinking | call | result }
//	thinking    = "<thinking>" raw "</thinking>" | "<think>" raw "</think>"
//	call        = "<" tool ">" { space | param } "</" tool ">"
//	param       = "<" name ">" raw "</" name ">"
//	result      = "<tool_result" attrs ">" raw "</tool_result>"
//
// tool is one of the configured tool names (Config.Tools; Cline's tool set
// by default); name is one of the tool's declared parameters, or any tag
// name when the tool declares none. Tags are exact and case-sensitive and
// carry no attributes (only tool_result has one, tool_name). Everything else
// is text: "a < b", HTML, generics, unknown tags.
//
// # Events
//
// Free text becomes Text blocks, thinking Thinking blocks, a call one
// ToolCall (ID "inline-N", Input a JSON object of the parameters in order:
// strings, or the declared JSON type when a tools file says integer,
// number, boolean, array or object and the value is one), a tool_result a
// ToolResult paired with the oldest call of that tool without one.
// attempt_completion is a ToolCall and, at the end of the text (or merged
// into the wrapped stream's next RunEnd), a RunEnd whose Result is its
// result parameter.
//
// # Streaming and tolerance
//
// The scanner reads each byte once. Text is released as soon as it cannot
// be the start of a tag; what it holds back is at most a possible tag, the
// call being read (a ToolCall is emitted when the call closes) and white
// space. Any split of the input, down to one byte, gives the same events
// (Deltas merged).
//
//   - Values are raw text: nothing is unescaped; "<" and tags inside a value
//     are content. A value ends at its close tag. For the raw parameters
//     (content and diff) the close tag counts only when white space and then
//     the next parameter or the tool's close follow, so a file body may hold
//     its own </content>.
//   - Values lose one leading and one trailing newline; values of other
//     parameters are trimmed of white space. Text is kept as written, except
//     that a run of white space between two elements, and one newline right
//     after an element, are layout and are dropped.
//   - A tool tag in an inline code span (`<read_file>`) is text, and so is
//     a tool tag followed by anything but white space and a parameter (a tool
//     named in prose). A code span ends at a newline; fenced blocks are not
//     code spans, since models fence real calls.
//   - Text between the parameters of a call is reported (*event.ParseError)
//     and ignored. A call, result or thinking left open when the text ends is
//     reported after the events of that text; a call or result is then kept
//     as text, thinking is kept. At the end of the input the report wraps
//     event.ErrTruncated and is the last thing before io.EOF.
//   - A call larger than Config.MaxCallBytes is reported and kept as text.
//   - Invalid UTF-8 becomes U+FFFD, one per invalid byte, before the
//     scanner sees it; a character split across reads is joined.
//
// Wrap applies the same scanner to the Text blocks of any other decoder's
// stream, so a Claude or jsonenv stream from a model prompted with the
// protocol yields real tool calls. When that stream ends inside a text
// block, what the scanner holds is released, the blocks it maps to stay
// open as the source left them, and one truncation is reported last: the
// source's own when it reported one.
package inlinexml
