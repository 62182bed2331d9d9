package messages

import (
	"bufio"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/openset"
	"github.com/agentstream/agentstream/internal/wire/anthropic"
)

// Streamer turns the canonical events of one agent into Messages API
// stream events, one message per model turn. Where the source has no turn
// boundaries (no TurnStart), the first content opens a message and the
// caller ends it with EndTurn.
//
// A text block's content_block_stop is held back until the next event, so
// that the citations that follow its BlockEnd can still be written into it
// as citations_delta events.
type Streamer struct {
	// Event receives every stream event: its type and its JSON text,
	// which is valid only during the call. If nil, none is written (a
	// caller that wants only the blocks).
	Event func(typ string, data []byte) error
	// Block, if set, receives every completed content block (its JSON
	// text) with the message it belongs to, just before the block's
	// content_block_stop, as Claude Code writes its assistant snapshots.
	// The block's text is valid only during the call.
	Block func(msg MessageInfo, block []byte) error
	// Model names the model of messages whose TurnStart names none.
	Model string
	// NewID returns the id of the n-th message (from 1) whose source
	// gives none. It is called when the id is first needed: at the
	// message's start when Event is set, else at its first block (a
	// message with no block, an error's turn say, makes no id).
	NewID func(n int) string
	// MaxBlockBytes, when positive, caps the text of one text or
	// thinking block as written in JSON (escapes counted): what is beyond
	// it is dropped, from the deltas as from the block, never splitting a
	// UTF-8 sequence, and Cut is called. Set it with Block, whose blocks
	// hold their whole text.
	MaxBlockBytes int
	// Cut, if set, is called each time text beyond MaxBlockBytes is
	// dropped.
	Cut func()
	// Spare, if set, holds a text block's buffer once Block has returned
	// it, for the next text block (a buffer of at most maxSpare bytes):
	// the Streamers of an encoder's agents share one buffer, where each
	// block would grow its own.
	Spare *[]byte
	// W, if set, receives the stream events instead of Event, as the
	// Server-Sent Events messages the API streams, "event: TYPE\ndata:
	// JSON\n\n", each built whole (the constant parts of a message and
	// of its JSON text as one piece) in W's free space where it has room
	// (AvailableBuffer), not built aside and copied there.
	W *bufio.Writer
	// Unbuffered flushes W after each stream event: a W made over a
	// writer that is not buffered, whose output leaves as it is written.
	Unbuffered bool
	// MCPBeta writes MCP tool calls and results in the MCP connector
	// beta's block types, mcp_tool_use and mcp_tool_result. Without it
	// they are tool_use (with server_name) and tool_result, which clients
	// that do not ask for the beta read (they leave an mcp_tool_use's
	// input at {}).
	MCPBeta bool

	// MaxCalls caps the client tool calls of the open message kept
	// until their result, and the MCP calls kept for theirs
	// (openset.DefaultMax if <= 0): beyond it the call kept longest is
	// let go of (its result no longer ends the message, nor is it
	// written as an MCP result) and TooMany is called.
	MaxCalls int
	// TooMany, if set, is called each time a call is let go of.
	TooMany func()

	streamState
}

// streamState is what a Streamer starts without: Reset zeroes it in
// place (not a whole Streamer built aside and copied over it), but for
// the buffers and sets it keeps.
type streamState struct {
	msg   MessageInfo // the open message, if inMsg
	inMsg bool
	idDue bool         // msg.ID is NewID(made)'s, not made yet (see info)
	made  int          // messages begun without an id
	start *event.Usage // usage given at the open message's start
	// unsigned holds the content indexes of its thinking blocks written
	// without a signature, the last MaxUnsigned of them (see
	// UnsignedThinking); forgot counts those let go of.
	unsigned []int
	forgot   int
	messages int  // messages begun
	explicit bool // the source has turn boundaries
	index    int  // next content index
	open     *streamBlock
	held     *streamBlock
	free     *streamBlock         // a text or thinking block written and stopped, for startBlock to reuse
	tools    bool                 // the open message has tool calls
	pending  *openset.Set[string] // its client tool calls without a result
	mcp      *openset.Set[string] // MCP calls, for their results
	err      error
	buf      []byte // the stream event being written, reused
	lent     bool   // the stream event being written is in W's free space, not buf
	stopHeld bool   // a message_stop to write before the next stream event (HoldStop)
	text     []byte // see BlockText
	notText  bool   // see BlockNotText
	jr       jsontext.Reader
}

// MessageInfo identifies the message a block belongs to.
type MessageInfo struct {
	ID    string
	Model string
	Usage *event.Usage // what the source gave at the message's start, or nil
}

type streamBlock struct {
	index     int
	kind      event.BlockKind
	n         int    // JSON size of the text written, for MaxBlockBytes
	esc       []byte // the head of the block and its text written (when a Block is wanted), escaped as Marshal escapes it
	head      int    // the length of the head in esc
	tail      string // and its last bytes not in esc: a UTF-8 sequence the next text may complete
	citations []json.RawMessage
	whole     json.RawMessage // a block written whole (Unknown, server result)
}

// maxKeptBuffer is the largest delta buffer a Streamer keeps for reuse.
const maxKeptBuffer = 1 << 10

// maxSpare is the largest block buffer kept in Spare.
const maxSpare = 64 << 10

// Reset makes s as it was before its first event, its exported fields
// kept: a caller that starts over (a new run) keeps the sets and the
// block that s allocated.
func (s *Streamer) Reset() {
	pending, mcp, free, unsigned := s.pending, s.mcp, s.free, s.unsigned[:0]
	if pending != nil {
		pending.Clear()
	}
	if mcp != nil {
		mcp.Clear()
	}
	s.streamState = streamState{}
	s.pending, s.mcp, s.free, s.unsigned = pending, mcp, free, unsigned
}

// InTurn reports whether a message is open.
func (s *Streamer) InTurn() bool { return s.inMsg }

// Answered records the result of client tool call id and reports whether
// the open message has tool calls and all of them now have their result:
// where the source has no turn boundaries, the model's turn is over.
func (s *Streamer) Answered(id string) bool {
	if s.pending != nil {
		s.pending.Remove(id)
	}
	return s.inMsg && s.tools && s.pending.Len() == 0
}

// Messages returns the number of messages begun.
func (s *Streamer) Messages() int { return s.messages }

// HeldCalls returns the number of tool calls kept for their result (at
// most twice MaxCalls): the state that grows with open calls.
func (s *Streamer) HeldCalls() int { return s.pending.Len() + s.mcp.Len() }

// Explicit reports whether the source marks its turns (TurnStart).
func (s *Streamer) Explicit() bool { return s.explicit }

// MaxUnsigned caps the thinking blocks without a signature a Streamer
// keeps for a late signature (UnsignedThinking): the last MaxUnsigned of
// the open message. A message with more lets go of the oldest (counted
// by ForgotUnsigned), which then get no late signature.
const MaxUnsigned = openset.DefaultMax

// UnsignedThinking returns the content indexes of the open message's
// thinking blocks written without a signature, in order: the last
// MaxUnsigned of them.
func (s *Streamer) UnsignedThinking() []int {
	if !s.inMsg {
		return nil
	}
	return lastN(s.unsigned, MaxUnsigned)
}

// HeldUnsigned returns the number of thinking blocks without a
// signature kept (at most twice MaxUnsigned): the state that grows with
// the thinking blocks of one message.
func (s *Streamer) HeldUnsigned() int { return len(s.unsigned) }

// ForgotUnsigned returns how many of the open message's thinking blocks
// without a signature UnsignedThinking no longer holds.
func (s *Streamer) ForgotUnsigned() int {
	if !s.inMsg {
		return 0
	}
	return s.forgot + max(len(s.unsigned)-MaxUnsigned, 0)
}

// lastN returns the last n elements of list.
func lastN(list []int, n int) []int { return list[max(len(list)-n, 0):] }

// AppendCapped appends v to list, keeping at least its last n elements
// and at most 2n: when list holds 2n, its first n are let go of (their
// number returned), the last n moved to its start. So a list that only
// its end is read of costs O(1) amortised per element and at most 2n.
func AppendCapped(list []int, v, n int) (_ []int, dropped int) {
	if len(list) >= 2*n {
		dropped = len(list) - n
		list = list[:copy(list, list[dropped:])]
	}
	return append(list, v), dropped
}

// LateSignature writes the signature_delta of the open message's
// thinking block at index, whose signature the source gives only after
// the block ended (the envelope's meta_final): clients set a thinking
// block's signature from a signature_delta whenever it comes before the
// message ends.
func (s *Streamer) LateSignature(index int, sig string) error {
	s.release()
	if !s.inMsg || sig == "" {
		return s.err
	}
	s.write(anthropic.EventContentBlockDelta, blockDelta{
		Type: anthropic.EventContentBlockDelta, Index: index,
		Delta: signatureDelta{Type: anthropic.DeltaSignature, Signature: sig},
	})
	return s.err
}

// Start returns the usage the source gave at the open message's start,
// or nil.
func (s *Streamer) Start() *event.Usage {
	if !s.inMsg {
		return nil
	}
	return s.start
}

// HadTools reports whether the open message has tool calls.
func (s *Streamer) HadTools() bool { return s.tools }

// Open reports whether a text or thinking block is open (started and not
// ended).
func (s *Streamer) Open() bool { return s.open != nil }

func (s *Streamer) write(typ string, v any) {
	if !s.writes() {
		return
	}
	data, err := Marshal(v)
	if err != nil {
		s.err = err
		return
	}
	s.WriteEvent(typ, data)
}

// WriteEvent writes a stream event of type typ that the caller made,
// data (an error event), in an SSE message to W if set.
func (s *Streamer) WriteEvent(typ string, data []byte) error {
	if !s.writes() {
		return s.err
	}
	if s.W == nil {
		s.err = s.Event(typ, data)
		return s.err
	}
	b := s.buffer(len(typ) + len(data) + 16)
	b = append(append(append(append(b, "event: "...), typ...), "\ndata: "...), data...)
	s.send(typ, b)
	return s.err
}

func (s *Streamer) block(b any) {
	if s.err != nil || s.Block == nil {
		return
	}
	data, err := Marshal(b)
	if err != nil {
		s.err = err
		return
	}
	s.err = s.Block(s.info(), data)
}

// textBlock writes the completed text or thinking block b, with the
// signature sig of a thinking block.
func (s *Streamer) textBlock(b *streamBlock, sig string) {
	if s.err != nil || s.Block == nil {
		return
	}
	// A block is written once, and may be large: it is written where its
	// text was gathered, which it takes, and which goes to Spare after
	// (not a buffer of the Streamer's, which a Streamer per agent would
	// keep at the size of its largest block).
	data := b.esc
	if b.tail != "" {
		data = jsontext.AppendMarshalEscaped(data, b.tail)
	}
	if b.kind == event.Thinking {
		data = appendThinkingBlockEnd(data, sig)
	} else {
		data = appendTextBlockEnd(data, b.citations)
	}
	b.esc, b.tail = nil, ""
	if b.kind == event.Text && len(b.citations) == 0 && b.head > 0 {
		s.text = data[b.head-1 : len(data)-1] // from the head's closing quote to the block's
	}
	s.notText = b.kind == event.Thinking
	s.err = s.Block(s.info(), data)
	s.text, s.notText = nil, false
	s.keepSpare(data) // Block is done with it
}

// spare returns Spare's buffer, empty, which is the caller's until it
// gives it back with keepSpare; nil without one.
func (s *Streamer) spare() []byte {
	if s.Spare == nil {
		return nil
	}
	b := *s.Spare
	*s.Spare = nil
	return b[:0]
}

// keepSpare keeps b in Spare for the next block, unless it grew large.
func (s *Streamer) keepSpare(b []byte) {
	if s.Spare != nil && cap(b) <= maxSpare {
		*s.Spare = b[:0]
	}
}

// BlockText returns, during a call of Block with a text block that has
// no citations, the block's text as a JSON string (a slice of the block,
// as jsontext.AppendMarshalString writes the text); else nil. A caller
// that keeps the text need not read the block again.
func (s *Streamer) BlockText() []byte { return s.text }

// BlockNotText reports, during a call of Block, whether the block is one
// the Streamer wrote of a type other than text (thinking, tool use): a
// caller looking for text blocks need not read it.
func (s *Streamer) BlockNotText() bool { return s.notText }

// appendText adds text, which escaped is, to the text of b.
func (b *streamBlock) appendText(text string, escaped []byte) {
	if b.tail == "" && incompleteTail(text) == 0 {
		b.esc = append(b.esc, escaped...)
		return
	}
	// A UTF-8 sequence split between texts (no decoder splits one; a
	// library caller might): escaped once whole, as Marshal would.
	t := b.tail + text
	cut := len(t) - incompleteTail(t)
	b.esc = jsontext.AppendMarshalEscaped(b.esc, t[:cut])
	b.tail = t[cut:]
}

// escaped returns the text of b, escaped.
func (b *streamBlock) escaped() []byte {
	esc := b.esc[b.head:]
	if b.tail == "" {
		return esc
	}
	return jsontext.AppendMarshalEscaped(slices.Clip(esc), b.tail)
}

// Marshal returns v as JSON without HTML escaping, as the API writes it.
// It fails where encoding/json does: a json.RawMessage that is not valid
// JSON, a NaN or infinite float.
func Marshal(v any) ([]byte, error) {
	return jsontext.AppendMarshal(nil, v, false)
}

// marshal is Marshal for values made of strings, numbers, and JSON text
// known to be valid, which always marshal.
func marshal(v any) []byte {
	b, _ := Marshal(v)
	return b
}

// Wire shapes for writing; field order is the API's.
type (
	// outUsage is a message's usage; with no count known it is the
	// unknown form, {"input_tokens":null,"output_tokens":null}.
	outUsage struct {
		InputTokens              *int64 `json:"input_tokens"`
		CacheCreationInputTokens *int64 `json:"cache_creation_input_tokens,omitempty"`
		CacheReadInputTokens     *int64 `json:"cache_read_input_tokens,omitempty"`
		OutputTokens             *int64 `json:"output_tokens"`
		ServiceTier              string `json:"service_tier,omitempty"`
	}
	blockStart struct {
		Type         string `json:"type"`
		Index        int    `json:"index"`
		ContentBlock any    `json:"content_block"`
	}
	blockDelta struct {
		Type  string `json:"type"`
		Index int    `json:"index"`
		Delta any    `json:"delta"`
	}
	// outUsageEnd is message_delta's usage: output_tokens null when no
	// count is known, the others absent.
	outUsageEnd struct {
		InputTokens              *int64 `json:"input_tokens,omitempty"`
		CacheCreationInputTokens *int64 `json:"cache_creation_input_tokens,omitempty"`
		CacheReadInputTokens     *int64 `json:"cache_read_input_tokens,omitempty"`
		OutputTokens             *int64 `json:"output_tokens"`
	}
	typeOnly struct {
		Type string `json:"type"`
	}
	textBlock struct {
		Type      string            `json:"type"`
		Text      string            `json:"text"`
		Citations []json.RawMessage `json:"citations,omitempty"`
	}
	thinkingBlock struct {
		Type      string `json:"type"`
		Thinking  string `json:"thinking"`
		Signature string `json:"signature"`
	}
	toolBlock struct {
		Type       string          `json:"type"`
		ID         string          `json:"id"`
		Name       string          `json:"name"`
		Input      json.RawMessage `json:"input"`
		ServerName string          `json:"server_name,omitempty"`
	}
	signatureDelta struct {
		Type      string `json:"type"`
		Signature string `json:"signature"`
	}
	citationDelta struct {
		Type     string          `json:"type"`
		Citation json.RawMessage `json:"citation"`
	}
	resultBlock struct {
		Type      string          `json:"type"`
		ToolUseID string          `json:"tool_use_id"`
		Content   json.RawMessage `json:"content"`
		IsError   *bool           `json:"is_error,omitempty"`
	}
)

// StartTurnUsage opens a message (TurnStart), ending an open one first,
// with the usage the source gives at the message's start (nil if none),
// written in message_start and repeated in a message_delta that has no
// usage of its own.
func (s *Streamer) StartTurnUsage(id, model string, u *event.Usage) error {
	s.explicit = true
	if s.inMsg {
		s.EndTurn("", nil)
	}
	s.begin(id, model, u)
	return s.err
}

func (s *Streamer) begin(id, model string, u *event.Usage) {
	due := id == "" && s.NewID != nil
	if due {
		s.made++
		if s.streams() {
			id, due = s.NewID(s.made), false // message_start names it
		}
	}
	if model == "" {
		model = s.Model
	}
	s.msg, s.inMsg, s.idDue = MessageInfo{ID: id, Model: model, Usage: u}, true, due
	s.messages++
	s.index, s.tools = 0, false
	s.unsigned, s.forgot = s.unsigned[:0], 0
	if s.pending != nil {
		s.pending.Clear()
	}
	s.start = u
	var mu outUsage
	if u != nil {
		mu = outUsage{
			InputTokens: u.Given(event.HasInput), CacheCreationInputTokens: u.Given(event.HasCacheWrite),
			CacheReadInputTokens: u.Given(event.HasCacheRead), OutputTokens: u.Given(event.HasOutput),
			ServiceTier: u.ServiceTier,
		}
	}
	if s.writes() {
		if s.buf == nil {
			// The first message, or the last one's buffer grew large:
			// room for a message_start and the events after it at
			// once, not grown by appends.
			s.buf = make([]byte, 0, 256)
		}
		s.send(anthropic.EventMessageStart, appendMessageStart(s.out(messageStartHead, len(id)+len(model)+256), id, model, &mu))
	}
}

func (s *Streamer) ensureTurn() {
	if !s.inMsg {
		s.begin("", "", nil)
	}
}

// EndTurn closes the open message with its stop reason and usage:
// message_delta then message_stop. Without an open message it does
// nothing.
func (s *Streamer) EndTurn(stopReason string, u *event.Usage) error {
	return s.endTurn(stopReason, u, true)
}

// CutTurn ends the open message as a stream cut after the source ended
// its turn but before its run ended (a cut inside a subagent's turn or a
// later choice): its message_delta carries the stop reason and usage the
// source gave, and no message_stop follows, so that a reader sees the
// body cut. A block still open ends, as EndTurn ends it.
func (s *Streamer) CutTurn(stopReason string, u *event.Usage) error {
	return s.endTurn(stopReason, u, false)
}

// endTurn is EndTurn, or CutTurn without stop (no message_stop).
func (s *Streamer) endTurn(stopReason string, u *event.Usage, stop bool) error {
	s.release()
	if s.open != nil {
		s.endBlock(s.open.kind, "")
		s.release()
	}
	if !s.inMsg {
		return s.err
	}
	if s.streams() {
		s.writeMessageDelta(stopReason, u, stop)
	}
	s.msg, s.inMsg, s.idDue, s.tools = MessageInfo{}, false, false, false
	s.dropBuf()
	return s.err
}

// dropBuf lets s.buf go at the end of a message, unless s writes stream
// events, in a buffer each message needs (one Streamer in emit/anthropic,
// the main agent's in emit/claude --partial): the Streamers of agents
// whose turn is over (emit/claude's subagents, many) keep none.
func (s *Streamer) dropBuf() {
	if s.Event == nil && s.W == nil {
		s.buf = nil
	}
}

// writeMessageDelta writes the message_delta of the open message, and
// its message_stop if stop.
func (s *Streamer) writeMessageDelta(stopReason string, u *event.Usage, stop bool) {
	var reason *string
	if stopReason != "" {
		reason = &stopReason
	}
	var mu outUsageEnd
	if u == nil && s.start != nil {
		// No final count: the one known at the start stands (clients
		// take message_delta's output_tokens as the message's).
		mu.OutputTokens = s.start.Given(event.HasOutput)
	}
	if u != nil {
		mu = outUsageEnd{
			InputTokens: u.Given(event.HasInput), CacheCreationInputTokens: u.Given(event.HasCacheWrite),
			CacheReadInputTokens: u.Given(event.HasCacheRead), OutputTokens: u.Given(event.HasOutput),
		}
	}
	if s.writes() {
		b := appendMessageDelta(s.out(messageDeltaHead, len(stopReason)+320), reason, &mu)
		if stop && s.W != nil {
			// W's message_stop in the same write.
			b, stop = append(append(b, "\n\n"...), messageStopEvent.sse...), false
		}
		s.send(anthropic.EventMessageDelta, b)
	}
	if stop && s.writes() {
		s.send(anthropic.EventMessageStop, s.out(messageStopEvent, 64)) // not a []byte of its own per message
	}
}

// Abandon gives up the open message as its source did (a stream given up
// and begun again, event.NoticeAbandoned): the blocks it completed are
// written, its open block is dropped (no content_block_stop, no
// snapshot), and the message gets no message_delta or message_stop.
// It reports whether a message was open.
func (s *Streamer) Abandon() bool {
	s.release()
	open := s.inMsg
	s.msg, s.inMsg, s.idDue, s.open, s.tools = MessageInfo{}, false, false, nil, false
	s.dropBuf()
	return open
}

// Abort forgets the open message without ending it (after an error event
// took its place).
func (s *Streamer) Abort() {
	s.msg, s.inMsg, s.idDue, s.open, s.held, s.tools = MessageInfo{}, false, false, nil, nil, false
}

// Pending returns the message and the content block, as it stands, of
// the block still open, or false if none is.
func (s *Streamer) Pending() (MessageInfo, []byte, bool) {
	b := s.open
	if b == nil || !s.inMsg {
		return MessageInfo{}, nil, false
	}
	if b.kind == event.Thinking {
		return s.info(), appendThinkingBlock(nil, b.escaped(), ""), true
	}
	return s.info(), appendTextBlock(nil, b.escaped(), nil), true
}

// info returns the open message, its id made if it was due.
func (s *Streamer) info() MessageInfo {
	if s.idDue {
		s.msg.ID, s.idDue = s.NewID(s.made), false
	}
	return s.msg
}

// Flush writes the held content_block_stop, if any. Callers call it
// before writing anything of their own between stream events.
func (s *Streamer) Flush() error {
	s.release()
	return s.err
}

// release writes the text block held back (see Streamer) and its
// content_block_stop, if one is held: a test, inlined where every event
// starts; the writing is releaseHeld's.
func (s *Streamer) release() {
	if s.held != nil {
		s.releaseHeld()
	}
}

// releaseHeld is release of the block held.
func (s *Streamer) releaseHeld() {
	h := s.held
	s.held = nil
	switch {
	case h.whole != nil:
		s.block(h.whole)
	case h.kind == event.Text:
		s.textBlock(h, "")
	}
	s.stop(h.index)
	if h.whole == nil {
		s.free = h
	}
}

func (s *Streamer) startBlock(kind event.BlockKind) {
	s.release()
	if s.open != nil {
		// Another kind is open: the API's blocks are sequential.
		s.endBlock(s.open.kind, "")
		s.release()
	}
	s.ensureTurn()
	b := s.free
	if b != nil {
		s.free = nil
		*b = streamBlock{index: s.index, kind: kind}
	} else {
		b = &streamBlock{index: s.index, kind: kind}
	}
	if s.Block != nil {
		head := textBlockHead
		if kind == event.Thinking {
			head = thinkingBlockHead
		}
		// Spare's buffer is this block's until Block returns it.
		b.esc, b.head = append(s.spare(), head...), len(head)
	}
	s.index++
	s.open = b
	if s.writes() {
		// As Marshal writes blockStart of an empty textBlock or
		// thinkingBlock, without encoding/json: one per block.
		cb := emptyTextBlock
		if kind == event.Thinking {
			cb = emptyThinkingBlock
		}
		s.send(anthropic.EventContentBlockStart, append(append(appendBlockStartHead(s.out(blockStartHead, 192), b.index), cb...), '}'))
	}
}

func (s *Streamer) endBlock(kind event.BlockKind, sig string) {
	b := s.open
	if b == nil || b.kind != kind {
		return
	}
	s.open = nil
	if kind == event.Thinking {
		if sig == "" {
			var dropped int
			s.unsigned, dropped = AppendCapped(s.unsigned, b.index, MaxUnsigned)
			s.forgot += dropped
		}
		if sig != "" {
			s.write(anthropic.EventContentBlockDelta, blockDelta{
				Type: anthropic.EventContentBlockDelta, Index: b.index,
				Delta: signatureDelta{Type: anthropic.DeltaSignature, Signature: sig},
			})
		}
		s.textBlock(b, sig)
		s.stop(b.index)
		s.free = b
		return
	}
	s.held = b
}

// Add writes the stream events of ev. It handles the events that become
// content of an assistant message (blocks, citations, tool calls, the
// results of server and MCP tools, Unknown events of Format "anthropic")
// and turn boundaries; it reports false for any other event, which the
// caller handles (after calling Flush).
func (s *Streamer) Add(ev event.Event) (bool, error) {
	if _, ok := ev.(*event.Citations); !ok {
		if _, ok := ev.(*event.Unknown); !ok {
			s.release()
		}
	}
	switch ev := ev.(type) {
	case *event.TurnStart:
		s.StartTurnUsage(ev.MessageID, ev.Model, ev.Usage)
	case *event.TurnEnd:
		s.EndTurn(ev.StopReason, ev.Usage)
	case *event.BlockStart:
		s.startBlock(ev.Kind)
	case *event.Delta:
		s.addDelta(ev)
	case *event.BlockEnd:
		if s.open == nil || s.open.kind != ev.Kind {
			s.startBlock(ev.Kind)
		}
		s.endBlock(ev.Kind, ev.Signature)
	case *event.Citations:
		if s.held == nil || s.held.whole != nil {
			s.release()
			s.startBlock(event.Text)
			s.endBlock(event.Text, "")
		}
		for _, c := range ev.Items {
			raw := citationJSON(c)
			s.held.citations = append(s.held.citations, raw)
			s.write(anthropic.EventContentBlockDelta, blockDelta{
				Type: anthropic.EventContentBlockDelta, Index: s.held.index,
				Delta: citationDelta{Type: anthropic.DeltaCitations, Citation: raw},
			})
		}
		s.release()
	case *event.ToolCall:
		s.toolCall(ev)
	case *event.ToolResult:
		if !s.AssistantResult(ev) {
			return false, s.err
		}
		s.wholeBlock(s.resultBlock(ev))
	case *event.Unknown:
		if ev.Format != anthropic.Format || !s.unknown(ev) {
			s.release()
			return false, s.err
		}
	default:
		return false, s.err
	}
	return true, s.err
}

// Delta is Add of a delta, for a caller that tells deltas, most of
// the events of a stream, from the others before calling Add: Add's
// tests of the event's type are saved.
func (s *Streamer) Delta(d *event.Delta) error {
	s.release()
	s.addDelta(d)
	return s.err
}

// addDelta writes d in the open block, opening one of its kind first
// if the open one is not.
func (s *Streamer) addDelta(d *event.Delta) {
	if s.open == nil || s.open.kind != d.Kind {
		s.startBlock(d.Kind)
	}
	s.delta(d.Kind, d.Text)
}

// delta writes the content_block_delta of text in the open block, of
// kind: what of it fits under MaxBlockBytes. It is the hot path of every
// encoder built on Streamer: written without reflection or allocation,
// and the text escaped once, for the delta and for the block.
func (s *Streamer) delta(kind event.BlockKind, text string) {
	if text == "" {
		return
	}
	b := s.open
	if s.Block != nil && b.tail == "" && incompleteTail(text) == 0 {
		s.blockDelta(b, kind, text)
		return
	}
	out := s.out(deltaHead, 2*len(text)+128)
	head := len(out)
	out, start, end := appendDelta(out, b.index, kind, text)
	if s.MaxBlockBytes > 0 && !s.fits(b, text, out[start:end]) {
		if text = s.capText(text); text == "" {
			s.unlend(out)
			return
		}
		out, start, end = appendDelta(out[:head], b.index, kind, text)
	}
	if s.Block != nil {
		b.appendText(text, out[start:end])
	}
	s.send(anthropic.EventContentBlockDelta, out)
}

// blockDelta is delta where the block is wanted and text completes its
// characters: text is escaped straight into the block, and the stream
// event, if one is wanted, made from there (without --partial, claude
// wants none, and none is built nor its text copied out).
func (s *Streamer) blockDelta(b *streamBlock, kind event.BlockKind, text string) {
	n := len(b.esc)
	// One growth to the size of the text (plus a little for escapes and
	// the block's end) rather than append's doublings: codex's texts come
	// whole, in one delta.
	b.esc = jsontext.AppendMarshalEscaped(slices.Grow(b.esc, len(text)+16), text)
	if s.MaxBlockBytes > 0 && !s.fits(b, text, b.esc[n:]) {
		b.esc = b.esc[:n]
		if text = s.capText(text); text == "" {
			return
		}
		b.esc = jsontext.AppendMarshalEscaped(b.esc, text)
	}
	if s.writes() {
		s.send(anthropic.EventContentBlockDelta, appendEscapedDelta(s.out(deltaHead, len(b.esc)-n+128), b.index, kind, b.esc[n:]))
	}
}

// fits reports whether text, which escaped is, fits in b under
// MaxBlockBytes, and if so counts it.
func (s *Streamer) fits(b *streamBlock, text string, escaped []byte) bool {
	// The JSON size of text as capText counts it: as escaped, but for \b
	// and \f, which it counts as \u0008.
	size := len(escaped)
	if size > len(text) {
		size += 4 * (strings.Count(text, "\b") + strings.Count(text, "\f"))
	}
	if b.n+size > s.MaxBlockBytes {
		return false
	}
	b.n += size
	return true
}

// writes reports whether stream events are written (to Event or W).
func (s *Streamer) writes() bool { return s.err == nil && s.streams() }

// streams reports whether the Streamer writes stream events (to Event or
// to W), not only the blocks.
func (s *Streamer) streams() bool { return s.Event != nil || s.W != nil }

// buffer returns the buffer, empty, to build a stream event of about n
// bytes in: W's free space when it has room, after the message_stop
// held back (HoldStop), else s.buf.
func (s *Streamer) buffer(n int) []byte {
	if w := s.W; w != nil {
		if s.stopHeld {
			s.WriteStop()
		}
		if w.Available() >= n {
			s.lent = true
			return w.AvailableBuffer()
		}
	}
	return s.buf[:0]
}

// out returns the buffer to build a stream event that begins with h
// in, of about n bytes after its head, h written: as an SSE message's
// head for W.
func (s *Streamer) out(h *eventHead, n int) []byte {
	if w := s.W; w != nil {
		if n += len(h.sse); !s.stopHeld && w.Available() >= n {
			s.lent = true // buffer's way, without its call
			return append(w.AvailableBuffer(), h.sse...)
		}
		return append(s.buffer(n), h.sse...)
	}
	return append(s.buf[:0], h.json...)
}

// send writes the stream event of type typ built in b, which buffer
// gave: to W, its SSE message ended, else to Event.
func (s *Streamer) send(typ string, b []byte) {
	if s.W != nil {
		if s.err == nil {
			_, s.err = s.W.Write(append(b, '\n', '\n'))
			s.unbuffer()
		}
	} else if s.writes() {
		s.err = s.Event(typ, b)
	}
	s.unlend(b)
}

// HoldStop ends the open message as EndTurn does, but for its
// message_stop, which W gets before the next stream event the Streamer
// writes, or at WriteStop; none if neither comes (the input cut).
// Without W it is EndTurn.
func (s *Streamer) HoldStop(stopReason string, u *event.Usage) error {
	if s.W == nil {
		return s.EndTurn(stopReason, u)
	}
	in := s.inMsg
	s.endTurn(stopReason, u, false)
	s.stopHeld = in
	return s.err
}

// WriteStop writes the message_stop held back by HoldStop, if any.
func (s *Streamer) WriteStop() error {
	if s.stopHeld && s.err == nil {
		s.stopHeld = false
		_, s.err = s.W.WriteString(messageStopSSE)
		s.unbuffer()
	}
	return s.err
}

// unbuffer flushes W if Unbuffered.
func (s *Streamer) unbuffer() {
	if s.Unbuffered && s.err == nil {
		s.err = s.W.Flush()
	}
}

// Err returns the error that stopped the Streamer writing, if any.
func (s *Streamer) Err() error { return s.err }

// unlend ends the use of b, which buffer gave: kept as s.buf if it is
// the Streamer's.
func (s *Streamer) unlend(b []byte) {
	if s.lent {
		s.lent = false
		return
	}
	s.buf = b
	s.keepBuf()
}

// keepBuf forgets s.buf if it grew large.
func (s *Streamer) keepBuf() {
	if cap(s.buf) > maxKeptBuffer {
		s.buf = nil // a rare large delta: not kept per agent
	}
}

// stop writes the content_block_stop of the block at index.
func (s *Streamer) stop(index int) {
	if s.writes() {
		s.send(anthropic.EventContentBlockStop, appendBlockStop(s.out(blockStopHead, 64), index))
	}
}

// capText returns what of text fits in the open block under
// MaxBlockBytes, cut at a rune boundary, and calls Cut when some of it
// does not.
func (s *Streamer) capText(text string) string {
	if s.MaxBlockBytes <= 0 {
		return text
	}
	n := s.open.n
	// ASCII, the common case, byte by byte; from the first other byte
	// (or the cut), rune by rune.
	ascii := 0
	for ; ascii < len(text) && text[ascii] < utf8.RuneSelf; ascii++ {
		size := jsonSize(rune(text[ascii]), "")
		if n+size > s.MaxBlockBytes {
			break
		}
		n += size
	}
	for i, r := range text[ascii:] {
		i += ascii
		size := jsonSize(r, text[i:])
		if n+size > s.MaxBlockBytes {
			text = text[:i]
			if s.Cut != nil {
				s.Cut()
			}
			break
		}
		n += size
	}
	s.open.n = n
	return text
}

// jsonSize returns how many bytes rune r, which starts rest, takes in a
// JSON string as Marshal writes it (or more: \b and \f count as \u0008).
func jsonSize(r rune, rest string) int {
	switch {
	case r == '"' || r == '\\' || r == '\n' || r == '\r' || r == '\t':
		return 2
	case r < 0x20, r == '\u2028', r == '\u2029':
		return 6
	case r == utf8.RuneError:
		if _, size := utf8.DecodeRuneInString(rest); size == 1 {
			return 6 // an invalid byte, written as \ufffd
		}
	}
	return utf8.RuneLen(r)
}

// AssistantResult reports whether a tool result is part of the assistant's
// message (a server tool's or an MCP tool's) rather than the client's.
func (s *Streamer) AssistantResult(ev *event.ToolResult) bool {
	return ev.Server || s.mcp.Has(ev.ID)
}

func (s *Streamer) toolCall(ev *event.ToolCall) {
	s.ensureTurn()
	s.tools = true
	typ := anthropic.BlockToolUse
	if !ev.Server && ev.MCPServer == "" {
		if s.pending == nil {
			s.pending = openset.New[string](s.MaxCalls)
		}
		if _, out := s.pending.Add(ev.ID); out && s.TooMany != nil {
			s.TooMany()
		}
	}
	switch {
	case ev.Server:
		typ = anthropic.BlockServerToolUse
	case ev.MCPServer != "":
		if s.MCPBeta {
			typ = anthropic.BlockMCPToolUse
		}
		if s.mcp == nil {
			s.mcp = openset.New[string](s.MaxCalls)
		}
		if _, out := s.mcp.Add(ev.ID); out && s.TooMany != nil {
			s.TooMany()
		}
	}
	// input as it came, which is streamed; compact, as the block has it.
	input, compact := ev.Input, ev.Input
	switch {
	case len(input) == 0:
		input = json.RawMessage("{}")
		compact = input
	case ev.Checked.Compact(input):
		// The decoder vouches for it: valid and compact.
	default:
		var ok bool
		compact, ok = jsontext.Compacted(&s.jr, input)
		s.jr.Reset(nil)
		if !ok {
			// A library caller's input that is no JSON: written as a
			// JSON string, as the decoders keep what a producer sent.
			input = event.JSONText(string(input))
			compact = input
		}
	}
	idx := s.index
	s.index++
	if ev.Truncated && s.streams() {
		// A call the input ended inside of: its block starts, what
		// arrived of its input streams, and it never stops.
		if s.err == nil {
			s.toolStart(idx, typ, ev)
			if partial := ev.PartialInput(); partial != "" {
				s.inputDelta(idx, partial)
			}
		}
		return
	}
	if s.writes() {
		s.toolStart(idx, typ, ev)
		in := string(input)
		cuts := ev.InputDeltas
		if !inputCuts(in, ev) {
			cuts = []int{len(in)}
		}
		for _, n := range cuts {
			s.inputDelta(idx, in[:n])
			in = in[n:]
		}
	}
	if s.err == nil && s.Block != nil {
		// In Spare's buffer, kept across messages, where s.buf is not.
		b := appendToolBlock(s.spare(), typ, ev.ID, ev.Name, compact, ev.MCPServer)
		s.notText = true
		s.err = s.Block(s.info(), b)
		s.notText = false
		s.keepSpare(b)
	}
	s.stop(idx)
}

// toolStart writes the content_block_start of the tool call ev's block,
// of type typ at index idx, with its input empty.
func (s *Streamer) toolStart(idx int, typ string, ev *event.ToolCall) {
	b := s.out(blockStartHead, len(ev.ID)+len(ev.Name)+len(ev.MCPServer)+192)
	b = appendToolBlock(appendBlockStartHead(b, idx), typ, ev.ID, ev.Name, []byte("{}"), ev.MCPServer)
	s.send(anthropic.EventContentBlockStart, append(b, '}'))
}

// inputDelta writes the input_json_delta of frag, in the block at idx.
func (s *Streamer) inputDelta(idx int, frag string) {
	s.send(anthropic.EventContentBlockDelta, appendInputDelta(s.out(deltaHead, 2*len(frag)+128), idx, frag))
}

// inputCuts reports whether ev.InputDeltas, the lengths of the pieces
// its source streamed the input in, cut in, the input written, at
// character boundaries into pieces that make all of it: its deltas are
// then those pieces, else the whole input in one.
func inputCuts(in string, ev *event.ToolCall) bool {
	if len(ev.InputDeltas) < 2 || in != string(ev.Input) {
		return false
	}
	for _, n := range ev.InputDeltas {
		if n < 0 || n > len(in) || n < len(in) && !utf8.RuneStart(in[n]) {
			return false
		}
		in = in[n:]
	}
	return in == ""
}

// wholeBlock writes a block that has no deltas: its content_block_start
// carries all of it. Its stop is held, for deltas of unknown types.
func (s *Streamer) wholeBlock(raw json.RawMessage) {
	s.ensureTurn()
	b := &streamBlock{index: s.index, whole: raw}
	s.index++
	s.write(anthropic.EventContentBlockStart, blockStart{Type: anthropic.EventContentBlockStart, Index: b.index, ContentBlock: raw})
	s.held = b
}

// unknown writes an Unknown item of this package's format back: a stream
// event (a type starting message_ or content_block_; a content_block_delta
// goes to the block started last) or a content block.
func (s *Streamer) unknown(ev *event.Unknown) bool {
	var t typeOnly
	if json.Unmarshal(ev.Raw, &t) != nil {
		return false // not an object with a string type: it would not read back
	}
	typ := t.Type
	if typ == "" {
		typ = ev.Type
	}
	switch {
	case typ == "":
		return false
	case typ == anthropic.EventContentBlockDelta:
		if !s.inMsg || s.index == 0 {
			return false // no block to attach it to
		}
		idx := s.index - 1 // the block started last, whose delta it was
		var d struct {
			Delta typeOnly `json:"delta"`
		}
		json.Unmarshal(ev.Raw, &d)
		whole := s.held != nil && s.held.whole != nil && s.held.index == idx
		if !whole && (d.Delta.Type == "" || isKnownDelta(d.Delta.Type)) {
			// A known delta the reader kept because its block was
			// not of its kind: it fits no block written here.
			return false
		}
		var m map[string]json.RawMessage
		if json.Unmarshal(ev.Raw, &m) != nil {
			return false
		}
		m["index"] = json.RawMessage(fmt.Sprint(idx))
		s.ensureTurn()
		s.write(typ, m)
	case strings.HasPrefix(typ, "message_") || strings.HasPrefix(typ, "content_block_"):
		s.release()
		s.ensureTurn()
		s.WriteEvent(typ, jsontext.Compact(ev.Raw))
	default:
		if anthropic.UnmarshalBlock(ev.Raw, new(anthropic.Block)) != nil {
			// A block of a known type the reader could not take:
			// written back, it would be as unreadable.
			return false
		}
		s.release()
		s.wholeBlock(jsontext.Compact(ev.Raw))
	}
	return true
}

func isKnownDelta(typ string) bool {
	switch typ {
	case anthropic.DeltaText, anthropic.DeltaInputJSON, anthropic.DeltaThinking, anthropic.DeltaSignature, anthropic.DeltaCitations:
		return true
	}
	return false
}

// resultBlock is assistantResultBlock in the MCP block types MCPBeta chooses.
func (s *Streamer) resultBlock(ev *event.ToolResult) json.RawMessage {
	mcp := s.mcp.Has(ev.ID)
	if mcp {
		s.mcp.Remove(ev.ID) // its result is written: the call is over
	}
	b := assistantResultBlock(ev, mcp)
	if mcp && !ev.Server && !s.MCPBeta {
		var r resultBlock
		json.Unmarshal(b, &r)
		r.Type = anthropic.BlockToolResult
		b = marshal(r)
	}
	return b
}

// assistantResultBlock returns the content block of a server or MCP tool result.
// A server result's content is the JSON text of its first part (as the
// decoders store it), or a string when that is not JSON; its type is the
// result's Name when it is a server result type, else Name with
// "_tool_result" appended.
func assistantResultBlock(ev *event.ToolResult, mcp bool) json.RawMessage {
	if mcp && !ev.Server {
		var parts []any
		for _, p := range ev.Content {
			if p.Type == "text" {
				parts = append(parts, textBlock{Type: anthropic.BlockText, Text: p.Text})
			}
		}
		if parts == nil {
			parts = []any{}
		}
		isErr := ev.IsError
		return marshal(resultBlock{Type: anthropic.BlockMCPToolResult, ToolUseID: ev.ID, Content: marshal(parts), IsError: &isErr})
	}
	typ := ev.Name
	if !anthropic.IsServerToolResult(typ) {
		typ = strings.TrimSuffix(typ, "_tool_result") + "_tool_result"
		if typ == "_tool_result" {
			typ = "server_tool_result"
		}
	}
	var text strings.Builder
	for i, p := range ev.Content {
		if i > 0 {
			text.WriteString("\n")
		}
		text.WriteString(p.Text)
	}
	content := json.RawMessage(text.String())
	if !json.Valid(content) {
		content = marshal(text.String())
	}
	return marshal(resultBlock{Type: typ, ToolUseID: ev.ID, Content: jsontext.Compact(content)})
}

// citationJSON returns a citation as the API writes it: Raw when the
// source kept it, else the canonical fields.
func citationJSON(c event.Citation) json.RawMessage {
	if len(c.Raw) > 0 && json.Valid(c.Raw) {
		return jsontext.Compact(c.Raw)
	}
	return marshal(anthropic.Citation{
		Type: c.Type, CitedText: c.CitedText, DocumentIndex: c.DocumentIndex,
		DocumentTitle: c.DocumentTitle, StartCharIndex: c.StartCharIndex, EndCharIndex: c.EndCharIndex,
		StartPageNumber: c.StartPageNumber, EndPageNumber: c.EndPageNumber, URL: c.URL, Title: c.Title,
	})
}
