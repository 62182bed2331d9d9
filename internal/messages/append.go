package messages

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/wire/anthropic"
)

// eventHead is how a stream event of type typ, that the Streamer
// writes without reflection, begins: its JSON text up to what varies
// (or the whole text, for message_stop), and the SSE message that
// carries it up to the same byte, as one piece each.
type eventHead struct{ json, sse string }

func newHead(typ, json string) *eventHead {
	return &eventHead{json, "event: " + typ + "\ndata: " + json}
}

var (
	messageStartHead = newHead(anthropic.EventMessageStart, `{"type":"`+anthropic.EventMessageStart+`","message":{"id":`)
	messageDeltaHead = newHead(anthropic.EventMessageDelta, `{"type":"`+anthropic.EventMessageDelta+`","delta":{"stop_reason":`)
	messageStopEvent = newHead(anthropic.EventMessageStop, `{"type":"`+anthropic.EventMessageStop+`"}`)
	blockStartHead   = newHead(anthropic.EventContentBlockStart, `{"type":"`+anthropic.EventContentBlockStart+`","index":`)
	blockStopHead    = newHead(anthropic.EventContentBlockStop, `{"type":"`+anthropic.EventContentBlockStop+`","index":`)
	deltaHead        = newHead(anthropic.EventContentBlockDelta, anthropic.ContentBlockDeltaHead)

	// messageStopSSE is the whole SSE message of message_stop, with the
	// blank line that ends it (see WriteStop).
	messageStopSSE = messageStopEvent.sse + "\n\n"
)

// appendDelta appends the content_block_delta of text for a block of
// kind at index, as Marshal writes blockDelta, after deltaHead: the
// stream event of every text and thinking delta, written without
// reflection or allocation. start and end bound text as escaped in it,
// without its quotes.
func appendDelta(b []byte, index int, kind event.BlockKind, text string) (_ []byte, start, end int) {
	b = appendDeltaHead(b, index, kind)
	start = len(b) + 1
	// A string, quoted, for AppendMarshalString's copy of a plain ASCII
	// text, which most deltas are, whole.
	b = jsontext.AppendMarshalString(b, text)
	end = len(b) - 1
	return append(b, "}}"...), start, end
}

// appendEscapedDelta is appendDelta of a text already escaped (esc).
func appendEscapedDelta(b []byte, index int, kind event.BlockKind, esc []byte) []byte {
	return append(append(append(appendDeltaHead(b, index, kind), '"'), esc...), `"}}`...)
}

// appendDeltaHead appends a content_block_delta after deltaHead up to
// its text's opening quote.
func appendDeltaHead(b []byte, index int, kind event.BlockKind) []byte {
	b = jsontext.AppendInt(b, int64(index))
	if kind == event.Thinking {
		return append(b, anthropic.ThinkingDeltaHead...)
	}
	return append(b, anthropic.TextDeltaHead...)
}

// appendStr is jsontext.AppendMarshalString, an empty s (a message
// with no id or model named) written without its call.
func appendStr(b []byte, s string) []byte {
	if s == "" {
		return append(b, `""`...)
	}
	return jsontext.AppendMarshalString(b, s)
}

// incompleteTail returns how many of the last bytes of s are the start of
// a UTF-8 sequence that bytes after them could complete: escaped apart
// from what follows, they would be written otherwise than escaped with
// it.
func incompleteTail(s string) int {
	if s == "" || s[len(s)-1] < utf8.RuneSelf {
		return 0 // ends in ASCII, as most texts do: one test, not three
	}
	for i := max(len(s)-utf8.UTFMax+1, 0); i < len(s); i++ {
		if !utf8.FullRuneInString(s[i:]) {
			return len(s) - i
		}
	}
	return 0
}

// The heads of text and thinking blocks, as Marshal writes textBlock
// and thinkingBlock, up to their text.
const (
	textBlockHead     = `{"type":"text","text":"`
	thinkingBlockHead = `{"type":"thinking","thinking":"`
)

// Text and thinking blocks as their content_block_start has them, as
// Marshal writes textBlock and thinkingBlock with no text.
const (
	emptyTextBlock     = `{"type":"text","text":""}`
	emptyThinkingBlock = `{"type":"thinking","thinking":"","signature":""}`
)

// appendTextBlock appends a text block whose text is esc (escaped, see
// jsontext.AppendMarshalEscaped), as Marshal writes textBlock.
func appendTextBlock(buf, esc []byte, citations []json.RawMessage) []byte {
	return appendTextBlockEnd(append(append(buf, textBlockHead...), esc...), citations)
}

// appendTextBlockEnd appends what follows a text block's text.
func appendTextBlockEnd(buf []byte, citations []json.RawMessage) []byte {
	buf = append(buf, '"')
	if len(citations) > 0 {
		// Each compact JSON (citationJSON), which Marshal writes as it is.
		buf = append(buf, `,"citations":[`...)
		for i, c := range citations {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = append(buf, c...)
		}
		buf = append(buf, ']')
	}
	return append(buf, '}')
}

// appendThinkingBlock appends a thinking block whose thinking is esc
// (escaped, see jsontext.AppendMarshalEscaped), as Marshal writes thinkingBlock.
func appendThinkingBlock(buf, esc []byte, sig string) []byte {
	return appendThinkingBlockEnd(append(append(buf, thinkingBlockHead...), esc...), sig)
}

// appendThinkingBlockEnd appends what follows a thinking block's text.
func appendThinkingBlockEnd(buf []byte, sig string) []byte {
	buf = append(buf, `","signature":`...)
	return append(jsontext.AppendMarshalString(buf, sig), '}')
}

// AppendMessage appends the message object of an assistant snapshot
// holding blocks, each a content block as the Streamer gives it (valid,
// compact JSON), as Marshal writes it: a message without stop reason
// and with usage u, what the source gave at the message's start (see
// AppendUsage), written without reflection.
func AppendMessage(b []byte, id, model string, u *event.Usage, blocks ...[]byte) []byte {
	b = append(b, `{"id":`...)
	b = jsontext.AppendMarshalString(b, id)
	if model == "" {
		// No model named (Codex names none): one piece, nothing to escape.
		b = append(b, `,"type":"message","role":"assistant","model":"","content":[`...)
	} else {
		b = append(b, `,"type":"message","role":"assistant","model":`...)
		b = append(jsontext.AppendMarshalString(b, model), `,"content":[`...)
	}
	for i, block := range blocks {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, block...)
	}
	b = append(b, `],"stop_reason":null,"stop_sequence":null,"usage":`...)
	return append(AppendUsage(b, u), '}')
}

// AppendUsage appends u as a message's usage object, as Marshal writes
// outUsage: the counts the source gave; input and output tokens it did
// not give (all of them, for nil) in the unknown form null, cache counts
// it did not give absent; never a made-up 0.
func AppendUsage(b []byte, u *event.Usage) []byte {
	if u == nil {
		return append(b, `{"input_tokens":null,"output_tokens":null}`...)
	}
	b = append(b, `{"input_tokens":`...)
	b = jsontext.AppendOptInt(b, u.Given(event.HasInput))
	if u.Has&event.HasCacheWrite != 0 {
		b = append(b, `,"cache_creation_input_tokens":`...)
		b = jsontext.AppendInt(b, u.CacheWriteTokens)
	}
	if u.Has&event.HasCacheRead != 0 {
		b = append(b, `,"cache_read_input_tokens":`...)
		b = jsontext.AppendInt(b, u.CacheReadTokens)
	}
	b = append(b, `,"output_tokens":`...)
	b = jsontext.AppendOptInt(b, u.Given(event.HasOutput))
	if u.ServiceTier != "" {
		b = append(b, `,"service_tier":`...)
		b = jsontext.AppendMarshalString(b, u.ServiceTier)
	}
	return append(b, '}')
}

// appendToolBlock appends a tool use block of type typ (one of the
// Messages API's tool use block types, which need no escape), as
// Marshal writes toolBlock, its input being compact, valid JSON,
// without encoding/json's reflection: every tool call's block is
// written here.
func appendToolBlock(b []byte, typ, id, name string, input []byte, server string) []byte {
	b = append(append(append(b, `{"type":"`...), typ...), `","id":`...)
	b = jsontext.AppendMarshalString(b, id)
	b = append(b, `,"name":`...)
	b = jsontext.AppendMarshalString(b, name)
	b = append(b, `,"input":`...)
	b = append(b, input...)
	if server != "" {
		b = append(b, `,"server_name":`...)
		b = jsontext.AppendMarshalString(b, server)
	}
	return append(b, '}')
}

// appendBlockStartHead appends a content_block_start after
// blockStartHead up to its block, as Marshal writes blockStart.
func appendBlockStartHead(b []byte, index int) []byte {
	b = jsontext.AppendInt(b, int64(index))
	return append(b, `,"content_block":`...)
}

// appendBlockStop appends a content_block_stop after blockStopHead, as
// Marshal writes blockStop.
func appendBlockStop(b []byte, index int) []byte {
	b = jsontext.AppendInt(b, int64(index))
	return append(b, '}')
}

// appendInputDelta appends the input_json_delta of frag after
// deltaHead, as Marshal writes blockDelta of an inputDelta.
func appendInputDelta(b []byte, index int, frag string) []byte {
	b = jsontext.AppendInt(b, int64(index))
	b = append(b, anthropic.InputDeltaHead...)
	b = jsontext.AppendMarshalString(b, frag)
	return append(b, "}}"...)
}

// appendMessageStart appends the message_start of a message with no
// content yet, id, model and usage u after messageStartHead, as Marshal
// writes messageStart: once per message, which for sources of many
// short messages (an OpenAI completion each) is as often as their
// deltas.
func appendMessageStart(b []byte, id, model string, u *outUsage) []byte {
	b = appendStr(b, id)
	b = append(b, `,"type":"message","role":"assistant","model":`...)
	b = appendStr(b, model)
	if *u == (outUsage{}) {
		// No usage given: its unknown form with the rest, one piece.
		return append(b, `,"content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":null,"output_tokens":null}}}`...)
	}
	b = append(b, `,"content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":`...)
	b = jsontext.AppendOptInt(b, u.InputTokens)
	if u.CacheCreationInputTokens != nil {
		b = append(b, `,"cache_creation_input_tokens":`...)
		b = jsontext.AppendInt(b, *u.CacheCreationInputTokens)
	}
	if u.CacheReadInputTokens != nil {
		b = append(b, `,"cache_read_input_tokens":`...)
		b = jsontext.AppendInt(b, *u.CacheReadInputTokens)
	}
	b = append(b, `,"output_tokens":`...)
	b = jsontext.AppendOptInt(b, u.OutputTokens)
	if u.ServiceTier != "" {
		b = append(b, `,"service_tier":`...)
		b = jsontext.AppendMarshalString(b, u.ServiceTier)
	}
	return append(b, "}}}"...)
}

// appendMessageDelta appends the message_delta of stop reason
// stopReason and usage u after messageDeltaHead, as Marshal writes
// messageDelta (a stop_sequence is never known): once per message.
func appendMessageDelta(b []byte, stopReason *string, u *outUsageEnd) []byte {
	b = jsontext.AppendOptString(b, stopReason)
	if *u == (outUsageEnd{}) {
		// No count known: output_tokens null, the others absent.
		return append(b, `,"stop_sequence":null},"usage":{"output_tokens":null}}`...)
	}
	b = append(b, `,"stop_sequence":null},"usage":{`...)
	if u.InputTokens != nil {
		b = append(b, `"input_tokens":`...)
		b = append(jsontext.AppendInt(b, *u.InputTokens), ',')
	}
	if u.CacheCreationInputTokens != nil {
		b = append(b, `"cache_creation_input_tokens":`...)
		b = append(jsontext.AppendInt(b, *u.CacheCreationInputTokens), ',')
	}
	if u.CacheReadInputTokens != nil {
		b = append(b, `"cache_read_input_tokens":`...)
		b = append(jsontext.AppendInt(b, *u.CacheReadInputTokens), ',')
	}
	b = append(b, `"output_tokens":`...)
	b = jsontext.AppendOptInt(b, u.OutputTokens)
	return append(b, "}}"...)
}
