package anthropic

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/agentstream/agentstream/emit/internal/lost"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/agentmeta"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/messages"
	"github.com/agentstream/agentstream/internal/openset"
	"github.com/agentstream/agentstream/internal/wire/anthropic"
)

// Config configures an Encoder. The zero value is ready to use.
type Config struct {
	// Agent is the scope of events whose agent is empty.
	Agent string
	// Warn receives what the API body cannot carry. Nil discards it.
	Warn func(error)
	// MCPBeta writes MCP tool calls and results as the MCP connector
	// beta's mcp_tool_use and mcp_tool_result blocks; by default they are
	// tool_use (with server_name) and tool_result, which clients read
	// without the beta.
	MCPBeta bool
	// LateSignatures writes the thinking signatures a run summary gives
	// (the envelope's meta_final) as signature_delta events of the last
	// message's thinking blocks, after their content_block_stop. The
	// official SDKs take them; the API never sends a delta after its
	// block's stop (validate rule MSG001), so it is off by default.
	LateSignatures bool
	// MaxOpen caps the tool calls of a message kept until their result
	// (openset.DefaultMax, 1024, if <= 0): beyond it the one kept
	// longest is let go of, reported once.
	MaxOpen int
}

// Encoder writes canonical events as Messages API SSE bodies, one
// message_start ... message_stop body per model turn of the main agent
// (the first agent seen), concatenated.
type Encoder struct {
	w      *bufio.Writer // the writer given, or one over it (Streamer.Unbuffered)
	cfg    Config
	err    error
	losses event.Losses // what was warned about
	told   uint8        // the losses of each event of a kind reported (see warnOnce)
	// unknownLoss is the loss of an Unknown event of Format unknown.
	unknown, unknownLoss string
	st                   messages.Streamer
	main                 string
	seen                 bool

	// held is a turn's end not written yet: the next event decides how
	// it ends (see releaseEnd).
	held *event.TurnEnd
	// heldErr is a non-fatal API error not written yet: its error event
	// ends the response, which a cut that follows it must leave open
	// (see Cut). The next event of the main agent writes it.
	heldErr *event.Error
	// start is the usage the open message started with; sum what the
	// messages written so far carried, for the run's remainder.
	start *event.Usage
	sum   event.Usage
	// stopped: a fatal error ended the last response; what is left of
	// the block it cut (its end, its citations) is not a new message.
	stopped bool
	// failed: an error event for the run's failure has been written.
	failed bool
	// thinking counts the main agent's thinking blocks; unsigned holds
	// the ordinals of those written without a signature, for the
	// signatures a run summary gives (lateSignatures): the last
	// messages.MaxUnsigned of them at least, all that lateSignatures
	// reads (those of the open message that the Streamer holds).
	thinking int
	unsigned []int
}

// NewEncoder returns an encoder writing to w. cfg may be nil.
func NewEncoder(w io.Writer, cfg *Config) *Encoder {
	e := &Encoder{}
	// The Streamer builds SSE messages whole, in the bufio.Writer's free
	// space when it has room: written without a copy.
	e.w, _ = w.(*bufio.Writer)
	if e.w == nil {
		e.w, e.st.Unbuffered = bufio.NewWriter(w), true
	}
	if cfg != nil {
		e.cfg = *cfg
	}
	e.st.W = e.w
	e.st.MCPBeta = e.cfg.MCPBeta
	e.st.MaxCalls = e.cfg.MaxOpen
	if e.st.MaxCalls <= 0 {
		e.st.MaxCalls = openset.DefaultMax
	}
	e.st.TooMany = func() {
		e.warn(fmt.Sprintf("more than %d tool calls open at once (the oldest let go of: its result no longer ends its message)", e.st.MaxCalls))
	}
	// No NewID: a message whose source names no id gets "", the unknown
	// form, never a made-up one.
	return e
}

// The losses reported of each event of a kind, once each (warnOnce).
const (
	toldSubagents uint8 = 1 << iota
	toldNonFatal
	toldSession
	toldClientResults
	toldNotices
	toldRunSummaries
)

// warnOnce is warn of a loss reported of each event of a kind, told by
// its bit in e.told: without losses' map, which the losses of a run's
// events taken in turn (its session metadata, its summary) would look up
// every time.
func (e *Encoder) warnOnce(bit uint8, what string) {
	if e.told&bit == 0 {
		e.told |= bit
		e.warn(what)
	}
}

func (e *Encoder) warn(what string) {
	e.losses.Report(e.cfg.Warn, "anthropic", what)
}

// fail returns the encoder's error: the first write error the Streamer
// met, which every call from then on returns, or the truncation Close
// found.
func (e *Encoder) fail() error {
	if e.err == nil {
		e.err = e.st.Err()
	}
	return e.err
}

// done ends a call of Cut or Close, which returned err.
func (e *Encoder) done(err error) error {
	if ferr := e.fail(); err == nil {
		err = ferr
	}
	return err
}

// Encode writes the stream events of ev.
func (e *Encoder) Encode(ev event.Event) error {
	if err := e.fail(); err != nil {
		return err
	}
	agent := ev.AgentID()
	if agent == "" {
		agent = e.cfg.Agent
	}
	if !e.seen {
		e.seen, e.main = true, agent
	}
	if x, ok := ev.(*event.Error); ok && x.Agent == "" {
		// An error no agent claims (the envelope producer's fatal line)
		// interrupted the run the body is written for.
		agent = e.main
	}
	if agent != e.main {
		e.warnOnce(toldSubagents, "subagents (only the main agent's turns are written)")
		return nil
	}
	if e.heldErr != nil {
		e.errorEvent(e.heldErr)
		e.heldErr = nil
	}
	if d, ok := ev.(*event.Delta); ok && e.held == nil {
		// The most frequent event, which none of what follows concerns.
		return e.st.Delta(d)
	}
	if x, ok := ev.(*event.RunEnd); ok {
		e.lateSignatures(x)
	}
	if lost.ReasoningTokens(ev) {
		e.warn("reasoning token counts")
	}
	if e.held != nil {
		e.releaseEnd(ev)
	}
	if err := e.fail(); err != nil {
		return err
	}
	switch x := ev.(type) {
	case *event.TurnStart:
		e.stopped, e.start = false, x.Usage
	case *event.TurnEnd:
		if x.Error == "" {
			e.held = x
			return nil
		}
		if e.stopped && !e.st.InTurn() {
			return nil // the error event that ended the turn told it
		}
		// A failed turn ends as the API ends a response cut short: with
		// an error event instead of message_stop.
		if err := e.st.Flush(); err != nil {
			return err
		}
		// Typed as the other formats type a failed turn (verify's
		// turn_failed), which the message keeps and a reader gives back.
		e.errorEvent(&event.Error{Agent: x.Agent, Message: x.Error, Type: "turn_failed", Fatal: true})
		return e.fail()
	case *event.ToolResult:
		if !e.st.AssistantResult(x) && e.st.Answered(x.ID) && !e.st.Explicit() {
			// No turn boundaries in the source: the model's turn is
			// over once all its tool calls have their results. The
			// source names no stop reason: null, never a made-up
			// tool_use.
			e.endTurn("", nil)
		}
	case *event.Notice:
		if x.Kind == event.NoticeAbandoned && e.st.Abandon() {
			// A response the source gave up: it ends where it stopped,
			// with no block stop, message_delta or message_stop, as the
			// body the source read did, and the next begins.
			e.start = nil
			return e.fail()
		}
	case *event.BlockEnd, *event.Citations:
		if e.stopped && !e.st.InTurn() {
			return nil // the rest of the block a fatal error cut short
		}
		if b, ok := x.(*event.BlockEnd); ok && b.Kind == event.Thinking {
			if b.Signature == "" {
				e.unsigned, _ = messages.AppendCapped(e.unsigned, e.thinking, messages.MaxUnsigned)
			}
			e.thinking++
		}
	case *event.Error:
		if !x.Fatal && !isAPIError(x) {
			// An error event ends the response and clients raise at
			// once: what follows a non-fatal error (a Codex error item)
			// would be lost.
			e.warnOnce(toldNonFatal, "non-fatal errors (an error event ends the response)")
			return nil
		}
		// Written where it arrived: a block it cut short gets no
		// content_block_stop, its message no message_stop, as the API
		// ends a response that fails mid-stream. A non-fatal one waits
		// for the next event: the source's run went on after it.
		if !x.Fatal {
			e.heldErr = x
			return e.fail()
		}
		e.errorEvent(x)
		return e.fail()
	}
	handled, err := e.st.Add(ev)
	if err != nil || handled {
		return err
	}
	if err := e.st.Flush(); err != nil {
		return err
	}
	switch ev := ev.(type) {
	case *event.SessionStart:
		if ev.Model != "" {
			e.st.Model = ev.Model
		}
		e.warnOnce(toldSession, "session metadata")
	case *event.RunEnd:
		e.runEnd(ev)
	case *event.ToolResult:
		e.warnOnce(toldClientResults, "client tool results (the client sends them in the next request)")
	case *event.Notice:
		e.warnOnce(toldNotices, "notices")
	case *event.Unknown:
		if ev.Format != e.unknown || e.unknownLoss == "" {
			// Made once per format in a row, not per event.
			e.unknown, e.unknownLoss = ev.Format, "unknown "+ev.Format+" events"
		}
		e.warn(e.unknownLoss)
	default:
		e.warn(lost.Kind(ev))
	}
	return e.fail()
}

// lateSignatures writes the signatures of the open message's thinking
// blocks that had none when they ended, from a run summary that lists
// them: the anthropic_agent meta_final's conversation_history holds the
// main agent's assistant messages with their thinking blocks, signed.
// The n-th thinking block of the run is the n-th of the history.
func (e *Encoder) lateSignatures(r *event.RunEnd) {
	open := e.st.UnsignedThinking()
	if len(open) == 0 || r.MetaKind != agentmeta.Kind || len(e.unsigned) < len(open) {
		return
	}
	var final struct {
		History []struct {
			Role    string `json:"role"`
			Content []struct {
				Type      string `json:"type"`
				Signature string `json:"signature"`
			} `json:"content"`
		} `json:"conversation_history"`
	}
	if json.Unmarshal(r.Meta, &final) != nil {
		return
	}
	var sigs []string
	for _, m := range final.History {
		if m.Role != "assistant" {
			continue
		}
		for _, b := range m.Content {
			if b.Type == anthropic.BlockThinking {
				sigs = append(sigs, b.Signature)
			}
		}
	}
	ords := e.unsigned[len(e.unsigned)-len(open):]
	if e.st.ForgotUnsigned() > 0 && e.cfg.LateSignatures {
		e.warn(fmt.Sprintf("late thinking signatures of more than %d thinking blocks of one message (the oldest get none)", messages.MaxUnsigned))
	}
	for i, idx := range open {
		ord := ords[i]
		if ord >= len(sigs) || sigs[ord] == "" {
			continue
		}
		if !e.cfg.LateSignatures {
			e.warn("thinking signatures given only in the run summary after their block (LateSignatures writes them late)")
			return
		}
		e.st.LateSignature(idx, sigs[ord])
	}
}

// releaseEnd writes the held turn end, as next, the event after it (nil
// at Close), allows: a fatal error that follows an end with no stop
// reason (the decoder closing the message the error cut short) takes
// the end's place, as in the API's stream; a run end gives its
// cumulative usage to a last turn that has none of its own (see
// runUsage) and its stop reason to a turn that has none; a turn with
// no stop reason stops with null.
func (e *Encoder) releaseEnd(next event.Event) {
	held := e.held
	e.held = nil
	u, stop := held.Usage, held.StopReason
	switch n := next.(type) {
	case *event.Error:
		if n.Fatal && stop == "" {
			return
		}
	case *event.RunEnd:
		if u == nil {
			u = e.runUsage(n.Usage)
		}
		if stop == "" && !n.IsError {
			stop = n.StopReason // Claude's stop reason is on its result line
		}
	}
	// A turn the source ends without a stop reason (Claude's assistant
	// lines, Codex's turn.completed) stops with null: never a made-up
	// tool_use or end_turn.
	e.endTurn(stop, u)
}

// endTurn ends the open message and counts its usage: u, or the usage
// it started with.
func (e *Encoder) endTurn(stop string, u *event.Usage) {
	if !e.st.InTurn() {
		return
	}
	written := u
	if written == nil {
		written = e.start
	}
	if written != nil {
		e.addSum(written)
	}
	e.start = nil
	if e.st.HadTools() {
		// Its tools' results the run waits for (a subagent's whole turn,
		// for a Task call): its message_stop is written before the next
		// stream event or at Close, never at Cut: a cut while the tools
		// ran leaves the message unfinished.
		e.st.HoldStop(stop, u)
		return
	}
	e.st.EndTurn(stop, u)
}

// addSum counts u as written on a message.
func (e *Encoder) addSum(u *event.Usage) {
	e.sum.InputTokens += u.InputTokens
	e.sum.OutputTokens += u.OutputTokens
	e.sum.CacheReadTokens += u.CacheReadTokens
	e.sum.CacheWriteTokens += u.CacheWriteTokens
}

// runUsage returns what of a run's cumulative usage the messages written
// so far did not carry, for the last message: the source gives no
// per-turn count for it (an envelope's meta_final, Claude's result line),
// so the usage summed over the messages is the run's. Nil when the run
// has none.
func (e *Encoder) runUsage(cum *event.Usage) *event.Usage {
	if cum == nil {
		return nil
	}
	rest := func(total, used int64) int64 { return max(total-used, 0) }
	return &event.Usage{
		InputTokens:      rest(cum.InputTokens, e.sum.InputTokens),
		OutputTokens:     rest(cum.OutputTokens, e.sum.OutputTokens),
		CacheReadTokens:  rest(cum.CacheReadTokens, e.sum.CacheReadTokens),
		CacheWriteTokens: rest(cum.CacheWriteTokens, e.sum.CacheWriteTokens),
		Has:              cum.Has &^ event.HasReasoning, // the counts the run gives, but reasoning
	}
}

// runEnd ends the open message with the run's stop reason and usage, or,
// for a failed run whose failure no error event told yet, with an error
// event (clients see a failed response, not a finished one).
func (e *Encoder) runEnd(ev *event.RunEnd) {
	e.warnOnce(toldRunSummaries, "run summaries")
	if ev.IsError {
		if !e.failed {
			msg := strings.Join(ev.Errors, "; ")
			if msg == "" {
				msg = ev.Result
			}
			if msg == "" {
				msg = "run failed"
			}
			e.errorEvent(&event.Error{Agent: ev.Agent, Message: msg, Type: ev.StopReason, Fatal: true})
		}
		return
	}
	if !e.st.InTurn() {
		if ev.Usage != nil {
			e.warn("a run's usage that comes after its last message ended")
		}
		return
	}
	e.endTurn(ev.StopReason, e.runUsage(ev.Usage)) // "" stays null
}

// isAPIError reports whether an error not marked fatal is an API
// error event the source kept (the envelope and XML streams carry the
// API's error object, which ended the response it interrupted): its type,
// or its Raw object's, is one of the API's.
func isAPIError(ev *event.Error) bool {
	return messages.IsAPIErrorType(ev.Type) || rawAPIError(ev.Raw)
}

// rawAPIError reports whether raw is an API error object of one of the
// API's types.
func rawAPIError(raw []byte) bool {
	if !mayHoldAPIErrorType(raw) {
		return false
	}
	var a anthropic.APIError // allocated (it escapes) only past the check
	return json.Unmarshal(raw, &a) == nil && messages.IsAPIErrorType(a.Type)
}

// mayHoldAPIErrorType reports whether raw may be an object whose type is
// one of the API's error types: false when none of its strings is one,
// so that the errors of other formats are not decoded to be told apart.
// Only a string with an escape is decoded; a text that is not JSON may
// (json.Unmarshal then refuses it).
func mayHoldAPIErrorType(raw []byte) bool {
	for {
		i := bytes.IndexByte(raw, '"')
		if i < 0 {
			return false
		}
		end := jsontext.StringEnd(raw, i)
		if end < 0 {
			return true
		}
		s := raw[i+1 : end-1]
		if len(s) < len("api_error") {
			// Shorter than the shortest type: so is its text, which an
			// escape only makes shorter than s.
			raw = raw[end:]
			continue
		}
		if bytes.IndexByte(s, '\\') >= 0 {
			var r jsontext.Reader // allocated (it escapes) only for a string with an escape
			r.Reset(raw[i:end])
			if s = r.Str(); r.Failed() {
				return true
			}
		}
		if messages.IsAPIErrorType(string(s)) {
			return true
		}
		raw = raw[end:]
	}
}

// errorEvent writes an error event, which ends the response it
// interrupts (or stands alone as a failed response). Its error object is
// Raw when that is an API error object of one of the API's types, else
// one built by messages.ToAPIError.
func (e *Encoder) errorEvent(ev *event.Error) {
	var obj []byte
	if rawAPIError(ev.Raw) {
		obj = jsontext.CompactValid(ev.Raw) // rawAPIError unmarshalled it: valid JSON
	} else {
		obj, _ = messages.Marshal(messages.ToAPIError(ev.Type, ev.Message)) // strings always marshal
	}
	// obj is compact JSON: as Marshal writes {"type":"error","error":obj}.
	data := jsontext.AppendMarshalString([]byte(`{"type":`), anthropic.EventError)
	data = append(append(append(data, `,"error":`...), obj...), '}')
	if e.st.InTurn() && e.start != nil {
		// The message it ends said its usage at its start: readers
		// count it, so the run's usage left for the last message does
		// not.
		e.addSum(e.start)
	}
	e.st.Abort()
	e.start = nil
	e.stopped, e.failed = true, true
	e.st.WriteEvent(anthropic.EventError, data)
}

// Cut ends a stream whose input was cut off (event.Cutter): the message
// being written gets no message_stop, and what arrived of its open block
// is written. A turn the source ended in a run it did not end (cut
// inside a subagent's turn, or a later choice) gets its message_delta,
// with the stop reason and usage the source gave, but no message_stop.
// A non-fatal error that came last is not written into an open message:
// its error event would end the response as finished (reported).
func (e *Encoder) Cut() error { return e.done(e.cut()) }

func (e *Encoder) cut() error {
	if err := e.fail(); err != nil {
		return err
	}
	if e.held != nil {
		held := e.held
		e.held = nil
		e.start = nil
		e.st.CutTurn(held.StopReason, held.Usage)
	}
	if e.heldErr != nil {
		if e.st.InTurn() {
			e.warn("a non-fatal error that came last before the input was cut (its error event would end the response the cut left open)")
		} else {
			e.errorEvent(e.heldErr)
		}
		e.heldErr = nil
	}
	e.st.Flush()
	if err := e.fail(); err != nil {
		return err
	}
	return fmt.Errorf("anthropic: %w: the input was cut off, no message_stop written", event.ErrTruncated)
}

// MarksAbandoned: an abandoned message is left without its stop, as the source body had it (convert.AbandonMarker).
func (*Encoder) MarksAbandoned() bool { return true }

// Close ends the open message. When a block is still open (the input was
// cut off), it writes no message_stop, like the stream it copies, and
// reports the truncation.
func (e *Encoder) Close() error { return e.done(e.close()) }

func (e *Encoder) close() error {
	if err := e.fail(); err != nil {
		return err
	}
	if e.heldErr != nil {
		e.errorEvent(e.heldErr)
		e.heldErr = nil
	}
	if e.held != nil {
		e.releaseEnd(nil)
	}
	if e.st.Open() {
		e.st.Flush()
		if e.fail() == nil {
			e.err = fmt.Errorf("anthropic: %w: a block was left open, no message_stop written", event.ErrTruncated)
		}
		return e.fail()
	}
	e.endTurn("", nil) // the source named no stop reason: null
	e.st.WriteStop()   // at the end of the input
	return e.fail()
}
