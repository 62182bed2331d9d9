package opencode

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/internal/deltabatch"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/slab"
	wire "github.com/agentstream/agentstream/internal/wire/opencode"
	"github.com/agentstream/agentstream/parse/internal/decoderstate"
)

// Name is the format's name in the format table.
const Name = "opencode"

// Config configures a Decoder. The zero value is ready to use.
type Config struct {
	Source        string // input name for errors
	MaxEventBytes int    // cap on one line (event.DefaultMaxBytes if 0)
	Agent         string // agent id of every event (the format names none)
	// Foreign names the format of a line of another format
	// (format.Options.Foreign).
	Foreign format.Foreign
}

// Decoder reads opencode run --format json output and yields canonical
// events. See the package documentation for the grammar and tolerance
// rules.
type Decoder struct {
	deltas  deltabatch.Batch
	lineBuf wire.Line       // the line being decoded
	jr      jsontext.Reader // reads the wire structs in one pass
	str     slab.Strings    // the strings jr makes
	cfg     Config
	in      decoderstate.Lines
	st      decoderstate.State

	started    bool   // the SessionStart was emitted
	step       bool   // inside a step: step_start without its step_finish yet
	stepMsg    string // the open step's message id
	lastReason string // reason of the last step_finish
	ended      bool   // the run ended: an error line, or a step that finished for good
	// compact: the line being read has no white space outside its
	// strings (jsontext.Reader.Spaced), nor has any value in it.
	compact bool
}

// NewDecoder returns a decoder reading from r. cfg may be nil.
func NewDecoder(r io.Reader, cfg *Config) *Decoder {
	d := &Decoder{}
	if cfg != nil {
		d.cfg = *cfg
	}
	d.in = decoderstate.NewLines(r, d.cfg.Source, d.cfg.MaxEventBytes)
	d.jr.SetStrings(d.str.String)
	return d
}

// lineTypes are the types of the lines run.ts writes.
var lineTypes = map[string]bool{
	wire.TypeStepStart: true, wire.TypeText: true, wire.TypeReasoning: true,
	wire.TypeToolUse: true, wire.TypeStepFinish: true, wire.TypeError: true,
}

// Detect reports whether an input whose first unit is h is opencode run
// --format json output: a line (not SSE) holding a JSON object whose type
// is one of the line types run.ts writes, with a sessionID string and a
// timestamp number (Gemini's stream-json shares tool_use and error but
// spells session_id and writes the timestamp as a string; the JSON
// envelope shares text and error but has agent and final).
func Detect(h format.Head) bool {
	if h.SSE {
		return false
	}
	m := h.Fields()
	typ, _ := format.String(m, "type")
	if !lineTypes[typ] {
		return false
	}
	if _, ok := format.String(m, "sessionID"); !ok {
		return false
	}
	ts, ok := m["timestamp"]
	return ok && len(ts) > 0 && (ts[0] == '-' || ts[0] >= '0' && ts[0] <= '9')
}

// Next returns the next event. See event.Decoder for the error contract.
func (d *Decoder) Next() (event.Event, error) { return d.st.Next(d.readLine, d.truncation) }

func (d *Decoder) readLine() { d.in.Read(&d.st, d.decode) }

func (d *Decoder) errorf(sentinel error, format string, args ...any) *event.ParseError {
	return &event.ParseError{
		Source: d.cfg.Source, Line: d.in.Line, Column: 1, Offset: d.in.Offset,
		Err: event.Errorf(sentinel, format, args...),
	}
}

func (d *Decoder) unknown(typ string, line []byte) {
	raw, note := d.payload(line)
	d.st.Emit(&event.Unknown{Agent: d.cfg.Agent, Format: Name, Type: typ, Raw: raw, Checked: note})
}

// payload returns a copy of p, the line being read or a value in it,
// and its note: valid JSON, as the line was read whole; compact too when
// the line was.
func (d *Decoder) payload(p []byte) (json.RawMessage, event.Checked) {
	return decoderstate.Payload(p, d.compact)
}

func orLine(typ string) string {
	if typ == "" {
		return "line"
	}
	return typ
}

func (d *Decoder) decode(line []byte) error {
	if line = bytes.TrimSpace(line); line[0] != '{' {
		return d.errorf(event.ErrSyntax, "expected a JSON object")
	}
	// The decoder's line, cleared: what events keep of it (the part
	// its pointer holds, its strings) is fresh on every line.
	l := &d.lineBuf
	*l = wire.Line{}
	err := jsontext.DecodeValid(&d.jr, line, l, wire.ReadLine)
	d.compact = !d.jr.Spaced()
	if err != nil {
		if !json.Valid(line) {
			return d.errorf(event.ErrSyntax, "expected a JSON object: %s", jsontext.Problem(err))
		}
		// Valid JSON whose fields have unexpected types: keep it.
		d.unknown(l.Type, line)
		return d.errorf(event.ErrSyntax, "%s: %s", orLine(l.Type), jsontext.Problem(err))
	}
	if !lineTypes[l.Type] {
		if k := d.cfg.Foreign.Of(line); k != "" {
			what := "a line"
			if l.Type != "" {
				what = l.Type + " line"
			}
			return d.errorf(event.ErrSyntax, "%s of another format (it looks like %s); skipped", what, k)
		}
		d.session(l.SessionID)
		d.unknown(l.Type, line)
		return nil
	}
	if l.Type == wire.TypeError {
		if l.Error == nil {
			d.unknown(l.Type, line)
			return d.errorf(event.ErrSyntax, "error line without its error; kept as unknown")
		}
	} else if l.Part == nil {
		d.unknown(l.Type, line)
		return d.errorf(event.ErrSyntax, "%s line without its part; kept as unknown", l.Type)
	}
	d.session(l.SessionID)
	agent := d.cfg.Agent
	p := l.Part
	switch l.Type {
	case wire.TypeStepStart:
		d.step, d.stepMsg, d.ended = true, p.MessageID, false
		d.st.Emit(&event.TurnStart{Agent: agent, MessageID: p.MessageID})
	case wire.TypeText, wire.TypeReasoning:
		kind := event.Text
		if l.Type == wire.TypeReasoning {
			kind = event.Thinking
		}
		d.st.Emit(&event.BlockStart{Agent: agent, Kind: kind})
		if p.Text != "" {
			d.st.Emit(d.deltas.New(agent, kind, p.Text))
		}
		d.st.Emit(&event.BlockEnd{Agent: agent, Kind: kind})
	case wire.TypeToolUse:
		return d.tool(p, line)
	case wire.TypeStepFinish:
		end := &event.TurnEnd{Agent: agent, MessageID: p.MessageID, StopReason: p.Reason, CostUSD: p.Cost}
		if t := p.Tokens; t != nil {
			// OpenCode's output count leaves out reasoning; the event
			// model's includes it (event.Usage.ReasoningTokens).
			end.Usage = &event.Usage{
				InputTokens: t.Input, OutputTokens: t.Output + t.Reasoning, ReasoningTokens: t.Reasoning,
				CacheReadTokens: t.Cache.Read, CacheWriteTokens: t.Cache.Write,
				// OpenCode writes every count of a step's tokens.
				Has: event.HasTokens | event.HasCacheRead | event.HasCacheWrite | event.HasReasoning,
			}
		}
		d.step, d.stepMsg = false, ""
		d.lastReason = p.Reason
		d.ended = p.Reason != wire.ReasonToolCalls
		d.st.Emit(end)
	case wire.TypeError:
		msg, typ := errorText(&d.jr, l.Error)
		raw, note := d.payload(line)
		d.st.Emit(&event.Error{Agent: agent, Message: msg, Type: typ, Fatal: true, Raw: raw, Checked: note})
		if d.step {
			// The error ended the open step.
			d.st.Emit(&event.TurnEnd{Agent: agent, MessageID: d.stepMsg, Error: msg})
			d.step, d.stepMsg = false, ""
		}
		d.ended = true
	}
	return nil
}

// session emits the session's start at the first line that names it.
func (d *Decoder) session(id string) {
	if d.started || id == "" {
		return
	}
	d.started = true
	d.st.Emit(&event.SessionStart{Agent: d.cfg.Agent, SessionID: id})
}

// errorText returns an error line's message (data.message, else its name)
// and type (its name).
func errorText(jr *jsontext.Reader, e *wire.Error) (msg, typ string) {
	var data wire.ErrorData
	if len(e.Data) > 0 {
		_ = jsontext.DecodeValid(jr, e.Data, &data, wire.ReadErrorData) // a data without message leaves the name
	}
	msg = data.Message
	if msg == "" {
		msg = e.Name
	}
	return msg, e.Name
}

// tool emits a tool_use line's call and, for a finished state, its result.
func (d *Decoder) tool(p *wire.Part, line []byte) error {
	agent := d.cfg.Agent
	s := p.State
	if s == nil {
		d.unknown(wire.TypeToolUse, line)
		return d.errorf(event.ErrSyntax, "tool_use line without a state; kept as unknown")
	}
	input := json.RawMessage("{}")
	note := event.CompactJSON(input)
	if len(s.Input) > 0 {
		input, note = d.payload(s.Input)
	}
	d.st.Emit(&event.ToolCall{Agent: agent, ID: p.CallID, Name: p.Tool, Input: input, Checked: note})
	r := &event.ToolResult{Agent: agent, ID: p.CallID, Name: p.Tool, Status: s.Status}
	switch s.Status {
	case wire.StatusCompleted:
		if s.Output != nil && *s.Output != "" {
			r.Content = []event.Part{{Type: "text", Text: *s.Output}}
		}
	case wire.StatusError:
		r.IsError = true
		if s.Error != nil && *s.Error != "" {
			r.Content = []event.Part{{Type: "text", Text: *s.Error}}
		}
	default:
		// run.ts writes finished states only: the result is not known.
		return d.errorf(event.ErrSyntax, "tool_use %q in state %q, not completed or error: no result read", p.CallID, s.Status)
	}
	if len(s.Metadata) > 0 && string(s.Metadata) != "null" {
		r.Structured, r.Checked = d.payload(s.Metadata)
		var m wire.ExitMetadata
		if jsontext.DecodeValid(&d.jr, s.Metadata, &m, wire.ReadExitMetadata) == nil && m.Exit != nil {
			code := *m.Exit
			r.ExitCode = &code
		}
	}
	d.st.Emit(r)
	return nil
}

// truncation reports an input that ended before its run did. OpenCode
// 1.18.33 writes no run-end line: a run has ended after a step that
// finished for another reason than tool-calls, or after an error line.
// An input that ends inside a step, or right after a step that called
// tools (the run goes on with the next step), was cut.
func (d *Decoder) truncation() error {
	switch {
	case d.step:
		d.step = false
		return d.errorf(event.ErrTruncated, "stream ended inside a step (step_start without its step_finish)")
	case d.lastReason == wire.ReasonToolCalls && !d.ended:
		return d.errorf(event.ErrTruncated, "stream ended after a step that finished with tool-calls: the run's next step is missing")
	}
	return nil
}
