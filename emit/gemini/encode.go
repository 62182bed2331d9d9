package gemini

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/openset"
	"github.com/agentstream/agentstream/internal/wire/gemini"
	parse "github.com/agentstream/agentstream/parse/gemini"
)

// Config configures an Encoder. The zero value is ready to use.
type Config struct {
	// Warn receives what stream-json cannot carry, once per kind.
	Warn func(error)
}

// Encoder writes events as Gemini CLI stream-json. See the package
// documentation for what it writes and what it cannot carry.
type Encoder struct {
	cfg    Config
	w      io.Writer
	losses event.Losses
	err    error

	main      string
	haveMain  bool
	wroteInit bool
	model     string // the session's model
	textOpen  bool
	resulted  bool
	fatal     *event.Error // a fatal error, written with the result
	turnModel string
	models    []modelUsage // usage per model, from turn ends: at most maxOpen models
	// manyModels: more than maxOpen models had usage; models is not
	// written.
	manyModels bool
	turnSum    *event.Usage // usage summed over turn ends
	toolCalls  int64
	// called holds the ids of the tool calls written and not yet
	// answered: stream-json pairs a tool_result with an earlier tool_use.
	// At most maxOpen: beyond, the oldest is forgotten.
	called *openset.Set[string]
	buf    bytes.Buffer
}

// maxOpen caps the tool calls waiting for their result and the models
// whose usage is kept (openset.DefaultMax).
const maxOpen = openset.DefaultMax

type modelUsage struct {
	name string
	u    event.Usage
}

// NewEncoder returns an encoder writing to w. cfg may be nil.
func NewEncoder(w io.Writer, cfg *Config) *Encoder {
	e := &Encoder{w: w}
	if cfg != nil {
		e.cfg = *cfg
	}
	return e
}

func (e *Encoder) warn(what string) { e.losses.Report(e.cfg.Warn, "gemini", what) }

// write writes one line: v marshalled, or raw bytes.
func (e *Encoder) write(v any) {
	if e.err != nil {
		return
	}
	var b []byte
	switch v := v.(type) {
	case []byte:
		b = v
	default:
		var err error
		if b, err = gemini.Marshal(v); err != nil {
			e.err = err
			return
		}
	}
	e.buf.Reset()
	e.buf.Write(b)
	e.buf.WriteByte('\n')
	_, e.err = e.w.Write(e.buf.Bytes())
}

// isMain reports whether ev belongs to the agent the encoder writes:
// stream-json has one agent, the first one seen.
func (e *Encoder) isMain(ev event.Event) bool {
	if s, ok := ev.(*event.SessionStart); ok && s.ParentAgent != "" {
		return false
	}
	if !e.haveMain {
		e.haveMain, e.main = true, ev.AgentID()
	}
	return ev.AgentID() == e.main
}

// Encode writes the lines for ev.
func (e *Encoder) Encode(ev event.Event) error {
	if e.err != nil {
		return e.err
	}
	if !e.isMain(ev) {
		e.warn("subagent scope (stream-json has one agent; a subagent's events are not written)")
		return nil
	}
	switch ev := ev.(type) {
	case *event.SessionStart:
		e.start(ev)
	case *event.BlockStart:
		if ev.Kind == event.Text {
			e.textOpen = true
		}
	case *event.Delta:
		if ev.Kind != event.Text {
			e.warn("thinking (stream-json has none; the session log keeps thoughts)")
			return nil
		}
		e.ensureInit()
		e.write(gemini.Message{Type: gemini.TypeMessage, Role: gemini.RoleAssistant, Content: ev.Text, Delta: ptr(true)})
	case *event.BlockEnd:
		if ev.Kind == event.Text {
			e.textOpen = false
		} else if ev.Signature != "" {
			e.warn("thinking signatures")
		}
	case *event.Citations:
		e.warn("citations")
	case *event.ToolCall:
		e.toolCall(ev)
	case *event.ToolResult:
		e.toolResult(ev)
	case *event.AwaitingTools:
		e.warn("pending tool calls (awaiting_frontend_tools)")
	case *event.Files:
		e.warn("generated file lists (meta_files)")
	case *event.FileChange:
		e.warn("file changes")
	case *event.TodoList:
		e.warn("todo lists")
	case *event.Error:
		e.errorEvent(ev)
	case *event.TurnStart:
		e.turnModel = ev.Model
	case *event.TurnEnd:
		e.turnEnd(ev)
	case *event.RunEnd:
		e.runEnd(ev)
	case *event.Notice:
		if ev.Kind == event.NoticeAbandoned && e.textOpen {
			// stream-json cannot take back what it wrote: the warning
			// keeps the abandoned text apart from the retry's.
			e.textOpen = false
			e.warn("abandoned text (written, then a warning that it was begun again)")
			e.write(gemini.Error{Type: gemini.TypeError, Severity: gemini.SeverityWarning, Message: cmp.Or(ev.Message, "abandoned")})
			return e.err
		}
		if ev.Kind == "user" && ev.Message != "" {
			e.ensureInit()
			e.write(gemini.Message{Type: gemini.TypeMessage, Role: gemini.RoleUser, Content: ev.Message})
		}
	case *event.Unknown:
		if ev.Format == parse.Format().Name && json.Valid(ev.Raw) && !bytes.ContainsAny(ev.Raw, "\r\n") {
			e.ensureInit()
			e.write(ev.Raw)
			return e.err
		}
		e.warn("unknown events of other formats")
	}
	return e.err
}

func ptr[T any](v T) *T { return &v }

// start writes the init line and the prompt.
func (e *Encoder) start(s *event.SessionStart) {
	if e.wroteInit {
		if s.Prompt != "" {
			e.write(gemini.Message{Type: gemini.TypeMessage, Role: gemini.RoleUser, Content: s.Prompt})
		}
		return
	}
	e.wroteInit = true
	e.model = s.Model
	var init gemini.Init
	if s.MetaKind == parse.MetaKind && json.Unmarshal(s.Meta, &init) == nil && init.Type == gemini.TypeInit &&
		!bytes.ContainsAny(s.Meta, "\r\n") {
		e.write([]byte(s.Meta))
	} else {
		e.write(gemini.Init{Type: gemini.TypeInit, SessionID: cmp.Or(s.SessionID, s.Agent), Model: s.Model})
	}
	if s.Prompt != "" {
		e.write(gemini.Message{Type: gemini.TypeMessage, Role: gemini.RoleUser, Content: s.Prompt})
	}
}

// ensureInit writes an init line when content comes before any session
// start: its session id and model are unknown, written as "".
func (e *Encoder) ensureInit() {
	if !e.wroteInit {
		e.start(&event.SessionStart{Agent: e.main})
	}
}

func (e *Encoder) toolCall(c *event.ToolCall) {
	e.ensureInit()
	if c.Server {
		e.warn("server tool flag")
	}
	if c.MCPServer != "" {
		e.warn("MCP server names")
	}
	params := json.RawMessage(c.Input)
	if !gemini.IsObject(params) {
		e.warn(`tool input that is not a JSON object (written as {"input": ...})`)
		if len(bytes.TrimSpace(params)) == 0 || !json.Valid(params) {
			params, _ = gemini.Marshal(string(params))
		}
		params = append(append(json.RawMessage(`{"input":`), params...), '}')
	}
	e.toolCalls++
	if e.called == nil {
		e.called = openset.New[string](maxOpen)
	}
	if _, out := e.called.Add(c.ID); out {
		e.warn(fmt.Sprintf("more than %d tool calls waiting for their result (the oldest is forgotten: its result is left out)", maxOpen))
	}
	e.write(gemini.ToolUse{Type: gemini.TypeToolUse, ToolName: c.Name, ToolID: c.ID, Parameters: params})
}

func (e *Encoder) toolResult(r *event.ToolResult) {
	if e.called == nil || !e.called.Has(r.ID) {
		// A result whose call the stream never had (model text that
		// quotes past results): GEM003 forbids it.
		e.warn("tool results without their tool call (left out)")
		return
	}
	e.called.Remove(r.ID)
	e.ensureInit()
	l := gemini.ToolResult{Type: gemini.TypeToolResult, ToolID: r.ID, Status: gemini.StatusSuccess}
	if r.IsError {
		l.Status = gemini.StatusError
	}
	if r.Status != "" {
		e.warn("tool result status beyond success and error")
	}
	if r.ExitCode != nil {
		e.warn("exit codes")
	}
	if r.Server {
		e.warn("server tool flag")
	}
	if r.Content != nil {
		var text strings.Builder
		for _, p := range r.Content {
			if p.Type == "image" {
				e.warn("images in tool results")
				continue
			}
			text.WriteString(p.Text)
		}
		l.Output = ptr(text.String())
	}
	if len(r.Structured) > 0 {
		var info gemini.ErrorInfo
		if r.IsError && isErrorInfo(r.Structured, &info) {
			l.Error = &info
		} else {
			e.warn("structured tool output")
		}
	}
	if r.IsError && l.Error == nil {
		// The CLI gives every failed call an error; its type is not
		// known here.
		l.Error = &gemini.ErrorInfo{}
		if l.Output != nil {
			l.Error.Message = *l.Output
		}
	}
	e.write(l)
}

// isErrorInfo reports whether raw is exactly a tool error {type, message}
// (what this package's decoder keeps as Structured), and decodes it.
func isErrorInfo(raw json.RawMessage, info *gemini.ErrorInfo) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || len(m) != 2 {
		return false
	}
	var t, msg string
	if json.Unmarshal(m["type"], &t) != nil || json.Unmarshal(m["message"], &msg) != nil {
		return false
	}
	*info = gemini.ErrorInfo{Type: t, Message: msg}
	return true
}

func (e *Encoder) errorEvent(ev *event.Error) {
	e.ensureInit()
	if ev.Fatal {
		if e.fatal == nil {
			e.fatal = ev
			return
		}
	}
	sev := gemini.SeverityError
	if ev.Type == gemini.SeverityWarning {
		sev = gemini.SeverityWarning
	} else if ev.Type != "" && ev.Type != gemini.SeverityError {
		e.warn("the type of non-fatal errors")
	}
	e.write(gemini.Error{Type: gemini.TypeError, Severity: sev, Message: ev.Message})
}

func (e *Encoder) turnEnd(t *event.TurnEnd) {
	model := cmp.Or(e.turnModel, e.model)
	e.turnModel = ""
	if t.StopReason != "" {
		e.warn("stop reasons")
	}
	if t.Error != "" {
		e.warn("turn failures (a failed turn is only the run's result error)")
	}
	if t.Usage == nil {
		return
	}
	if e.turnSum == nil {
		e.turnSum = &event.Usage{}
	}
	e.turnSum.Add(t.Usage)
	if model == "" {
		return
	}
	for i := range e.models {
		if e.models[i].name == model {
			e.models[i].u.Add(t.Usage)
			return
		}
	}
	if len(e.models) >= maxOpen {
		// The run's stats then name no model: the models' usage would
		// not add up to it.
		e.warn(fmt.Sprintf("usage per model of more than %d models", maxOpen))
		e.manyModels = true
		return
	}
	e.models = append(e.models, modelUsage{name: model, u: *t.Usage})
}

// runEnd writes the result line: the source's own when it is one, else
// one made of what the run said.
func (e *Encoder) runEnd(r *event.RunEnd) {
	if e.resulted {
		return
	}
	e.ensureInit()
	e.resulted = true
	var res gemini.Result
	if r.MetaKind == parse.MetaKind && json.Unmarshal(r.Meta, &res) == nil && res.Type == gemini.TypeResult &&
		!bytes.ContainsAny(r.Meta, "\r\n") {
		e.write([]byte(r.Meta))
		return
	}
	if r.StopReason != "" {
		e.warn("stop reasons")
	}
	if r.CostUSD != nil {
		e.warn("cost")
	}
	e.write(e.result(r))
}

// result makes a result line of r (nil at Close: no run end was read).
func (e *Encoder) result(r *event.RunEnd) gemini.Result {
	res := gemini.Result{Type: gemini.TypeResult, Status: gemini.StatusSuccess}
	if r == nil {
		r = &event.RunEnd{}
	}
	switch {
	case e.fatal != nil:
		res.Status = gemini.StatusError
		res.Error = &gemini.ErrorInfo{Type: e.fatal.Type, Message: e.fatal.Message}
	case r.IsError:
		res.Status = gemini.StatusError
		res.Error = &gemini.ErrorInfo{}
		if len(r.Errors) > 0 {
			res.Error.Message = strings.Join(r.Errors, "; ")
		}
	}
	total := r.Usage
	if total == nil {
		total = e.turnSum
	}
	if total != nil {
		if total.CacheWriteTokens > 0 {
			e.warn("cache write tokens")
		}
		s := stats(total)
		s.ToolCalls = e.toolCalls
		if r.DurationMS > 0 {
			s.DurationMS = ptr(r.DurationMS)
		}
		var sum event.Usage
		var models gemini.Models
		for _, m := range e.models {
			sum.Add(&m.u)
			models = append(models, gemini.NamedModel{Name: m.name, Stats: modelStats(&m.u)})
		}
		sum.Has = total.Has // the counts are compared
		if sum == *total && !e.manyModels {
			s.Models = models
		} else if len(models) > 0 {
			e.warn("usage per model (the turns' usage does not add up to the run's)")
		}
		res.Stats = &s
	}
	return res
}

// stats writes a usage as stream-json counts: input_tokens the input as
// the source counts it, cached its cache reads, output_tokens the output
// without the reasoning (Gemini counts thoughts apart), total_tokens input
// and output. A count the source did not give is null (total_tokens
// without both), never a made-up 0.
func stats(u *event.Usage) gemini.StreamStats {
	m := modelStats(u)
	return gemini.StreamStats{
		TotalTokens: m.TotalTokens, InputTokens: m.InputTokens, OutputTokens: m.OutputTokens,
		Cached: m.Cached, Input: m.Input,
	}
}

func modelStats(u *event.Usage) gemini.ModelStats {
	var m gemini.ModelStats
	if u.Has&event.HasInput != 0 {
		in := u.InputTokens
		m.InputTokens = &in
	}
	if u.Has&event.HasOutput != 0 {
		out := max(u.OutputTokens-u.ReasoningTokens, 0)
		m.OutputTokens = &out
	}
	if u.Has&event.HasTokens == event.HasTokens {
		total := u.InputTokens + u.OutputTokens
		m.TotalTokens = &total
	}
	if u.Has&event.HasCacheRead != 0 {
		// The cached part and the rest; null (not known) where the
		// source gave no cache read count (the rest also where it gave
		// no input count).
		cached := u.CacheReadTokens
		m.Cached = &cached
		if u.Has&event.HasInput != 0 {
			input := max(u.InputTokens-u.CacheReadTokens, 0)
			m.Input = &input
		}
	}
	return m
}

// Close ends the stream. An assistant message left open is a cut: it is
// reported, and no result is written. Otherwise a stream read to its end
// without a result line gets one made of what it said, as Gemini CLI
// always ends a run with one.
// Cut ends a stream whose input was cut off (event.Cutter): a fatal error
// held for the result line is written as an error line where it came, and
// no result line is written.
func (e *Encoder) Cut() error {
	if e.err != nil {
		return e.err
	}
	if e.fatal != nil {
		e.write(gemini.Error{Type: gemini.TypeError, Severity: gemini.SeverityError, Message: e.fatal.Message})
		e.fatal = nil
	}
	if e.err != nil {
		return e.err
	}
	return fmt.Errorf("gemini: %w: the input was cut off, no result written", event.ErrTruncated)
}

func (e *Encoder) Close() error {
	if e.err != nil {
		return e.err
	}
	if e.textOpen {
		if e.fatal != nil {
			e.write(gemini.Error{Type: gemini.TypeError, Severity: gemini.SeverityError, Message: e.fatal.Message})
		}
		if e.err != nil {
			return e.err
		}
		return fmt.Errorf("gemini: %w: an assistant message left open, no result written", event.ErrTruncated)
	}
	if !e.resulted && e.wroteInit {
		e.resulted = true
		e.write(e.result(nil))
	}
	return e.err
}
