package acp

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/openset"
	wire "github.com/agentstream/agentstream/internal/wire/acp"
	"github.com/agentstream/agentstream/parse/acp"
)

// Name is the format's name.
const Name = acp.Name

// DefaultSessionID is the sessionId written when the stream names no
// session and Config.Agent is empty: every session/update must name one.
const DefaultSessionID = "agentstream"

// PromptRequestID is the id of the session/prompt response written for a
// source that is not ACP (an ACP source's response keeps its own): the id
// the ACP SDK's client gives its first session/prompt, after initialize
// (0) and session/new (1).
const PromptRequestID = 2

// NoRunEnd is the loss reported for a run whose end ACP cannot say: a
// source that names no stop reason of ACP's (Codex, a model response that
// waits for its tool results). No session/prompt response is written, so
// the output reads back as a prompt turn cut short.
const NoRunEnd = "a run end without a stop reason of ACP's (no session/prompt response is written: the output reads as cut)"

// DefaultMaxHeld is the Config.MaxHeld used when it is <= 0: the bytes of
// the messages held before the first prompt turn (an initialize and a
// session/new response and the updates that follow them, a few KB from
// the real agents).
const DefaultMaxHeld = 1 << 20

// LiveSetupCut is the loss reported for a live session cut before its
// first prompt turn: its setup answers were written as they arrived (see
// Encoder.Flush), and alone they read as a session that ended.
const LiveSetupCut = "the cut of a live session cut before its first prompt turn (its setup answers, written as they arrived, read as a session that ended)"

// SetupCut is the loss reported for a session cut before its first
// prompt turn: its setup answers and the updates that followed them,
// written alone, would read as a session that ended, so none is written.
const SetupCut = "the setup of a session cut before its first prompt turn (its initialize and session/new responses alone would read as a session that ended: nothing is written)"

// Config configures an Encoder. The zero value is ready to use.
type Config struct {
	// Agent is the sessionId written when the stream names none.
	Agent string
	// Warn receives what ACP cannot carry, once per kind. Nil discards
	// it.
	Warn func(error)
	// MaxOpen caps the tool calls kept until their result, and the
	// file changes until their end (openset.DefaultMax, 1024, if <= 0):
	// beyond it the one kept longest is let go of, reported once; a
	// result that comes for it later announces its call again.
	MaxOpen int
	// MaxHeld caps the bytes of the messages held before the first
	// prompt turn (DefaultMaxHeld if <= 0): past it they are written as
	// they come, and a cut before the first prompt turn reads as a
	// session that ended (reported when it happens).
	MaxHeld int
}

// Encoder writes canonical events as the JSON-RPC messages an ACP agent
// sends for them. See the package documentation.
type Encoder struct {
	w   io.Writer
	cfg Config
	buf bytes.Buffer
	enc *json.Encoder
	err error

	main     string // the agent scope written; set by the first event
	haveMain bool
	session  string // the sessionId written
	haveSess bool

	open       map[event.BlockKind]bool // blocks open
	tools      *openset.Set[string]     // tool calls written and not yet given their result, by id
	lastStop   string                   // the main agent's last turn's stop reason
	msgID      string                   // the open turn's message id, written on its chunks
	usage      event.Usage              // the turns' usage, summed
	anyUsage   bool
	stopTurns  int                  // turns that ended with a stop reason
	usageTurns int                  // turns that gave usage (at their start or end)
	turnUsage  bool                 // the open turn gave usage at its start
	lastErr    string               // the last non-fatal error's message
	answered   bool                 // the session/prompt response (or error) was written
	failure    *event.Error         // the fatal error whose response ends the run, not written yet
	fileCalls  *openset.Set[string] // tool calls written for file changes outside a tool call, not yet ended
	losses     event.Losses

	// The messages that begin no prompt turn (the setup answers, updates
	// such as available_commands_update), held until one does: a cut
	// before it writes none of them (see send).
	before  bytes.Buffer
	begun   bool // a message of a prompt turn (or its end) was written
	spilled bool // before passed MaxHeld: messages are no longer held
	live    bool // the input is live (SetLive): Flush writes what is held
	leaked  bool // Flush wrote held messages before a prompt turn began
}

// NewEncoder returns an encoder writing to w. cfg may be nil.
func NewEncoder(w io.Writer, cfg *Config) *Encoder {
	e := &Encoder{w: w, open: map[event.BlockKind]bool{}}
	if cfg != nil {
		e.cfg = *cfg
	}
	e.tools = openset.New[string](e.cfg.MaxOpen)
	e.fileCalls = openset.New[string](e.cfg.MaxOpen)
	e.enc = json.NewEncoder(&e.buf)
	e.enc.SetEscapeHTML(false)
	return e
}

func (e *Encoder) warn(what string) { e.losses.Report(e.cfg.Warn, Name, what) }

// write writes one message as a line.
func (e *Encoder) write(v any) {
	if e.err != nil {
		return
	}
	e.buf.Reset()
	if err := e.enc.Encode(v); err != nil {
		e.err = err
		return
	}
	e.send(e.buf.Bytes(), false)
}

// writeRaw writes a message kept verbatim, compacted onto one line.
func (e *Encoder) writeRaw(raw []byte) { e.raw(raw, false) }

// keepRaw writes a message kept verbatim that begins no prompt turn, held
// while no turn has begun (see send).
func (e *Encoder) keepRaw(raw []byte) { e.raw(raw, true) }

func (e *Encoder) raw(raw []byte, hold bool) {
	if e.err != nil {
		return
	}
	e.buf.Reset()
	if err := json.Compact(&e.buf, raw); err != nil {
		e.err = err
		return
	}
	e.buf.WriteByte('\n')
	e.send(e.buf.Bytes(), hold)
}

// send writes line. A message that begins no prompt turn (hold) is held
// while no turn has begun: an agent's output of setup answers and updates
// alone is a session that ended with no prompt, so what a cut before the
// first prompt turn leaves must not be written as that (Cut drops it).
// The first message of a turn, or the output's end (Close), writes what
// is held first, in the order it came. The acp decoder holds a session's
// start, and the updates behind it, until its prompt or first update
// likewise, so from an ACP source this delays next to nothing.
func (e *Encoder) send(line []byte, hold bool) {
	if hold && !e.begun && !e.spilled {
		if e.before.Len()+len(line) <= e.maxHeld() {
			e.before.Write(line)
			return
		}
		e.spilled = true // past the cap: written as it comes
	}
	if !hold {
		e.begun = true
	}
	e.flushHeld()
	if e.err == nil {
		_, e.err = e.w.Write(line)
	}
}

func (e *Encoder) maxHeld() int {
	if e.cfg.MaxHeld > 0 {
		return e.cfg.MaxHeld
	}
	return DefaultMaxHeld
}

// SetLive says whether the input being read is live: a pipe, a URL or a
// file followed, where a read may wait for data that has not arrived
// (convert.AbandonHold passes its own SetLive on).
func (e *Encoder) SetLive(live bool) { e.live = live }

// Flush, called when the input has nothing more buffered, writes the
// messages held before the first prompt turn when the input is live, so
// that they leave as they arrive; a cut before the first prompt turn then
// leaves them written, reported (LiveSetupCut). A file read to its end
// holds them, and a cut drops them.
func (e *Encoder) Flush() error {
	if e.live && e.before.Len() > 0 {
		e.flushHeld()
		e.leaked = true
	}
	return e.err
}

// flushHeld writes the messages held before the first prompt turn.
func (e *Encoder) flushHeld() {
	if e.before.Len() > 0 && e.err == nil {
		_, e.err = e.w.Write(e.before.Bytes())
	}
	e.before.Reset()
}

type notification struct {
	JSONRPC string `json:"jsonrpc"`
	Method  string `json:"method"`
	Params  params `json:"params"`
}

type params struct {
	SessionID string `json:"sessionId"`
	Update    any    `json:"update"`
}

type response struct {
	JSONRPC string      `json:"jsonrpc"`
	ID      int         `json:"id"`
	Result  any         `json:"result,omitempty"`
	Error   *wire.Error `json:"error,omitempty"`
}

func (e *Encoder) update(u any) {
	e.write(notification{JSONRPC: wire.Version, Method: wire.MethodSessionUpdate, Params: params{SessionID: e.sessionID(), Update: u}})
}

func (e *Encoder) sessionID() string {
	if !e.haveSess {
		e.haveSess = true
		e.session = e.cfg.Agent
		if e.session == "" {
			e.session = DefaultSessionID
		}
	}
	return e.session
}

// isMain reports whether ev belongs to the agent written, fixing it at
// the first event; the events of other agents (subagents) are dropped.
func (e *Encoder) isMain(ev event.Event) bool {
	if !e.haveMain {
		if s, ok := ev.(*event.SessionStart); !ok || s.ParentAgent == "" {
			e.haveMain, e.main = true, ev.AgentID()
		}
	}
	if e.haveMain && ev.AgentID() == e.main {
		return true
	}
	e.warn("the output of subagents (ACP has one agent per session)")
	return false
}

// Encode writes what ev completes.
func (e *Encoder) Encode(ev event.Event) error {
	if e.err != nil {
		return e.err
	}
	if !e.isMain(ev) {
		return nil
	}
	switch ev := ev.(type) {
	case *event.SessionStart:
		e.start(ev)
	case *event.BlockStart:
		e.open[ev.Kind] = true
	case *event.Delta:
		e.chunk(ev.Kind, ev.Text)
	case *event.BlockEnd:
		delete(e.open, ev.Kind)
		if ev.Signature != "" {
			e.warn("thinking signatures")
		}
	case *event.Citations:
		e.warn("citations")
	case *event.ToolCall:
		e.toolCall(ev)
	case *event.ToolResult:
		e.toolResult(ev)
	case *event.FileChange:
		e.fileChange(ev)
	case *event.TodoList:
		e.plan(ev)
	case *event.Error:
		e.error(ev)
	case *event.TurnStart:
		e.msgID = ev.MessageID
		e.turnUsage = ev.Usage != nil
		if ev.Model != "" {
			e.warn("models of messages (ACP names a session's model only, in the session/new response)")
		}
	case *event.TurnEnd:
		e.turnEnd(ev)
	case *event.RunEnd:
		e.runEnd(ev)
	case *event.Notice:
		if acp.AgentMethod(ev.Kind) && agentMessage(ev.Raw) {
			e.writeRaw(ev.Raw) // an agent's request, read from ACP: never held (its client answers it)
			return e.err
		}
		e.warn("notices")
	case *event.Unknown:
		if ev.Format == Name && agentMessage(ev.Raw) {
			if beginsTurn(ev.Type) {
				e.writeRaw(ev.Raw)
			} else {
				e.keepRaw(ev.Raw)
			}
			return e.err
		}
		e.warn("unknown events of other formats")
	case *event.AwaitingTools:
		e.warn("awaiting-tools pauses")
	case *event.Files:
		e.warn("generated file lists")
	}
	return e.err
}

// beginsTurn reports whether an update of type typ, kept as unknown by
// the acp decoder (an image chunk, a tool call without its id), begins a
// prompt turn when read: the acp decoder takes the chunks, tool calls and
// plans for a turn's updates, and a turn left without its response for
// a cut.
func beginsTurn(typ string) bool {
	switch typ {
	case wire.UpdateAgentMessageChunk, wire.UpdateAgentThoughtChunk, wire.UpdateUserMessageChunk,
		wire.UpdateToolCall, wire.UpdateToolCallUpdate, wire.UpdatePlan:
		return true
	}
	return false
}

// acpMessage reports whether raw is a JSON-RPC 2.0 message (kept by the
// acp decoder).
func acpMessage(raw []byte) bool {
	var m wire.Message
	return json.Unmarshal(raw, &m) == nil && m.JSONRPC == wire.Version
}

// agentMessage reports whether raw is a JSON-RPC 2.0 message an agent
// sends: a response, or a method agents call. What a transcript's client
// sent is not written as the agent's.
func agentMessage(raw []byte) bool {
	var m wire.Message
	return json.Unmarshal(raw, &m) == nil && m.JSONRPC == wire.Version && (m.Method == "" || acp.AgentMethod(m.Method))
}

// start writes a session's start: an ACP source's initialize and
// session/new responses as they were (held until a prompt turn begins,
// see send), then the prompt as a user_message_chunk. Other sources give
// no protocol version and no request ids: no response is made up for
// them.
func (e *Encoder) start(s *event.SessionStart) {
	if !e.haveSess {
		e.haveSess = true
		e.session = s.SessionID
		if e.session == "" {
			e.session = s.Agent
		}
		if e.session == "" {
			e.session = e.cfg.Agent
		}
		if e.session == "" {
			e.session = DefaultSessionID
		}
	}
	if s.MetaKind == acp.MetaKind {
		var meta wire.SessionMeta
		if json.Unmarshal(s.Meta, &meta) == nil {
			for _, raw := range meta.Responses() {
				e.keepRaw(raw)
			}
		}
	} else if s.Model != "" || len(s.Tools) > 0 || s.Cwd != "" {
		e.warn("the session's model, tools and cwd (no session/new response is written for a source that is not ACP)")
	}
	if s.Prompt != "" {
		e.update(wire.Chunk{SessionUpdate: wire.UpdateUserMessageChunk, Content: textBlock(s.Prompt)})
	}
}

func textBlock(text string) json.RawMessage {
	b, _ := json.Marshal(wire.TextBlock{Type: wire.BlockText, Text: text})
	return b
}

func (e *Encoder) chunk(kind event.BlockKind, text string) {
	u := wire.UpdateAgentMessageChunk
	if kind == event.Thinking {
		u = wire.UpdateAgentThoughtChunk
	}
	e.update(wire.Chunk{SessionUpdate: u, MessageID: e.msgID, Content: textBlock(text)})
}

// toolKinds maps the tool names agentstream reads to ACP's tool kinds;
// a name not here gets no kind (ACP's default is other).
var toolKinds = map[string]string{
	"Bash": wire.KindExecute, "bash": wire.KindExecute, "shell": wire.KindExecute, "local_shell": wire.KindExecute,
	"command_execution": wire.KindExecute, "run_shell_command": wire.KindExecute,
	"Read": wire.KindRead, "read": wire.KindRead, "read_file": wire.KindRead,
	"Edit": wire.KindEdit, "MultiEdit": wire.KindEdit, "Write": wire.KindEdit, "edit": wire.KindEdit,
	"write": wire.KindEdit, "write_file": wire.KindEdit, "replace": wire.KindEdit, "apply_patch": wire.KindEdit,
	"Grep": wire.KindSearch, "Glob": wire.KindSearch, "grep": wire.KindSearch, "glob": wire.KindSearch,
	"WebFetch": wire.KindFetch, "webfetch": wire.KindFetch, "web_fetch": wire.KindFetch,
}

func (e *Encoder) toolCall(c *event.ToolCall) {
	if c.Server {
		e.warn("server tool calls as such (written as the agent's own)")
	}
	if c.MCPServer != "" {
		e.warn("MCP server names")
	}
	title := c.Name
	e.hold(e.tools, c.ID)
	e.update(wire.ToolCall{
		SessionUpdate: wire.UpdateToolCall, ToolCallID: c.ID, Title: &title, Kind: toolKinds[c.Name],
		RawInput: c.Input,
	})
}

func (e *Encoder) toolResult(r *event.ToolResult) {
	if !e.tools.Has(r.ID) {
		// A result whose call was not written (a source that gives
		// results only), or was let go of: ACP announces a call before
		// it updates it.
		title := r.Name
		e.update(wire.ToolCall{SessionUpdate: wire.UpdateToolCall, ToolCallID: r.ID, Title: &title, Kind: toolKinds[r.Name]})
	}
	status := wire.StatusCompleted
	if r.IsError || r.Status == wire.StatusFailed {
		status = wire.StatusFailed
	}
	if r.Status != "" && r.Status != status && !(r.Status == "error" && status == wire.StatusFailed) {
		e.warn("tool result statuses beyond completed and failed")
	}
	if r.ExitCode != nil && len(r.Structured) == 0 {
		e.warn("exit codes outside a structured result")
	}
	u := wire.ToolCall{SessionUpdate: wire.UpdateToolCallUpdate, ToolCallID: r.ID, Status: status}
	for _, p := range r.Content {
		u.Content = append(u.Content, e.content(p))
	}
	if len(r.Structured) > 0 {
		u.RawOutput = r.Structured
	}
	e.update(u)
	e.tools.Remove(r.ID) // the call is over
}

// hold keeps id in set, letting go of the one kept longest beyond the
// cap (reported once).
func (e *Encoder) hold(set *openset.Set[string], id string) {
	if _, out := set.Add(id); out {
		e.warn(fmt.Sprintf("more than %d tool calls or file changes open at once (the oldest let go of: a result that comes for it later announces its call again)", set.Max()))
	}
}

// content is a result part as a tool call content item: text and data
// URI images as content blocks, a diff or another item kept by the acp
// decoder as it was.
func (e *Encoder) content(p event.Part) json.RawMessage {
	var v any
	switch p.Type {
	case "text":
		v = wire.WrappedContent{Type: wire.ContentContent, Content: wire.TextBlock{Type: wire.BlockText, Text: p.Text}}
	case "image":
		if mime, data, ok := dataURI(p.Source); ok {
			v = wire.WrappedContent{Type: wire.ContentContent, Content: wire.ImageBlock{Type: wire.BlockImage, Data: data, MimeType: mime}}
			break
		}
		e.warn("images by URL (ACP images are data)")
		v = wire.WrappedContent{Type: wire.ContentContent, Content: wire.TextBlock{Type: wire.BlockText, Text: p.Source}}
	case acp.ContentPart:
		var block wire.ContentBlock
		if json.Unmarshal([]byte(p.Text), &block) == nil && block.Type != "" {
			return wrap(json.RawMessage(p.Text)) // a content block, as read
		}
		e.warn("result parts other than text and images (written as text)")
		v = wire.WrappedContent{Type: wire.ContentContent, Content: wire.TextBlock{Type: wire.BlockText, Text: p.Text}}
	default:
		var item wire.ToolCallContent
		if json.Unmarshal([]byte(p.Text), &item) == nil && item.Type == p.Type && (p.Type == wire.ContentDiff || p.Type == wire.ContentTerminal) {
			return json.RawMessage(p.Text) // a diff or terminal item, as read
		}
		e.warn("result parts other than text and images (written as text)")
		v = wire.WrappedContent{Type: wire.ContentContent, Content: wire.TextBlock{Type: wire.BlockText, Text: p.Text}}
	}
	b, _ := json.Marshal(v)
	return b
}

func wrap(block json.RawMessage) json.RawMessage {
	b, _ := json.Marshal(wire.WrappedContent{Type: wire.ContentContent, Content: block})
	return b
}

// dataURI splits a base64 data URI into its media type and data.
func dataURI(s string) (mime, data string, ok bool) {
	rest, ok := strings.CutPrefix(s, "data:")
	if !ok {
		return "", "", false
	}
	head, data, ok := strings.Cut(rest, ",")
	mime, b64 := strings.CutSuffix(head, ";base64")
	return mime, data, ok && b64 && mime != ""
}

// fileChange writes a file change the source made outside a tool call
// (Codex's file_change) as an edit tool call; one the acp decoder read
// from a tool call's diff is in that call's content already.
func (e *Encoder) fileChange(f *event.FileChange) {
	status := wire.StatusInProgress
	switch f.Status {
	case wire.StatusCompleted:
		status = wire.StatusCompleted
	case wire.StatusFailed, "declined":
		status = wire.StatusFailed
	}
	if e.tools.Has(f.ID) {
		if status == wire.StatusInProgress {
			return
		}
		if !e.fileCalls.Has(f.ID) {
			return // the tool call's result carries it
		}
		e.update(wire.ToolCall{SessionUpdate: wire.UpdateToolCallUpdate, ToolCallID: f.ID, Status: status})
		e.tools.Remove(f.ID)
		e.fileCalls.Remove(f.ID) // the change is over
		return
	}
	e.warn("the kinds of file changes (add, update, delete)")
	var paths []string
	var locs []wire.Location
	kind := wire.KindEdit
	for _, c := range f.Changes {
		paths = append(paths, c.Path)
		locs = append(locs, wire.Location{Path: c.Path})
		if c.Kind == "delete" && len(f.Changes) == 1 {
			kind = wire.KindDelete
		}
	}
	title := strings.Join(paths, ", ")
	if status == wire.StatusInProgress {
		// Its end is to come: kept for it.
		e.hold(e.tools, f.ID)
		e.hold(e.fileCalls, f.ID)
	}
	e.update(wire.ToolCall{SessionUpdate: wire.UpdateToolCall, ToolCallID: f.ID, Title: &title, Kind: kind, Status: status, Locations: locs})
}

// plan writes a todo list as a plan. Each entry's priority, which the
// schema requires and the event model does not keep, is medium.
func (e *Encoder) plan(t *event.TodoList) {
	entries := make([]wire.PlanEntry, 0, len(t.Items))
	for _, it := range t.Items {
		status := it.Status
		switch status {
		case wire.PlanPending, wire.PlanInProgress, wire.PlanCompleted:
		default:
			e.warn("todo statuses beyond pending, in_progress and completed (written as pending)")
			status = wire.PlanPending
		}
		entries = append(entries, wire.PlanEntry{Content: it.Text, Priority: wire.PriorityMedium, Status: status})
	}
	e.update(wire.Plan{SessionUpdate: wire.UpdatePlan, Entries: entries})
}

// error keeps the first fatal error for the session/prompt's error
// response (an ACP source's as it was), written when the run ends (see
// fail); a non-fatal one has no place in ACP.
func (e *Encoder) error(ev *event.Error) {
	if !ev.Fatal {
		e.lastErr = ev.Message
		e.warn("non-fatal errors")
		return
	}
	if !e.answered && e.failure == nil {
		e.failure = ev
	}
}

// fail writes the error response of the fatal error kept, if any, and
// reports whether it did. The response ends the prompt turn, so it waits
// for the run's end (the run end, or the input's end): a stream cut
// after the error but before its run ended stays cut (see Cut).
func (e *Encoder) fail() bool {
	ev := e.failure
	if ev == nil || e.answered {
		return false
	}
	e.failure, e.answered = nil, true
	var m wire.Message
	if json.Unmarshal(ev.Raw, &m) == nil && m.JSONRPC == wire.Version && m.Error != nil {
		e.writeRaw(ev.Raw)
		return true
	}
	e.writeError(ev.Message, ev.Type, ev.Raw)
	return true
}

// writeError writes the error response: the code is the error's type when
// that is an integer (an HTTP status, as Gemini's agent sends), else
// JSON-RPC's internal error; data is the source's error payload.
func (e *Encoder) writeError(msg, typ string, raw json.RawMessage) {
	msg = cmp.Or(msg, typ, "error") // the schema requires a message
	code := int64(wire.CodeInternalError)
	if n, err := strconv.ParseInt(typ, 10, 32); err == nil {
		code = n
	} else if typ != "" && len(raw) == 0 {
		raw, _ = json.Marshal(map[string]string{"type": typ})
	}
	if !json.Valid(raw) {
		raw = nil
	}
	e.write(response{JSONRPC: wire.Version, ID: PromptRequestID, Error: &wire.Error{Code: code, Message: msg, Data: raw}})
}

func (e *Encoder) turnEnd(t *event.TurnEnd) {
	e.lastStop, e.msgID = t.StopReason, ""
	if t.CostUSD != nil {
		e.warn("cost (usage_update needs the context window size)")
	}
	if u := t.Usage; u != nil {
		e.anyUsage = true
		e.usage.Add(u)
		if u.ServiceTier != "" {
			e.warn("service tiers")
		}
	}
	// One response per prompt turn: what more than one model turn says
	// of itself is summed, or the last one's.
	if t.Usage != nil || e.turnUsage {
		if e.usageTurns++; e.usageTurns == 2 {
			e.warn("per-turn usage (the session/prompt response carries the run's usage, summed)")
		}
	}
	e.turnUsage = false
	if t.StopReason != "" {
		if e.stopTurns++; e.stopTurns == 2 {
			e.warn("per-turn stop reasons (the session/prompt response carries the run's stop reason only)")
		}
	}
	if t.Error != "" {
		e.error(&event.Error{Agent: t.Agent, Message: t.Error, Fatal: true})
	}
}

// stopReasons maps the stop reasons of the formats agentstream reads to
// ACP's. A reason that means the run goes on (tool use) maps to "".
var stopReasons = map[string]string{
	wire.StopEndTurn: wire.StopEndTurn, "stop": wire.StopEndTurn, "STOP": wire.StopEndTurn, "stop_sequence": wire.StopEndTurn,
	"completed":        wire.StopEndTurn,
	wire.StopMaxTokens: wire.StopMaxTokens, "length": wire.StopMaxTokens, "MAX_TOKENS": wire.StopMaxTokens,
	"max_output_tokens": wire.StopMaxTokens, "model_context_window_exceeded": wire.StopMaxTokens,
	wire.StopRefusal: wire.StopRefusal, "content_filter": wire.StopRefusal, "SAFETY": wire.StopRefusal,
	wire.StopMaxTurnRequests: wire.StopMaxTurnRequests, "max_turns": wire.StopMaxTurnRequests, "error_max_turns": wire.StopMaxTurnRequests,
	wire.StopCancelled: wire.StopCancelled, "aborted": wire.StopCancelled,
}

func (e *Encoder) runEnd(r *event.RunEnd) {
	if e.fail() || e.answered {
		return
	}
	if r.MetaKind == acp.MetaKind && acpMessage(r.Meta) {
		e.answered = true
		e.writeRaw(r.Meta)
		return
	}
	if r.IsError {
		e.answered = true
		// The message the run's end gives, else the last error the
		// stream told of, else its stop reason: the schema requires one.
		msg := cmp.Or(strings.Join(r.Errors, "; "), r.Result, e.lastErr, r.StopReason, "run failed")
		e.writeError(msg, "", nil)
		return
	}
	reason := r.StopReason
	if reason == "" {
		reason = e.lastStop
	}
	u := r.Usage
	if u == nil && e.anyUsage {
		u = &e.usage
	}
	if r.CostUSD != nil {
		e.warn("cost (usage_update needs the context window size)")
	}
	e.respond(reason, u)
}

// respond writes the session/prompt response for a source's stop reason,
// or nothing when ACP has no stop reason for it (reported).
func (e *Encoder) respond(reason string, u *event.Usage) {
	stop, ok := stopReasons[reason]
	if !ok {
		if reason == "" {
			e.warn(NoRunEnd)
		} else {
			e.warn(fmt.Sprintf("stop reason %q: %s", reason, NoRunEnd))
		}
		return
	}
	e.answered = true
	res := wire.PromptResponse{StopReason: stop}
	if u != nil && u.ServiceTier != "" {
		e.warn("service tiers")
	}
	if u != nil {
		out := u.OutputTokens - u.ReasoningTokens
		if out < 0 {
			out = u.OutputTokens
		}
		total := u.InputTokens + u.OutputTokens + u.CacheReadTokens + u.CacheWriteTokens
		if out == u.OutputTokens {
			total = u.InputTokens + out + u.ReasoningTokens + u.CacheReadTokens + u.CacheWriteTokens
		}
		// A count the source did not give is null, never a made-up 0;
		// the total is known only with both.
		au := &wire.Usage{}
		if u.Has&event.HasInput != 0 {
			au.InputTokens = &u.InputTokens
		}
		if u.Has&event.HasOutput != 0 {
			au.OutputTokens = &out
		}
		if u.Has&event.HasTokens == event.HasTokens {
			au.TotalTokens = &total
		}
		if u.Has&event.HasReasoning != 0 {
			au.ThoughtTokens = &u.ReasoningTokens
		}
		if u.Has&event.HasCacheRead != 0 {
			au.CachedReadTokens = &u.CacheReadTokens
		}
		if u.Has&event.HasCacheWrite != 0 {
			au.CachedWriteTokens = &u.CacheWriteTokens
		}
		res.Usage = au
	}
	e.write(response{JSONRPC: wire.Version, ID: PromptRequestID, Result: res})
}

// Cut ends a stream whose input was cut off (event.Cutter): everything
// arrived was written as it came, and no session/prompt response is
// written that the input did not have, so the output reads as cut too.
// A fatal error of the run cut before its end is not written (reported):
// its error response would end the prompt turn. A session cut before its
// first prompt turn has only messages that begin none, held: they are
// not written (reported, SetupCut), as alone they would read as a
// session that ended.
func (e *Encoder) Cut() error {
	if e.err != nil {
		return e.err
	}
	switch {
	case e.begun:
	case e.leaked:
		e.flushHeld() // what came after the last Flush
		e.warn(LiveSetupCut)
	case e.before.Len() > 0:
		e.before.Reset()
		e.warn(SetupCut)
	case e.spilled:
		e.warn(fmt.Sprintf("the cut of a session cut before its first prompt turn after more than %d bytes of setup (written as it came, it reads as a session that ended)", e.maxHeld()))
	}
	if e.failure != nil && !e.answered {
		e.warn("a fatal error of a run cut before its end (its session/prompt error response would end the prompt turn)")
	}
	return fmt.Errorf("%s: %w: the input was cut off, no session/prompt response written", Name, event.ErrTruncated)
}

// Close ends the output. A run whose source ended without a run end
// (OpenCode writes none) gets its session/prompt response from its last
// turn's stop reason, when that ends the run; a stream cut inside a
// block gets none, and Close reports the truncation.
func (e *Encoder) Close() error {
	if e.err != nil {
		return e.err
	}
	e.flushHeld()
	e.fail()
	if len(e.open) > 0 {
		return fmt.Errorf("%s: %w: a block was left open, no session/prompt response written", Name, event.ErrTruncated)
	}
	if !e.answered && e.lastStop != "" {
		if _, ok := stopReasons[e.lastStop]; ok {
			u := &e.usage
			if !e.anyUsage {
				u = nil
			}
			e.respond(e.lastStop, u)
		}
	}
	if !e.answered && e.haveMain {
		e.warn(NoRunEnd)
	}
	return e.err
}
