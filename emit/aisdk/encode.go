package aisdk

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/agentstream/agentstream/emit/internal/ssejson"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/openset"
	wire "github.com/agentstream/agentstream/internal/wire/aisdk"
	"github.com/agentstream/agentstream/parse/aisdk"
)

// Config configures an Encoder. The zero value is ready to use.
type Config struct {
	Agent string      // agent id of events that name none
	Warn  func(error) // receives what the stream cannot carry (*event.LossError)
}

// Encoder writes canonical events as a UI message stream.
type Encoder struct {
	out    *ssejson.Writer
	cfg    Config
	losses event.Losses
	err    error

	seen     bool   // an event has come: main is set
	main     string // the main agent, whose events the stream carries
	started  bool   // the start chunk is written
	step     bool   // a start-step is written and its finish-step not
	open     map[event.BlockKind]string
	parts    int                  // text and reasoning parts begun, for their ids
	sources  int                  // sources written, for their ids
	calls    *openset.Set[string] // tool calls written and not yet answered
	stop     string               // the stop reason of the main agent's last turn
	failed   bool                 // a turn or the run of the main agent failed
	finished bool                 // finish or abort is written
	lastErr  string               // the last error message written
}

// NewEncoder returns an encoder writing to w. cfg may be nil.
func NewEncoder(w io.Writer, cfg *Config) *Encoder {
	e := &Encoder{out: ssejson.New(w, wire.Name), open: map[event.BlockKind]string{}, calls: openset.New[string](0)}
	if cfg != nil {
		e.cfg = *cfg
	}
	return e
}

func (e *Encoder) lost(what string) { e.losses.Report(e.cfg.Warn, wire.Name, what) }

// raw writes one SSE message whose data is b.
func (e *Encoder) raw(b []byte) {
	if e.err == nil {
		e.err = e.out.Raw(b)
	}
}

// chunk writes c.
func (e *Encoder) chunk(c *wire.Chunk) {
	if e.err == nil {
		e.err = e.out.JSON(c)
	}
}

// verbatim reports whether raw is a chunk of one of types, to be written
// back as it came.
func verbatim(raw []byte, types ...string) bool {
	if len(raw) == 0 {
		return false
	}
	var m map[string]json.RawMessage
	var typ string
	if json.Unmarshal(raw, &m) != nil || json.Unmarshal(m["type"], &typ) != nil {
		return false
	}
	f, ok := wire.FieldsOf(typ)
	if !ok || !slices.Contains(types, typ) {
		return false
	}
	for _, k := range f.Required {
		if _, ok := m[k]; !ok {
			return false // another format's object of the same type name
		}
	}
	return true
}

func (e *Encoder) ensureStart() {
	if !e.started {
		e.started = true
		e.chunk(&wire.Chunk{Type: wire.TypeStart})
	}
}

func str(s string) *string { return &s }

// Encode writes the chunks of ev.
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
		// One message of one agent: a subagent's events have no place.
		e.lost("subagent output (the stream is one agent's message)")
		return nil
	}
	switch ev := ev.(type) {
	case *event.SessionStart:
		e.session(ev)
	case *event.TurnStart:
		e.ensureStart()
		if ev.Model != "" {
			e.lost("model")
		}
		if ev.Usage != nil {
			e.lost("usage")
		}
		if ev.MessageID != "" {
			e.lost("message ids of turns")
		}
		if e.step {
			e.chunk(&wire.Chunk{Type: wire.TypeFinishStep})
		}
		e.step = true
		e.chunk(&wire.Chunk{Type: wire.TypeStartStep})
	case *event.TurnEnd:
		e.ensureStart()
		if ev.Usage != nil {
			e.lost("usage")
		}
		if ev.Error != "" {
			e.failed = true
			if ev.Error != e.lastErr {
				clear(e.open)
				e.lastErr = ev.Error
				e.chunk(&wire.Chunk{Type: wire.TypeError, ErrorText: str(ev.Error)})
			}
		}
		e.stop = ev.StopReason
		if e.step && !e.finished {
			e.step = false
			e.chunk(&wire.Chunk{Type: wire.TypeFinishStep})
		}
	case *event.BlockStart:
		e.ensureStart()
		e.endPart(ev.Kind)
		e.startPart(ev.Kind)
	case *event.Delta:
		e.ensureStart()
		id, ok := e.open[ev.Kind]
		if !ok {
			id = e.startPart(ev.Kind)
		}
		if ev.Text != "" {
			e.chunk(&wire.Chunk{Type: partType(ev.Kind, "delta"), ID: id, Delta: str(ev.Text)})
		}
	case *event.BlockEnd:
		if ev.Signature != "" {
			e.lost("thinking signatures")
		}
		e.endPart(ev.Kind)
	case *event.Citations:
		e.ensureStart()
		e.citations(ev)
	case *event.ToolCall:
		e.ensureStart()
		e.toolCall(ev)
	case *event.ToolResult:
		e.ensureStart()
		e.toolResult(ev)
	case *event.Error:
		e.ensureStart()
		e.error(ev)
	case *event.RunEnd:
		e.ensureStart()
		e.runEnd(ev)
	case *event.Unknown:
		if ev.Format == wire.Name && json.Valid(ev.Raw) {
			e.ensureStart()
			e.raw(ev.Raw)
			break
		}
		e.lost("unknown items of other formats")
	case *event.Notice:
		if ev.Kind == event.NoticeAbandoned {
			// The open parts were given up: they get no end (one
			// written after the step's finish-step names a part the
			// SDK no longer knows).
			clear(e.open)
			if verbatim(ev.Raw, wire.TypeResetStep) {
				e.ensureStart()
				e.raw(ev.Raw)
				break
			}
		}
		e.lost("notices")
	case *event.AwaitingTools:
		e.lost("awaiting_frontend_tools (the pending calls stay input-available parts)")
	case *event.Files:
		e.lost("generated files (meta_files)")
	case *event.FileChange:
		e.lost("file changes")
	case *event.TodoList:
		e.lost("todo lists")
	}
	return e.err
}

func (e *Encoder) session(ev *event.SessionStart) {
	if e.started {
		return
	}
	if ev.MetaKind == aisdk.MetaKind && verbatim(ev.Meta, wire.TypeStart) {
		e.started = true
		e.raw(ev.Meta)
		return
	}
	if ev.Model != "" {
		e.lost("model")
	}
	if ev.Prompt != "" {
		e.lost("prompt")
	}
	if ev.SessionID != "" || len(ev.Tools) > 0 || ev.Cwd != "" {
		e.lost("session metadata (session id, tools, cwd)")
	}
	e.ensureStart()
}

func partType(kind event.BlockKind, what string) string {
	if kind == event.Thinking {
		return "reasoning-" + what
	}
	return "text-" + what
}

func (e *Encoder) startPart(kind event.BlockKind) string {
	e.parts++
	id := partType(kind, strconv.Itoa(e.parts))
	e.open[kind] = id
	e.chunk(&wire.Chunk{Type: partType(kind, "start"), ID: id})
	return id
}

func (e *Encoder) endPart(kind event.BlockKind) {
	if id, ok := e.open[kind]; ok {
		delete(e.open, kind)
		e.chunk(&wire.Chunk{Type: partType(kind, "end"), ID: id})
	}
}

// citations writes a source chunk per citation: source-url for one with
// a URL, source-document for one with a document title (text/plain, or
// application/pdf for a page location, as the SDK's Anthropic provider
// says of them); sourceIds are numbered here, the model has none.
func (e *Encoder) citations(ev *event.Citations) {
	for _, c := range ev.Items {
		if verbatim(c.Raw, wire.TypeSourceURL, wire.TypeSourceDocument) {
			e.raw(c.Raw)
			continue
		}
		if c.CitedText != "" || c.StartCharIndex != nil || c.StartPageNumber != nil || c.DocumentIndex != nil {
			e.lost("citations' cited text and locations (a source carries a url or a document title)")
		}
		e.sources++
		id := str("source-" + strconv.Itoa(e.sources))
		switch {
		case c.URL != nil:
			e.chunk(&wire.Chunk{Type: wire.TypeSourceURL, SourceID: id, URL: c.URL, Title: c.Title})
		case c.DocumentTitle != nil:
			media := "text/plain"
			if c.Type == "page_location" {
				media = "application/pdf"
			}
			e.chunk(&wire.Chunk{Type: wire.TypeSourceDocument, SourceID: id, MediaType: &media, Title: c.DocumentTitle})
		default:
			e.sources--
			e.lost("citations without a url or a document title")
		}
	}
}

func boolp(b bool) *bool {
	if !b {
		return nil
	}
	return &b
}

func (e *Encoder) toolCall(ev *event.ToolCall) {
	if ev.MCPServer != "" {
		e.lost("MCP server names")
	}
	if _, out := e.calls.Add(ev.ID); out {
		e.lost("results of tool calls more than " + strconv.Itoa(e.calls.Max()) + " calls before them")
	}
	name := str(ev.Name)
	server := boolp(ev.Server)
	input := ev.Input
	if !json.Valid(input) {
		b, _ := json.Marshal(string(input))
		input = b
	}
	sum := 0
	for _, n := range ev.InputDeltas {
		sum += n
	}
	if len(ev.InputDeltas) > 0 && sum == len(input) {
		e.chunk(&wire.Chunk{Type: wire.TypeToolInputStart, ToolCallID: ev.ID, ToolName: name, ProviderExecuted: server})
		rest := string(input)
		for _, n := range ev.InputDeltas {
			e.chunk(&wire.Chunk{Type: wire.TypeToolInputDelta, ToolCallID: ev.ID, InputTextDelta: str(rest[:n])})
			rest = rest[n:]
		}
	}
	e.chunk(&wire.Chunk{Type: wire.TypeToolInputAvailable, ToolCallID: ev.ID, ToolName: name, Input: input, ProviderExecuted: server})
}

// toolResult writes a tool result as its call's output: an error's text
// as errorText, else the text (parts joined with a newline, as assemble
// joins them) as a string output, or the structured output when there is
// no text.
func (e *Encoder) toolResult(ev *event.ToolResult) {
	if !e.calls.Has(ev.ID) {
		// The SDK's client throws on an output for a call it has not seen.
		e.lost("tool results whose call is not in the stream")
		return
	}
	e.calls.Remove(ev.ID)
	var text []string
	for _, p := range ev.Content {
		switch p.Type {
		case "text":
			text = append(text, p.Text)
		default:
			e.lost("tool result images")
		}
	}
	if ev.ExitCode != nil {
		e.lost("tool result exit codes")
	}
	if ev.Status != "" && ev.Status != aisdk.StatusDenied {
		e.lost("tool result status")
	}
	server := boolp(ev.Server)
	switch {
	case ev.Status == aisdk.StatusDenied && len(ev.Content) == 0 && !ev.IsError:
		e.chunk(&wire.Chunk{Type: wire.TypeToolOutputDenied, ToolCallID: ev.ID})
	case ev.IsError:
		if len(ev.Structured) > 0 {
			e.lost("structured tool output")
		}
		e.chunk(&wire.Chunk{Type: wire.TypeToolOutputError, ToolCallID: ev.ID, ErrorText: str(strings.Join(text, "\n")), ProviderExecuted: server})
	case len(ev.Content) == 0 && len(ev.Structured) > 0 && json.Valid(ev.Structured):
		e.chunk(&wire.Chunk{Type: wire.TypeToolOutputAvailable, ToolCallID: ev.ID, Output: ev.Structured, ProviderExecuted: server})
	default:
		if len(ev.Structured) > 0 {
			e.lost("structured tool output")
		}
		out, _ := json.Marshal(strings.Join(text, "\n"))
		e.chunk(&wire.Chunk{Type: wire.TypeToolOutputAvailable, ToolCallID: ev.ID, Output: out, ProviderExecuted: server})
	}
}

// error writes an error chunk, or the abort chunk the error was. The
// error interrupted the open parts (event.Error ends them unfinished): no
// end is written for them, so the client leaves them streaming, as
// assemble leaves them truncated.
func (e *Encoder) error(ev *event.Error) {
	clear(e.open)
	e.lastErr = ev.Message
	if ev.Type == aisdk.ErrorAbort && verbatim(ev.Raw, wire.TypeAbort) {
		e.finished = true
		e.raw(ev.Raw)
		return
	}
	if ev.Fatal {
		e.failed = true
	}
	if verbatim(ev.Raw, wire.TypeError) {
		e.raw(ev.Raw)
		return
	}
	if ev.Type != "" {
		e.lost("error types")
	}
	e.chunk(&wire.Chunk{Type: wire.TypeError, ErrorText: str(ev.Message)})
}

func (e *Encoder) runEnd(ev *event.RunEnd) {
	if ev.Usage != nil {
		e.lost("usage")
	}
	if ev.CostUSD != nil {
		e.lost("cost")
	}
	if ev.Turns != 0 || ev.DurationMS != 0 || ev.Result != "" {
		e.lost("run summary (turns, duration, result)")
	}
	if ev.IsError {
		e.failed = true
	}
	if ev.StopReason != "" {
		e.stop = ev.StopReason
	}
	if e.finished {
		return
	}
	if e.step {
		e.step = false
		e.chunk(&wire.Chunk{Type: wire.TypeFinishStep})
	}
	e.finished = true
	if ev.MetaKind == aisdk.MetaKind && verbatim(ev.Meta, wire.TypeFinish) {
		e.raw(ev.Meta)
		return
	}
	e.finish()
}

// finish writes the finish chunk: finishReason error for a failed run,
// else the stop reason mapped, when there is one that maps.
func (e *Encoder) finish() {
	c := &wire.Chunk{Type: wire.TypeFinish}
	if e.failed {
		c.FinishReason = wire.FinishError
	} else {
		f, ok := wire.FinishFromStop(e.stop)
		if !ok {
			e.lost("stop reason " + e.stop)
		}
		c.FinishReason = f
	}
	e.chunk(c)
}

// Cut ends a stream whose input was cut off (event.Cutter): no
// finish-step, no finish, no [DONE], whatever was open.
func (e *Encoder) Cut() error {
	if e.err != nil {
		return e.err
	}
	return fmt.Errorf("%s: %w: the input was cut off, no finish or [DONE] written", wire.Name, event.ErrTruncated)
}

// Close ends the stream: a stream whose text or reasoning part is still
// open was cut, and stays cut (no finish, no [DONE]: the SDK's client
// then shows the part still streaming and no finish reason, as for a
// dropped connection); Close reports it. Otherwise the open step is
// finished, finish written if the run's end did not write it, and
// data: [DONE].
func (e *Encoder) Close() error {
	if e.err != nil {
		return e.err
	}
	if len(e.open) > 0 {
		var open []string
		for _, kind := range []event.BlockKind{event.Text, event.Thinking} {
			if _, ok := e.open[kind]; ok {
				open = append(open, string(kind))
			}
		}
		return fmt.Errorf("%s: %w: %s block left open", wire.Name, event.ErrTruncated, strings.Join(open, " and "))
	}
	if !e.started {
		return nil // nothing came
	}
	if !e.finished {
		if e.step {
			e.step = false
			e.chunk(&wire.Chunk{Type: wire.TypeFinishStep})
		}
		e.finished = true
		e.finish()
	}
	e.raw([]byte(wire.Done))
	return e.err
}
