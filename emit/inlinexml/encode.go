package inlinexml

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/agentstream/agentstream/emit/internal/modeltext"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/openset"
	"github.com/agentstream/agentstream/parse/inlinexml"
	"github.com/agentstream/agentstream/toolset"
)

// Config configures an Encoder. The zero value is ready to use.
type Config struct {
	// RawParams name the parameters written on lines of their own,
	// verbatim (nil: content and diff, as the decoder's default).
	RawParams []string
	// Warn receives what the protocol cannot carry. Nil discards it.
	Warn func(error)
}

// Encoder writes canonical events as inline XML tool protocol text.
type Encoder struct {
	w      io.Writer
	cfg    Config
	raw    map[string]bool
	buf    []byte
	err    error
	names  openset.Map[string, string] // tool name by call id, for results
	losses modeltext.Losses            // what was warned about, and the agent written

	last     byte            // last byte written, 0 at the start
	thinking bool            // a <thinking> is open
	text     strings.Builder // text written since the last element (capped)
	done     bool            // the last element was attempt_completion
	textOpen bool

	json   jsontext.Reader // reads tool inputs
	params [][2]string     // a tool input's members: name, value
}

// maxTrail caps the text kept to compare with a RunEnd's Result.
const maxTrail = 1 << 20

// maxCallsLoss is the loss reported once past the cap on the tool names
// kept for results.
const maxCallsLoss = "the tool names of results more than 1024 calls after their call (written with the result's own name)"

// NewEncoder returns an encoder writing to w. cfg may be nil.
func NewEncoder(w io.Writer, cfg *Config) *Encoder {
	e := &Encoder{w: w, raw: map[string]bool{}}
	if cfg != nil {
		e.cfg = *cfg
	}
	e.losses.Format, e.losses.Warn = "inlinexml", e.cfg.Warn
	raw := e.cfg.RawParams
	if raw == nil {
		raw = []string{"content", "diff"}
	}
	for _, p := range raw {
		e.raw[p] = true
	}
	return e
}

func (e *Encoder) warn(what string) { e.losses.Report(what) }

// Encode writes the protocol text for ev.
func (e *Encoder) Encode(ev event.Event) error {
	if e.err != nil {
		return e.err
	}
	if e.losses.OtherAgent(ev) {
		return nil
	}
	e.buf = e.buf[:0]
	switch ev := ev.(type) {
	case *event.BlockStart:
		if ev.Kind == event.Thinking {
			e.openThinking()
		} else {
			e.textOpen = true
		}
	case *event.Delta:
		if ev.Kind == event.Thinking {
			e.openThinking()
			if strings.Contains(ev.Text, "</thinking>") {
				e.warn("thinking holding </thinking>")
			}
		} else {
			e.closeThinking()
			e.textOpen = true
			if e.text.Len() < maxTrail {
				e.text.WriteString(ev.Text)
			}
		}
		e.buf = append(e.buf, ev.Text...)
	case *event.BlockEnd:
		if ev.Kind == event.Thinking {
			e.closeThinking()
			if ev.Signature != "" {
				e.warn("thinking signatures")
			}
		} else {
			e.textOpen = false
		}
	case *event.ToolCall:
		e.closeThinking()
		if _, out := e.names.Put(ev.ID, ev.Name); out {
			e.warn(maxCallsLoss)
		}
		e.call(ev.Name, ev.Input)
		if ev.Server || ev.MCPServer != "" {
			e.warn("server and MCP tool markers")
		}
	case *event.ToolResult:
		e.closeThinking()
		e.result(ev)
	case *event.RunEnd:
		e.closeThinking()
		if ev.Result != "" && !e.done && strings.TrimSpace(e.text.String()) != strings.TrimSpace(ev.Result) {
			in, _ := json.Marshal(map[string]string{"result": ev.Result})
			e.call(inlinexml.Completion, in)
		}
		if ev.IsError || ev.Usage != nil || ev.CostUSD != nil || len(ev.Errors) > 0 {
			e.warn("run statistics and errors")
		}
	case *event.AwaitingTools:
		// the calls were written as ToolCalls
	case *event.SessionStart:
		e.warn("session metadata")
	case *event.Notice:
		e.warn("notices")
	default:
		e.losses.Unwritten(ev)
	}
	return e.flush()
}

func (e *Encoder) flush() error {
	if len(e.buf) == 0 {
		return nil
	}
	e.last = e.buf[len(e.buf)-1]
	_, e.err = e.w.Write(e.buf)
	return e.err
}

// element starts an element on a line of its own.
func (e *Encoder) element() {
	if e.last != 0 && e.last != '\n' && (len(e.buf) == 0 || e.buf[len(e.buf)-1] != '\n') {
		e.buf = append(e.buf, '\n')
	}
	e.text.Reset()
	e.done = false
}

func (e *Encoder) openThinking() {
	if !e.thinking {
		e.element()
		e.buf = append(e.buf, "<thinking>"...)
		e.thinking = true
	}
}

func (e *Encoder) closeThinking() {
	if e.thinking {
		e.buf = append(e.buf, "</thinking>\n"...)
		e.thinking = false
	}
}

// call writes a tool call: one parameter per member of input, strings as
// they are, other values as JSON.
func (e *Encoder) call(name string, input json.RawMessage) {
	e.element()
	if !toolset.ValidName(name) {
		e.warn("tool names that are not tag names")
	}
	e.buf = append(e.buf, '<')
	e.buf = append(e.buf, name...)
	e.buf = append(e.buf, ">\n"...)
	var err error
	if !e.members(input) {
		e.params = e.params[:0]
		err = eachMember(input, func(k string, v json.RawMessage) {
			var s string
			if json.Unmarshal(v, &s) != nil {
				s = string(v)
			}
			e.params = append(e.params, [2]string{k, s})
		})
	}
	if err == nil {
		for _, p := range e.params {
			e.param(p[0], p[1])
		}
	}
	if err != nil {
		e.warn("tool input that is not a JSON object")
		e.param("input", string(bytes.TrimSpace(input)))
	}
	e.buf = append(e.buf, "</"...)
	e.buf = append(e.buf, name...)
	e.buf = append(e.buf, ">\n"...)
	e.done = name == inlinexml.Completion
}

func (e *Encoder) param(k, v string) {
	if !toolset.ValidName(k) {
		e.warn("parameter names that are not tag names")
	}
	multi := e.raw[k] || strings.Contains(v, "\n")
	if !e.raw[k] {
		if strings.TrimSpace(v) != v {
			e.warn("white space around parameter values")
		}
		if strings.Contains(v, "</"+k+">") {
			e.warn("parameter values holding their own close tag")
		}
	}
	e.buf = append(e.buf, '<')
	e.buf = append(e.buf, k...)
	e.buf = append(e.buf, '>')
	if multi {
		e.buf = append(e.buf, '\n')
	}
	e.buf = append(e.buf, v...)
	if multi {
		e.buf = append(e.buf, '\n')
	}
	e.buf = append(e.buf, "</"...)
	e.buf = append(e.buf, k...)
	e.buf = append(e.buf, ">\n"...)
}

// result writes a tool result as the orchestrator's feedback message.
func (e *Encoder) result(r *event.ToolResult) {
	e.element()
	name := r.Name
	if n, ok := e.names.Get(r.ID); ok && (name == "" || r.Server) {
		name = n
	}
	if strings.ContainsAny(name, "\"<>&") {
		e.warn("tool names that cannot be an attribute value")
	}
	var body strings.Builder
	for _, p := range r.Content {
		if p.Type != "text" {
			e.warn("tool result images")
			continue
		}
		if body.Len() > 0 {
			body.WriteByte('\n')
		}
		body.WriteString(p.Text)
	}
	text := body.String()
	if r.IsError && !strings.HasPrefix(text, "Error") {
		text = "Error: " + text
	}
	if len(r.Structured) > 0 || r.ExitCode != nil {
		e.warn("structured tool output and exit codes")
	}
	e.buf = append(e.buf, `<tool_result tool_name="`...)
	e.buf = append(e.buf, name...)
	e.buf = append(e.buf, "\">\n"...)
	e.buf = append(e.buf, text...)
	e.buf = append(e.buf, "\n</tool_result>\n"...)
}

// Close ends the text. It reports a thinking or text block left open.
// Cut ends a stream whose input was cut off (event.Cutter): as Close,
// which writes no end marker, reporting the cut.
func (e *Encoder) Cut() error {
	if err := e.Close(); err != nil {
		return err
	}
	return fmt.Errorf("inlinexml: %w: the input was cut off", event.ErrTruncated)
}

func (e *Encoder) Close() error {
	if e.err != nil {
		return e.err
	}
	e.buf = e.buf[:0]
	open := e.thinking
	e.closeThinking()
	if e.flush() != nil {
		return e.err
	}
	if open || e.textOpen {
		return fmt.Errorf("inlinexml: %w: block left open", event.ErrTruncated)
	}
	return nil
}

// members reads the members of the JSON object input into e.params, in
// one pass with a jsontext.Reader: each key, and its value as a parameter
// writes it (a string unescaped, null as nothing, any other value as its
// JSON text), exactly as eachMember and json.Unmarshal make them. It
// reports false for input the Reader does not take (eachMember decides).
func (e *Encoder) members(input []byte) bool {
	r := &e.json
	r.Reset(input)
	e.params = e.params[:0]
	if !r.Object() {
		return false
	}
	for {
		k, ok := r.KeyFold()
		if !ok {
			break
		}
		var v string
		switch r.Peek() {
		case '"':
			v = r.String()
		case 'n':
			r.Null()
		default:
			v = string(r.Skip())
		}
		e.params = append(e.params, [2]string{string(k), v})
	}
	return !r.Failed()
}

// eachMember calls f for the members of the JSON object b, in order.
func eachMember(b []byte, f func(string, json.RawMessage)) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	t, err := dec.Token()
	if err != nil {
		return err
	}
	if t != json.Delim('{') {
		return fmt.Errorf("not an object")
	}
	var members []func()
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return err
		}
		k := t.(string)
		members = append(members, func() { f(k, v) })
	}
	for _, m := range members {
		m()
	}
	return nil
}
