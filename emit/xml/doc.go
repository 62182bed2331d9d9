// Package xml encodes canonical events as the legacy XML stream of the
// anthropic_agent producer, message by message as its current version
// writes it, so that a legacy frontend keeps working when fed the output.
//
// # What is written
//
// Each SSE message is "data: " + chunk + "\n\n", and the stream ends with
// "data: [DONE]":
//
//   - text and thinking: the start tag, each delta, the end tag, each its
//     own message, deltas raw (not XML-escaped);
//   - citations: one message after the text block's end tag;
//   - tool calls: one message with id, name and arguments attributes,
//     arguments as Python's json.dumps writes them (", " and ": "
//     separators, non-ASCII as \uXXXX; key order and number spelling kept);
//   - attribute values escaped as Python's html.escape(quote=True);
//   - formatter messages (all of the above, server tool results and
//     errors) with every backslash doubled and LF written as \n; tool
//     results with CR and CRLF made LF and LF written as \n, backslashes
//     left alone; meta_init, meta_final, awaiting_frontend_tools and
//     meta_files unescaped (their JSON is compact and ASCII);
//   - meta_init and meta_final: the producer's payload as it came
//     (SessionStart.Meta of kind anthropic_agent, made ASCII as the
//     producer's XML writes it), else one built from the event's fields in
//     the producer's key order.
//
// # Deliberate differences from the producer
//
// Where the producer has a bug, the correct form is written:
//
//   - a CR in text or thinking is written as \r (the producer writes it raw,
//     which breaks the SSE framing: B1). agentstream's decoder reads \r back;
//     the reference parser shows it as the two characters \r;
//   - an empty tool input is arguments="{}" (the producer writes the JSON
//     string "": B3);
//   - "]]>" is split as "]]]]><![CDATA[>" in every CDATA section (the producer
//     does so in tool results only: B10);
//   - meta_files JSON with line breaks is made compact, so that no raw LF
//     reaches the framing;
//   - a text or thinking delta that would read as the end of the stream
//     ("[DONE]") or as the server's JSON error line is split into two
//     messages (the text is their concatenation).
//
// # What XML cannot carry
//
// Each is reported once per encoder through Config.Warn as an
// *event.LossError: thinking signatures; tool result is_error, exit codes,
// status and structured output; a literal \n and CRs in tool result text
// (read back as newlines); images in server tool results; citation fields
// outside their type's attribute set; the MCP server of a tool call;
// a turn's message id, model, usage and stop reason (meta_final carries
// the run's), and a run's that has no run end; notices, file changes, todo lists and unknown events of
// other formats; the agent id of a stream without meta_init; interleaved
// agents (a new agent gets a meta_init naming the current one as parent, as
// the producer writes for a subagent; a return to an earlier agent is
// implied only by a tool result for one of its calls: an agent's events
// that come while one of its subagents has the scope are held, within
// event.DefaultMaxBytes, and written after its result for the subagent's
// call, so that they stay its own; held events whose scope never returns
// are dropped at the end, reported); interleaved blocks
// (XML has one open block: an interrupted block is closed and reopened,
// so it splits in two). Turn boundaries are not written; the blocks imply
// them.
//
// The server's JSON error line ({"error", "message", "traceback"}, a fatal
// event.Error that came from one) is written as is and ends the stream
// without [DONE]. Close reports a block left open with an error wrapping
// event.ErrTruncated and writes neither its end tag nor [DONE], so the
// output is cut off too.
//
// XML cannot mark a block its source abandoned (an event.Notice of Kind
// event.NoticeAbandoned: a message given up and begun again): convert's
// AbandonHold drops such a block before it reaches the encoder; one that
// reaches it anyway is closed where the notice came and reads back as
// content, which is reported.
//
// The encoder keeps at most 1024 (openset.DefaultMax) each of the blocks
// open in the source, the agents seen and the tool calls waiting for a
// result: beyond that the oldest is forgotten, which is warned about once.
package xml
