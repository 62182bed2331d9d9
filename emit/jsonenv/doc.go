// Package jsonenv encodes canonical events as the JSON envelope stream,
// exactly as the spec describes it: keys in the order type, agent, final,
// delta, then the extras; compact; UTF-8 unescaped and no HTML escaping;
// `final` semantics for streamed blocks, buffered blocks, multimodal tool
// results and citations; SSE framing with a closing `data: [DONE]`, or
// NDJSON.
//
// Unlike the reference producer, the cap on an envelope is real: the JSON
// text of every envelope as written is at most Config.MaxChunkBytes
// (default 2048), counting escapes, and a cut never splits a UTF-8
// character. Two kinds of envelope are written whole: one whose fixed
// fields alone fill the cap (a tool_result_image with a data URI), and a
// citation, which the spec's consumers take as one message.
//
// Agents: every envelope names one (validate rule ENV009). An event whose
// source names no agent gets Config.Agent (the --agent flag),
// else the agent of the stream's first event when that names one (the
// producer's fatal error line carries none and belongs to the run it
// interrupted), else DefaultAgent ("agentstream"), so that agentless
// events never merge into an agent the stream names later.
//
// A message its source abandoned (event.NoticeAbandoned) is taken back
// with a rollback envelope, agent_base's type: its open blocks get no
// final envelope, and the decoder reads the rollback as the same notice.
//
// What the envelope cannot carry is reported through Config.Warn as
// *event.LossError, once per kind of content.
package jsonenv
