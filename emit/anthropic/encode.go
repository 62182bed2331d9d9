package anthropic

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/messages"
)

// Config configures an Encoder. The zero value is ready to use.
type Config struct {
	// Agent is the scope of events whose agent is empty.
	Agent string
	// Warn receives what the API body cannot carry. Nil discards it.
	Warn func(error)
}

// Encoder writes canonical events as Messages API SSE bodies, one
// message_start ... message_stop body per model turn of the main agent
// (the first agent seen), concatenated.
type Encoder struct {
	w      io.Writer
	cfg    Config
	err    error
	losses event.Losses // what was warned about
	st     messages.Streamer
	main   string
	seen   bool
	buf    []byte
	n      int // messages without an id, for derived ids
}

// NewEncoder returns an encoder writing to w. cfg may be nil.
func NewEncoder(w io.Writer, cfg *Config) *Encoder {
	e := &Encoder{w: w}
	if cfg != nil {
		e.cfg = *cfg
	}
	e.st.Event = e.event
	e.st.NewID = func() string { e.n++; return fmt.Sprintf("msg_agentstream_%04d", e.n) }
	return e
}

func (e *Encoder) warn(what string) {
	e.losses.Report(e.cfg.Warn, "anthropic", what)
}

// event writes one SSE message.
func (e *Encoder) event(typ string, data []byte) error {
	if e.err != nil {
		return e.err
	}
	e.buf = append(e.buf[:0], "event: "...)
	e.buf = append(e.buf, typ...)
	e.buf = append(e.buf, "\ndata: "...)
	e.buf = append(e.buf, data...)
	e.buf = append(e.buf, "\n\n"...)
	_, e.err = e.w.Write(e.buf)
	return e.err
}

// Encode writes the stream events of ev.
func (e *Encoder) Encode(ev event.Event) error {
	if e.err != nil {
		return e.err
	}
	agent := ev.AgentID()
	if agent == "" {
		agent = e.cfg.Agent
	}
	if !e.seen {
		e.seen, e.main = true, agent
	}
	if agent != e.main {
		e.warn("subagents (only the main agent's turns are written)")
		return nil
	}
	if t, ok := ev.(*event.ToolResult); ok && !e.st.AssistantResult(t) && e.st.Answered(t.ID) && !e.st.Explicit() {
		// No turn boundaries in the source: the model's turn is over
		// once all its tool calls have their results.
		e.st.EndTurn("tool_use", nil)
	}
	if te, ok := ev.(*event.TurnEnd); ok && te.Error != "" {
		// A failed turn ends as the API ends a response cut short: with
		// an error event instead of message_stop.
		if err := e.st.Flush(); err != nil {
			return err
		}
		e.errorEvent(&event.Error{Agent: te.Agent, Message: te.Error, Type: TurnFailedErrorType, Fatal: true})
		return e.err
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
		e.warn("session metadata")
	case *event.Error:
		e.errorEvent(ev)
	case *event.RunEnd:
		stop := ev.StopReason
		if stop == "" {
			stop = "end_turn"
		}
		e.st.EndTurn(stop, nil)
		e.warn("run summaries")
	case *event.ToolResult:
		e.warn("client tool results (the client sends them in the next request)")
	case *event.Notice:
		e.warn("notices")
	case *event.Unknown:
		e.warn("unknown " + ev.Format + " events")
	case *event.AwaitingTools:
		e.warn("awaiting tools")
	case *event.Files:
		e.warn("generated files")
	case *event.FileChange:
		e.warn("file changes")
	case *event.TodoList:
		e.warn("todo lists")
	default:
		e.warn(fmt.Sprintf("events of type %T", ev))
	}
	return e.err
}

// TurnFailedErrorType is the error type of the error event written for a
// failed turn (event.TurnEnd.Error).
const TurnFailedErrorType = "turn_failed"

// errorEvent writes an error event, which ends the response it interrupts.
func (e *Encoder) errorEvent(ev *event.Error) {
	// Raw, when it is an error object, goes back verbatim.
	obj := json.RawMessage(compact(ev.Raw))
	var a messages.APIError
	if json.Unmarshal(obj, &a) != nil || a.Type == "" {
		a = messages.APIError{Type: ev.Type, Message: ev.Message}
		if a.Type == "" {
			a.Type = "api_error"
		}
		obj, _ = messages.Marshal(a) // strings always marshal
	}
	data, err := messages.Marshal(struct {
		Type  string          `json:"type"`
		Error json.RawMessage `json:"error"`
	}{messages.EventError, obj})
	if err != nil {
		e.err = fmt.Errorf("anthropic: %w", err)
		return
	}
	e.st.Abort()
	e.event(messages.EventError, data)
}

// Close ends the open message. When a block is still open (the input was
// cut off), it writes no message_stop, like the stream it copies, and
// reports the truncation.
func (e *Encoder) Close() error {
	if e.err != nil {
		return e.err
	}
	if e.st.Open() {
		e.st.Flush()
		if e.err == nil {
			e.err = fmt.Errorf("anthropic: %w: a block was left open, no message_stop written", event.ErrTruncated)
		}
		return e.err
	}
	stop := "end_turn"
	if e.st.HadTools() {
		stop = "tool_use"
	}
	e.st.EndTurn(stop, nil)
	return e.err
}

func compact(raw []byte) []byte {
	var m json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return raw
	}
	b, err := messages.Marshal(m)
	if err != nil {
		return raw
	}
	return b
}
