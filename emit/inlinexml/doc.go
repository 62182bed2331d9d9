// Package inlinexml writes canonical events as inline XML tool protocol
// text (the format parse/inlinexml reads), so that a transcript from a
// model with native tool calls can be replayed to a model prompted with
// the protocol.
//
//   - Text is written as it is; thinking as <thinking>…</thinking>.
//   - A tool call as <name>, one <param>value</param> line per member of
//     its input object, in order, and </name>: strings as they are, other
//     values as JSON text. The raw parameters (content, diff) and values
//     with newlines are written on lines of their own.
//   - A tool result as <tool_result tool_name="name">, its text, and
//     </tool_result>; an error result's text starts with "Error:".
//   - A run's result as an attempt_completion call, unless the run's last
//     call was attempt_completion or the text written since the last element
//     is that result.
//   - Elements start on a line of their own and end with a newline, which
//     the decoder takes as layout: decoding the output gives the events back,
//     except that text followed by an element gains a newline.
//
// Nothing is escaped: the protocol defines no escaping. Text that reads as
// a tool tag, a parameter value holding its own close tag (other than in
// content and diff), white space around a value, names that are not tag
// names, and input that is not a JSON object cannot be carried faithfully
// and are warned about (*event.LossError), as are session metadata, turn
// boundaries, citations, images, exit codes, notices and the events of
// agents other than the first.
package inlinexml
