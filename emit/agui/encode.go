package agui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentstream/agentstream/emit/internal/ssejson"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/openset"
	wire "github.com/agentstream/agentstream/internal/wire/agui"
)

// Config configures an Encoder. The zero value is ready to use.
type Config struct {
	// Agent is the scope of events whose agent is empty.
	Agent string
	// Warn receives what AG-UI cannot carry (*event.LossError). Nil
	// discards it.
	Warn func(error)
}

// Encoder writes canonical events as an AG-UI event stream. See the
// package documentation for the mapping.
type Encoder struct {
	out    *ssejson.Writer
	cfg    Config
	losses event.Losses
	err    error

	seen      bool   // the first event has set main
	main      string // the main agent: the first event's
	thread    string // threadId of the runs
	parentRun string // parentRunId: the agent that started the main one
	errored   bool   // RUN_ERROR ended the last run
	running   bool   // RUN_STARTED written, the run not ended yet
	n         int    // message ids made
	agents    map[string]*agent
	order     []*agent // agents by first event, for closing in order (and some let go of: see forgetAgent)
	// subs are the agents other than the main one, oldest first; idle
	// those of them found with nothing open after an event of theirs
	// (checked again when one is wanted). Made at the first subagent.
	subs, idle *openset.Set[string]
	cur        *agent // the agent of the event being written
	// held is a fatal error (or failed turn) of the main agent not yet
	// written: RUN_ERROR when the run ends after it (with the usage of
	// the run end that follows), the CUSTOM error when the run goes on
	// (a retry, the next response of concatenated bodies).
	held *event.Error
	// pending are the frontend tool calls the run awaits, for its
	// RUN_FINISHED's outcome.
	pending []string
	// cut: the source was cut (Cut), and no run end came after.
	cut bool
	// finished: a run ended and no other has started.
	finished bool
}

// Cut ends a stream whose source was cut (event.Cutter): as Close, but
// with no RUN_FINISHED, so that the cut stays a cut.
func (e *Encoder) Cut() error {
	e.cut = true
	return e.Close()
}

// agent is what the encoder keeps of one agent scope.
type agent struct {
	id       string
	sub      *string // subagentRunId of its events; nil for the main agent
	text     string  // open text message id
	thinking string  // open reasoning message id
	step     string  // open step (turn) name
	turns    int
	lastText string // the last text message of the turn: its tool calls' parent
	// announced: SUBAGENT_STARTED written and no SUBAGENT_FINISHED or
	// SUBAGENT_ERROR yet.
	announced  bool
	started    bool   // SUBAGENT_STARTED written in this run
	parent     string // parent agent
	parentTool string // the parent's tool call that started it
	gone       bool   // let go of (forgetAgent): no longer in agents
}

// quiet reports whether a has nothing open.
func (a *agent) quiet() bool { return a.text == "" && a.thinking == "" && a.step == "" && !a.announced }

// NewEncoder returns an encoder writing to w. cfg may be nil.
func NewEncoder(w io.Writer, cfg *Config) *Encoder {
	e := &Encoder{out: ssejson.New(w, wire.Name), agents: map[string]*agent{}}
	if cfg != nil {
		e.cfg = *cfg
	}
	return e
}

func (e *Encoder) warn(what string) { e.losses.Report(e.cfg.Warn, wire.Name, what) }

// write writes one event as an SSE message.
func (e *Encoder) write(v any) {
	if e.err == nil {
		e.err = e.out.JSON(v)
	}
}

// writeRaw writes data, a JSON object, as an SSE message, verbatim.
func (e *Encoder) writeRaw(data []byte) {
	if e.err == nil {
		e.err = e.out.Raw(data)
	}
}

func (e *Encoder) newID() string {
	e.n++
	return "agentstream-" + strconv.Itoa(e.n)
}

func ptr[T any](v T) *T { return &v }

// scope returns the state of ev's agent, and whether it is the main one.
func (e *Encoder) scope(ev event.Event) (*agent, bool) {
	id := ev.AgentID()
	if id == "" {
		id = e.cfg.Agent
	}
	if !e.seen {
		e.seen, e.main = true, id
		if s, ok := ev.(*event.SessionStart); ok && s.ParentAgent != "" {
			// A subagent's own transcript: its run was started by its
			// parent's.
			e.parentRun = s.ParentAgent
		}
		e.thread = e.main
	}
	a := e.agents[id]
	if a == nil {
		if len(e.agents) >= openset.DefaultMax {
			e.forgetAgent()
		}
		a = &agent{id: id}
		if id != e.main {
			a.sub = ptr(id)
			if e.subs == nil {
				e.subs, e.idle = openset.New[string](openset.DefaultMax+1), openset.New[string](openset.DefaultMax+1)
			}
			e.subs.Add(id)
		}
		e.agents[id] = a
		e.order = append(e.order, a)
	}
	e.cur = a
	return a, id == e.main
}

// ensureRun writes RUN_STARTED when no run is going on.
func (e *Encoder) ensureRun() {
	if e.running {
		return
	}
	e.running, e.errored, e.finished = true, false, false
	r := &wire.RunStartedEvent{Type: wire.RunStarted, ThreadID: e.thread, RunID: e.main}
	if e.parentRun != "" {
		r.ParentRunID = ptr(e.parentRun)
	}
	e.write(r)
}

// Encode writes the AG-UI events of ev.
func (e *Encoder) Encode(ev event.Event) error {
	err := e.encode(ev)
	e.noteQuiet(e.cur)
	return err
}

func (e *Encoder) encode(ev event.Event) error {
	if e.err != nil {
		return e.err
	}
	a, main := e.scope(ev)
	if h := e.held; h != nil {
		switch ev := ev.(type) {
		case *event.RunEnd:
			if main && ev.IsError {
				e.held = nil
				e.runError(h.Message, h.Type, ev.Usage)
				e.runEndLosses(ev)
				return e.err
			}
		case *event.TurnEnd, *event.Notice, *event.Citations, *event.Files, *event.FileChange, *event.TodoList, *event.AwaitingTools:
			if main || !writes(ev) {
				h = nil // the run's end may still follow
			}
		case *event.Error:
			if main && ev.Fatal {
				h = nil // failure writes both
			}
		}
		if h != nil {
			e.held = nil
			e.ensureRun()
			e.customError(e.agents[e.main], h.Message, h.Type, true)
		}
	}
	switch ev := ev.(type) {
	case *event.SessionStart:
		e.session(ev, a, main)
	case *event.TurnStart:
		e.ensureRun()
		e.endStep(a)
		a.turns++
		a.step = ev.MessageID
		if a.step == "" {
			a.step = "turn-" + strconv.Itoa(a.turns)
		}
		a.lastText = ""
		e.write(&wire.StepStartedEvent{Type: wire.StepStarted, Attributable: wire.Attributable{SubagentRunID: a.sub}, StepName: a.step})
		if ev.Model != "" {
			e.warn("models")
		}
		if ev.Usage != nil {
			e.warn("per-turn usage")
		}
	case *event.TurnEnd:
		if ev.StopReason != "" {
			e.warn("stop reasons")
		}
		if ev.Usage != nil {
			e.warn("per-turn usage")
		}
		if !e.running {
			return e.err // the turn of a run that ended with RUN_ERROR
		}
		e.endStep(a)
		if ev.Error != "" {
			e.failure(a, main, false, ev.Error, turnFailed)
		}
	case *event.BlockStart:
		e.ensureRun()
		e.startBlock(a, ev.Kind)
	case *event.Delta:
		e.ensureRun()
		id := a.open(ev.Kind)
		if id == "" {
			id = e.startBlock(a, ev.Kind)
		}
		if ev.Kind == event.Thinking {
			e.write(&wire.ReasoningMessageContentEvent{Type: wire.ReasoningMessageContent, Attributable: wire.Attributable{SubagentRunID: a.sub}, MessageID: id, Delta: ev.Text})
		} else {
			e.write(&wire.TextMessageContentEvent{Type: wire.TextMessageContent, Attributable: wire.Attributable{SubagentRunID: a.sub}, MessageID: id, Delta: ev.Text})
		}
	case *event.BlockEnd:
		if ev.Signature != "" && a.thinking != "" && e.running {
			e.write(&wire.ReasoningEncryptedValueEvent{
				Type: wire.ReasoningEncryptedValue, Attributable: wire.Attributable{SubagentRunID: a.sub},
				Subtype: wire.EncryptedMessage, EntityID: a.thinking, EncryptedValue: ev.Signature,
			})
		}
		e.endBlock(a, ev.Kind)
	case *event.Citations:
		e.warn("citations")
	case *event.ToolCall:
		e.ensureRun()
		e.toolCall(a, ev)
	case *event.ToolResult:
		e.ensureRun()
		e.toolResult(a, ev)
	case *event.Error:
		if ev.Fatal {
			e.failure(a, main, true, ev.Message, ev.Type)
			break
		}
		e.ensureRun()
		e.customError(a, ev.Message, ev.Type, false)
	case *event.RunEnd:
		e.runEnd(a, main, ev)
	case *event.Unknown:
		if !e.running && e.finished {
			// After the run's end (an AI SDK data part written after
			// finish): a RAW event would start a run of its own.
			e.warn("events after the run's end")
			break
		}
		e.ensureRun()
		e.unknown(a, ev)
	case *event.Notice:
		e.warn("notices")
	case *event.AwaitingTools:
		// The run's RUN_FINISHED names them (outcome success,
		// pendingToolCallIds); their names and inputs are the calls',
		// written before.
		if main {
			for _, p := range ev.Tools {
				if len(e.pending) >= openset.DefaultMax {
					e.warn(fmt.Sprintf("more than %d frontend tool calls awaited by one run (RUN_FINISHED names the first %d)",
						openset.DefaultMax, openset.DefaultMax))
					break
				}
				e.pending = append(e.pending, p.ID)
			}
			e.warn("the place of awaiting frontend tools (RUN_FINISHED names them)")
		} else {
			e.warn("awaiting frontend tools of subagents")
		}
	case *event.Files:
		e.warn("generated files")
	case *event.FileChange:
		e.warn("file changes")
	case *event.TodoList:
		e.warn("todo lists")
	default:
		e.warn(fmt.Sprintf("%T events", ev))
	}
	return e.err
}

// turnFailed is the error code of a failed turn, as the other formats
// name it.
const turnFailed = "turn_failed"

// writes reports whether the encoder writes anything for ev (other than
// a loss warning).
func writes(ev event.Event) bool {
	switch ev.(type) {
	case *event.Notice, *event.Citations, *event.Files, *event.FileChange, *event.TodoList, *event.AwaitingTools:
		return false // AwaitingTools waits for RUN_FINISHED
	}
	return true
}

func (a *agent) open(kind event.BlockKind) string {
	if kind == event.Thinking {
		return a.thinking
	}
	return a.text
}

func (e *Encoder) session(ev *event.SessionStart, a *agent, main bool) {
	if ev.Model != "" {
		e.warn("models")
	}
	if len(ev.Tools) > 0 || ev.Cwd != "" || ev.Prompt != "" {
		e.warn("session metadata (tools, cwd, prompt)")
	}
	if main {
		if !e.running && ev.SessionID != "" {
			e.thread = ev.SessionID
		}
		e.ensureRun()
		return
	}
	e.ensureRun()
	if a.announced {
		return
	}
	a.announced, a.parent, a.parentTool = true, ev.ParentAgent, ev.ParentToolID
	s := &wire.SubagentStartedEvent{Type: wire.SubagentStarted, SubagentRunID: a.id, Name: ev.Name}
	if ev.Description != "" {
		s.Description = ptr(ev.Description)
	}
	if ev.ParentToolID != "" {
		s.ParentToolCallID = ptr(ev.ParentToolID)
	}
	if p := e.agents[ev.ParentAgent]; p != nil && p.sub != nil && p.started {
		s.ParentSubagentRunID = p.sub
	}
	a.started = true
	e.write(s)
}

// noteQuiet adds a, if it is a subagent with nothing open, to idle.
func (e *Encoder) noteQuiet(a *agent) {
	if a != nil && a.sub != nil && e.idle != nil && !a.gone && a.quiet() {
		e.idle.Add(a.id)
	}
}

// forgetAgent lets go of a subagent: one with nothing open if there is
// one, else the one seen first, whose open messages, step and segment
// end here (warned about once). It stays in order, inert (nothing open),
// until order is compacted.
func (e *Encoder) forgetAgent() {
	var a *agent
	for {
		k, ok := e.idle.Oldest()
		if !ok {
			break
		}
		e.idle.Remove(k)
		if q := e.agents[k]; q != nil && q.quiet() {
			a = q
			break
		}
	}
	if a == nil {
		k, _ := e.subs.Oldest()
		a = e.agents[k]
		e.warn(fmt.Sprintf("more than %d agents with something open at once (the oldest's messages, step and segment end early)", openset.DefaultMax))
		e.endBlock(a, event.Thinking)
		e.endBlock(a, event.Text)
		e.endStep(a)
		if a.announced {
			e.finishSub(a, nil, "")
		}
	}
	delete(e.agents, a.id)
	e.subs.Remove(a.id)
	e.idle.Remove(a.id)
	a.gone = true
	if len(e.order) > 2*len(e.agents)+16 {
		e.order = slices.DeleteFunc(e.order, func(a *agent) bool { return a.gone })
	}
}

func (e *Encoder) startBlock(a *agent, kind event.BlockKind) string {
	e.endBlock(a, kind) // a block begun again without its end (an abandoned one)
	id := e.newID()
	at := wire.Attributable{SubagentRunID: a.sub}
	if kind == event.Thinking {
		a.thinking = id
		a.lastText = "" // a tool call after it is not part of the text message before
		e.write(&wire.ReasoningStartEvent{Type: wire.ReasoningStart, Attributable: at, MessageID: id})
		e.write(&wire.ReasoningMessageStartEvent{Type: wire.ReasoningMessageStart, Attributable: at, MessageID: id, Role: wire.RoleReasoning})
		return id
	}
	a.text, a.lastText = id, id
	e.write(&wire.TextMessageStartEvent{Type: wire.TextMessageStart, Attributable: at, MessageID: id, Role: ptr(wire.RoleAssistant)})
	return id
}

func (e *Encoder) endBlock(a *agent, kind event.BlockKind) {
	at := wire.Attributable{SubagentRunID: a.sub}
	switch {
	case kind == event.Thinking && a.thinking != "":
		id := a.thinking
		a.thinking = ""
		e.write(&wire.ReasoningMessageEndEvent{Type: wire.ReasoningMessageEnd, Attributable: at, MessageID: id})
		e.write(&wire.ReasoningEndEvent{Type: wire.ReasoningEnd, Attributable: at, MessageID: id})
	case kind == event.Text && a.text != "":
		id := a.text
		a.text = ""
		e.write(&wire.TextMessageEndEvent{Type: wire.TextMessageEnd, Attributable: at, MessageID: id})
	}
}

func (e *Encoder) endStep(a *agent) {
	if a.step == "" {
		return
	}
	a.lastText = "" // a tool call after the turn is not part of its message
	e.write(&wire.StepFinishedEvent{Type: wire.StepFinished, Attributable: wire.Attributable{SubagentRunID: a.sub}, StepName: a.step})
	a.step = ""
}

func (e *Encoder) toolCall(a *agent, ev *event.ToolCall) {
	if ev.Server {
		e.warn("server tool markers (written as tool calls)")
	}
	if ev.MCPServer != "" {
		e.warn("MCP server names")
	}
	at := wire.Attributable{SubagentRunID: a.sub}
	s := &wire.ToolCallStartEvent{Type: wire.ToolCallStart, Attributable: at, ToolCallID: ev.ID, ToolCallName: ev.Name}
	if a.lastText != "" {
		s.ParentMessageID = ptr(a.lastText)
	}
	e.write(s)
	if ev.Truncated {
		// Cut inside its arguments: what arrived of them, and no
		// TOOL_CALL_END (the reader sees the call cut, as it was).
		if partial := ev.PartialInput(); partial != "" {
			e.write(&wire.ToolCallArgsEvent{Type: wire.ToolCallArgs, Attributable: at, ToolCallID: ev.ID, Delta: partial})
		}
		return
	}
	for _, frag := range fragments(ev.Input, ev.InputDeltas) {
		e.write(&wire.ToolCallArgsEvent{Type: wire.ToolCallArgs, Attributable: at, ToolCallID: ev.ID, Delta: frag})
	}
	e.write(&wire.ToolCallEndEvent{Type: wire.ToolCallEnd, Attributable: at, ToolCallID: ev.ID})
}

// fragments splits input as the source streamed it (lengths), when the
// lengths add up and cut no UTF-8 character; else it is one fragment.
func fragments(input []byte, lengths []int) []string {
	sum := 0
	for _, n := range lengths {
		if n < 0 {
			return []string{string(input)}
		}
		sum += n
	}
	if len(lengths) < 2 || sum != len(input) {
		return []string{string(input)}
	}
	out := make([]string, 0, len(lengths))
	off := 0
	for _, n := range lengths {
		if off+n < len(input) && !utf8.RuneStart(input[off+n]) {
			return []string{string(input)}
		}
		out = append(out, string(input[off:off+n]))
		off += n
	}
	return out
}

func (e *Encoder) toolResult(a *agent, ev *event.ToolResult) {
	if ev.IsError {
		e.warn("tool result is_error")
	}
	if ev.ExitCode != nil {
		e.warn("exit codes")
	}
	if ev.Status != "" {
		e.warn("tool statuses")
	}
	if len(ev.Structured) > 0 {
		e.warn("structured tool output")
	}
	if ev.Server {
		e.warn("server tool markers (written as tool calls)")
		if ev.Name != "" {
			e.warn("server tool result types (read back, a result takes its call's name)")
		}
	}
	e.write(&wire.ToolCallResultEvent{
		Type: wire.ToolCallResult, Attributable: wire.Attributable{SubagentRunID: a.sub},
		MessageID: e.newID(), ToolCallID: ev.ID, Content: e.content(ev.Content), Role: ptr(wire.RoleTool),
	})
	// The subagent this call started has given its answer.
	for _, s := range e.order {
		if s.announced && s.parentTool == ev.ID && s.parent == a.id {
			e.finishSub(s, nil, "")
		}
	}
}

// content returns a tool result's content: a string for one text part
// (or none), else the parts.
func (e *Encoder) content(parts []event.Part) json.RawMessage {
	if len(parts) == 0 {
		return json.RawMessage(`""`)
	}
	if len(parts) == 1 && parts[0].Type == "text" {
		b, _ := json.Marshal(parts[0].Text)
		return b
	}
	out := make([]wire.Part, 0, len(parts))
	for _, p := range parts {
		switch p.Type {
		case "text":
			out = append(out, wire.Part{Type: wire.PartText, Text: ptr(p.Text)})
		case "image":
			out = append(out, wire.Part{Type: wire.PartImage, Source: imageSource(p)})
		default:
			// A part of a type AG-UI has no place for (an MCP
			// resource, say) as its text, as the other formats write it.
			e.warn("tool result part types other than text and images (written as text)")
			out = append(out, wire.Part{Type: wire.PartText, Text: ptr(p.Text)})
		}
	}
	b, _ := json.Marshal(out)
	return b
}

// imageSource returns the source of an image part: a data URI's bytes
// (base64) and media type, or a URL.
func imageSource(p event.Part) *wire.Source {
	if rest, ok := strings.CutPrefix(p.Source, "data:"); ok {
		if meta, data, ok := strings.Cut(rest, ","); ok {
			if mt, ok := strings.CutSuffix(meta, ";base64"); ok {
				if mt == "" {
					mt = p.MediaType
				}
				return &wire.Source{Type: wire.SourceData, Value: data, MimeType: ptr(mt)}
			}
		}
	}
	s := &wire.Source{Type: wire.SourceURL, Value: p.Source}
	if p.MediaType != "" {
		s.MimeType = ptr(p.MediaType)
	}
	return s
}

// failure writes an error that ended agent a's run (a fatal error, a
// failed turn): RUN_ERROR for the main agent, SUBAGENT_ERROR for an
// announced subagent, the CUSTOM error otherwise.
func (e *Encoder) failure(a *agent, main, fatal bool, msg, code string) {
	switch {
	case main:
		if e.errored {
			return // the run's RUN_ERROR is written
		}
		if h := e.held; h != nil {
			// Two reports (an error, then the turn it failed): the run
			// ends with the last, the first is the CUSTOM error.
			e.ensureRun()
			e.customError(e.agents[e.main], h.Message, h.Type, true)
		}
		e.held = &event.Error{Message: msg, Type: code}
	case a.announced:
		e.finishSub(a, &msg, "")
	default:
		e.ensureRun()
		e.customError(a, msg, code, fatal)
	}
}

// runError writes RUN_ERROR and ends the run. What the run has open
// ends first: what was streamed of a message the error cut short is what
// AG-UI's client keeps of it.
func (e *Encoder) runError(msg, code string, u *event.Usage) {
	for _, a := range e.order {
		e.endBlock(a, event.Thinking)
		e.endBlock(a, event.Text)
		e.endStep(a)
	}
	r := &wire.RunErrorEvent{Type: wire.RunError, Message: msg, Usage: tokenUsage(u)}
	if code != "" {
		r.Code = ptr(code)
	}
	e.write(r)
	e.endRun()
	e.errored = true
}

// customError writes a non-fatal error. A message it cut short stays
// open until the agent's next message of its kind (a retry) ends it.
func (e *Encoder) customError(a *agent, msg, typ string, fatal bool) {
	v, _ := json.Marshal(wire.ErrorValue{Message: msg, Type: typ, Fatal: fatal})
	e.write(&wire.CustomEvent{Type: wire.Custom, Attributable: wire.Attributable{SubagentRunID: a.sub}, Name: wire.CustomError, Value: v})
}

// endRun forgets what the run had open: AG-UI takes nothing after
// RUN_FINISHED or RUN_ERROR but a new RUN_STARTED.
func (e *Encoder) endRun() {
	e.running, e.pending, e.finished = false, nil, true
	for _, a := range e.order {
		a.text, a.thinking, a.step, a.lastText, a.announced, a.started = "", "", "", "", false, false
		e.noteQuiet(a)
	}
}

// finishSub ends an announced subagent's segment: SUBAGENT_ERROR with
// *failed, else SUBAGENT_FINISHED with its result text, if any.
func (e *Encoder) finishSub(a *agent, failed *string, result string) {
	a.announced, a.lastText = false, ""
	e.endBlock(a, event.Thinking)
	e.endBlock(a, event.Text)
	e.endStep(a)
	e.noteQuiet(a)
	if failed != nil {
		e.write(&wire.SubagentErrorEvent{Type: wire.SubagentError, SubagentRunID: a.id, Message: *failed})
		return
	}
	f := &wire.SubagentFinishedEvent{Type: wire.SubagentFinished, SubagentRunID: a.id}
	if result != "" {
		f.Result, _ = json.Marshal(result)
	}
	e.write(f)
}

func (e *Encoder) runEndLosses(ev *event.RunEnd) {
	if ev.StopReason != "" {
		e.warn("stop reasons")
	}
	if ev.CostUSD != nil {
		e.warn("cost")
	}
}

func (e *Encoder) runEnd(a *agent, main bool, ev *event.RunEnd) {
	e.runEndLosses(ev)
	if main {
		e.cut = false // the run's end came after all
	}
	if !main {
		if ev.Usage != nil {
			e.warn("subagent usage")
		}
		if !a.announced {
			return
		}
		e.endBlock(a, event.Thinking)
		e.endBlock(a, event.Text)
		e.endStep(a)
		if ev.IsError {
			msg := failureText(ev)
			e.finishSub(a, &msg, "")
			return
		}
		e.finishSub(a, nil, ev.Result)
		return
	}
	if e.errored && ev.IsError {
		if ev.Usage != nil {
			e.warn("usage of a run that failed before its end")
		}
		return // its RUN_ERROR is written
	}
	e.ensureRun()
	usage := tokenUsage(ev.Usage)
	if ev.IsError {
		e.runError(failureText(ev), "", ev.Usage)
		return
	}
	e.closeAll()
	f := &wire.RunFinishedEvent{Type: wire.RunFinished, ThreadID: e.thread, RunID: e.main, Usage: usage, Outcome: e.outcome()}
	if ev.Result != "" {
		f.Result, _ = json.Marshal(ev.Result)
	}
	e.write(f)
	e.endRun()
}

// outcome returns the outcome of the run finishing: success with the
// frontend tool calls it awaits, when there are any (absent otherwise, as
// an absent outcome is a success).
func (e *Encoder) outcome() *wire.Outcome {
	if len(e.pending) == 0 {
		return nil
	}
	o := &wire.Outcome{Type: wire.OutcomeSuccess, PendingToolCallIDs: e.pending}
	e.pending = nil
	return o
}

func failureText(ev *event.RunEnd) string {
	if len(ev.Errors) > 0 {
		return strings.Join(ev.Errors, "; ")
	}
	return ev.Result
}

// closeAll ends what is open, before RUN_FINISHED: every agent's
// messages and steps, and the announced subagents.
func (e *Encoder) closeAll() {
	for _, a := range e.order {
		e.endBlock(a, event.Thinking)
		e.endBlock(a, event.Text)
		e.endStep(a)
	}
	for _, s := range e.order {
		if s.announced {
			e.finishSub(s, nil, "")
		}
	}
}

// tokenUsage returns u in AG-UI's accounting: inputTokens is the total,
// the cache counts its parts. A count the source did not say is absent.
func tokenUsage(u *event.Usage) []wire.TokenUsage {
	if u == nil {
		return nil
	}
	var t wire.TokenUsage
	if u.Has&(event.HasInput|event.HasCacheRead|event.HasCacheWrite) != 0 {
		t.InputTokens = ptr(u.InputTokens + u.CacheReadTokens + u.CacheWriteTokens)
	}
	if u.Has&event.HasOutput != 0 {
		t.OutputTokens = ptr(u.OutputTokens)
	}
	if u.Has&event.HasCacheRead != 0 {
		t.CachedInputTokens = ptr(u.CacheReadTokens)
	}
	if u.Has&event.HasCacheWrite != 0 {
		t.CacheWriteInputTokens = ptr(u.CacheWriteTokens)
	}
	if u.Has&event.HasReasoning != 0 {
		t.ReasoningTokens = ptr(u.ReasoningTokens)
	}
	return []wire.TokenUsage{t}
}

func (e *Encoder) unknown(a *agent, ev *event.Unknown) {
	if ev.Format == wire.Name && json.Valid(ev.Raw) && bytes.HasPrefix(bytes.TrimSpace(ev.Raw), []byte("{")) {
		var c bytes.Buffer
		if json.Compact(&c, ev.Raw) == nil {
			e.writeRaw(c.Bytes())
			return
		}
	}
	raw := json.RawMessage(ev.Raw)
	if !json.Valid(raw) {
		raw, _ = json.Marshal(string(ev.Raw))
	} else {
		var c bytes.Buffer
		if json.Compact(&c, raw) == nil {
			raw = c.Bytes()
		}
	}
	r := &wire.RawEvent{Type: wire.Raw, Attributable: wire.Attributable{SubagentRunID: a.sub}, Event: raw}
	if ev.Format != "" {
		r.Source = ptr(ev.Format)
	}
	e.write(r)
}

// Close ends the stream: RUN_FINISHED when the run is going on and nothing
// of it is open; nothing, and an error wrapping event.ErrTruncated, when a
// message or the main agent's turn is, or Cut said the source was cut.
func (e *Encoder) Close() error {
	if h := e.held; h != nil {
		e.held = nil
		if e.cut {
			// Cut after the error: whether the run ended with it is
			// not known.
			e.customError(e.agents[e.main], h.Message, h.Type, true)
		} else {
			e.runError(h.Message, h.Type, nil)
		}
	}
	if e.err != nil || !e.running {
		return e.err
	}
	if e.cut {
		return fmt.Errorf("%s: %w: the source was cut, no RUN_FINISHED written", wire.Name, event.ErrTruncated)
	}
	var open []string
	for _, a := range e.order {
		if a.text != "" {
			open = append(open, "text message "+a.text)
		}
		if a.thinking != "" {
			open = append(open, "reasoning message "+a.thinking)
		}
		if a.sub == nil && a.step != "" {
			open = append(open, "step "+strconv.Quote(a.step))
		}
	}
	if len(open) > 0 {
		return fmt.Errorf("%s: %w: %s left open, no RUN_FINISHED written", wire.Name, event.ErrTruncated, strings.Join(open, ", "))
	}
	e.closeAll()
	e.write(&wire.RunFinishedEvent{Type: wire.RunFinished, ThreadID: e.thread, RunID: e.main, Outcome: e.outcome()})
	e.endRun()
	return e.err
}
