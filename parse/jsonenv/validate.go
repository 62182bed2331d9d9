package jsonenv

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/frame"
	"github.com/agentstream/agentstream/internal/openset"
	wire "github.com/agentstream/agentstream/internal/wire/jsonenv"
	"github.com/agentstream/agentstream/internal/wirecheck"
)

// The format's validate rules (docs/validate.md). The envelope is
// checked at the wire alone (Format.CheckAlone): check also reports the
// syntax and truncation problems, and hands validate's rules for every
// format the events it reassembles, with exact positions.
const (
	ruleFields      = "ENV001"
	ruleByteCap     = "ENV002"
	ruleFinalFlag   = "ENV003"
	ruleImage       = "ENV004"
	ruleCitation    = "ENV005"
	rulePayloadJSON = "ENV006"
	ruleDone        = "ENV007"
	ruleKnownType   = "ENV008"
	ruleAgent       = "ENV009"
)

func rules() []format.Rule {
	return []format.Rule{
		{ID: ruleFields, Name: "envelope-fields", Doc: "every envelope is a JSON object with type, agent and delta strings and a final boolean; extra fields have their documented types"},
		{ID: ruleByteCap, Name: "byte-cap", Doc: "an envelope with a delta is at most " + strconv.Itoa(format.DefaultMaxChunkBytes) + " bytes of JSON text as written (escapes counted); images and empty markers are not checked"},
		{ID: ruleFinalFlag, Name: "final-flag", Doc: "text and thinking end with a final marker whose delta is empty; tool_result_image is never final; a buffered payload ends with final before another of its type and agent begins; a citation group ends with a final citation before its agent goes on"},
		{ID: ruleImage, Name: "image-placement", Doc: "tool_result_image comes inside an open tool_result of the same agent and id, and has src and media_type"},
		{ID: ruleCitation, Name: "citation-placement", Doc: "citations come right after their text block's final marker (or another citation of the group)"},
		{ID: rulePayloadJSON, Name: "payload-json", Doc: "the reassembled payloads of meta_init, meta_final, meta_files and error are JSON objects, that of awaiting_frontend_tools a JSON array of {tool_use_id, name, input}"},
		{ID: ruleDone, Name: "done-marker", Doc: "an SSE stream ends with data: [DONE] (or the server's error object) and nothing follows it"},
		{ID: ruleKnownType, Name: "known-type", Doc: "the envelope's type is one of the 13 types of the specification"},
		{ID: ruleAgent, Name: "agent-present", Doc: "the envelope's agent is not empty"},
	}
}

type pos = wirecheck.Pos

// checker checks the envelope stream.
type checker struct {
	wirecheck.Checker
	maxChunk int
}

// The JSON envelope's extra fields and their JSON kinds.
var (
	envStringFields = []string{"id", "name", "src", "media_type", "citation_type", "document_title", "url", "title"}
	envIntFields    = []string{"document_index", "start_char_index", "end_char_index", "start_page_number", "end_page_number"}
	envTypes        = []string{
		wire.TypeMetaInit, wire.TypeThinking, wire.TypeText, wire.TypeCitation, wire.TypeToolCall,
		wire.TypeServerToolCall, wire.TypeToolResult, wire.TypeToolResultImage, wire.TypeServerToolResult,
		wire.TypeAwaitingTools, wire.TypeMetaFiles, wire.TypeError, wire.TypeMetaFinal, wire.TypeRollback,
	}
	// envIDTypes carry id and name.
	envIDTypes = []string{
		wire.TypeToolCall, wire.TypeServerToolCall, wire.TypeToolResult,
		wire.TypeToolResultImage, wire.TypeServerToolResult,
	}
)

// envState is the wire-level state of the envelope checker.
type envState struct {
	agents map[string]*envAgent
	seen   *openset.Set[string] // agents, the one seen longest ago first
	capped bool                 // letting go of an agent was reported
	done   *pos                 // where [DONE] was
	after  bool                 // something came after [DONE]
	server bool                 // the server's error object ended the stream
	last   pos
	n      int // envelopes seen
}

type envAgent struct {
	streams map[string]pos     // open text and thinking blocks: where they began
	buffers map[string]*envBuf // open buffered payloads, by type
	cite    *pos               // open citation group
	lastTyp string
	lastFin bool
}

type envBuf struct {
	id, name string
	data     strings.Builder
	p        pos
}

// agent returns the state of agent id, which becomes the one seen last.
// At most openset.DefaultMax agents are held: past that the agent seen
// longest ago is let go of, what it had open no longer checked; reported
// once, wrapping event.ErrTooManyOpen.
func (v *checker) agent(s *envState, id string, p pos) *envAgent {
	a := s.agents[id]
	if a == nil {
		a = &envAgent{streams: map[string]pos{}, buffers: map[string]*envBuf{}}
		s.agents[id] = a
	}
	s.seen.Remove(id)
	if old, out := s.seen.Add(id); out {
		delete(s.agents, old)
		if !s.capped {
			s.capped = true
			v.Problem(event.ErrTooManyOpen, p, "more than %d agents; forgot the one seen longest ago, %s: what it left open is not checked (later ones are not reported)", s.seen.Max(), wirecheck.AgentName(old))
		}
	}
	return a
}

// jsonenv checks a JSON envelope stream at the wire level: the ENV rules,
// and the GEN rules on what the envelopes say.
func check(r io.Reader, cfg *format.CheckConfig, rep format.Reporter) {
	v := &checker{Checker: wirecheck.Checker{Rep: rep, Cfg: cfg}}
	v.maxChunk = cfg.MaxChunkBytes
	if v.maxChunk <= 0 {
		v.maxChunk = format.DefaultMaxChunkBytes
	}
	s := &envState{agents: map[string]*envAgent{}, seen: openset.New[string](0)}
	br := bufio.NewReaderSize(r, 64<<10)
	sse := wirecheck.IsSSE(br)
	next := v.envUnits(br, sse)
	for {
		payload, p, err := next()
		if err == io.EOF {
			break
		}
		if err != nil {
			if wirecheck.IsProblem(err) {
				v.ProblemErr(err)
				continue
			}
			return // a read error: validate reports it
		}
		s.last = p
		if sse && string(payload) == "[DONE]" {
			if s.done == nil {
				s.done = &p
			}
			continue
		}
		if s.done != nil && !s.after {
			s.after = true
			v.Report(ruleDone, p, "message after data: [DONE] (line %d)", s.done.Line)
		}
		v.envelope(s, payload, p)
	}
	v.envEnd(s, sse)
}

// envUnits returns a function yielding each envelope's JSON text.
func (v *checker) envUnits(br *bufio.Reader, sse bool) func() ([]byte, pos, error) {
	if sse {
		f := frame.NewSSE(br, v.Cfg.Source, v.MaxBytes())
		return func() ([]byte, pos, error) {
			for {
				m, err := f.Next()
				if err != nil {
					return nil, pos{}, err
				}
				if m.Data == "" {
					continue
				}
				return []byte(m.Data), pos{Line: m.Line, Col: 1}, nil
			}
		}
	}
	f := frame.NewLines(br, v.Cfg.Source, v.MaxBytes())
	return func() ([]byte, pos, error) {
		for {
			line, num, _, err := f.Next()
			if err != nil {
				return nil, pos{}, err
			}
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			return line, pos{Line: num, Col: 1}, nil
		}
	}
}

// jsonKind names the kind of a JSON value by its first byte.
func jsonKind(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	if bytes.ContainsAny(raw, ".eE") {
		return "a number"
	}
	return "an integer"
}

func (v *checker) envelope(s *envState, payload []byte, p pos) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(payload, &m); err != nil {
		v.Problem(event.ErrSyntax, p, "not a JSON object: %s", strings.TrimPrefix(err.Error(), "json: "))
		return
	}
	if _, ok := m["type"]; !ok {
		var se wire.ServerError
		if _, isErr := m["error"]; isErr && json.Unmarshal(payload, &se) == nil {
			s.server = true // the producer's error object: a legitimate end
			return
		}
	}
	s.n++
	ok := true
	for _, f := range []struct{ name, kind string }{
		{"type", "a string"}, {"agent", "a string"}, {"final", "a boolean"}, {"delta", "a string"},
	} {
		raw, has := m[f.name]
		switch {
		case !has:
			v.Report(ruleFields, p, "envelope has no %q field", f.name)
			ok = false
		case jsonKind(raw) != f.kind:
			v.Report(ruleFields, p, "%q is %s, want %s", f.name, jsonKind(raw), f.kind)
			ok = false
		}
	}
	for _, name := range envStringFields {
		if raw, has := m[name]; has && jsonKind(raw) != "a string" && jsonKind(raw) != "null" {
			v.Report(ruleFields, p, "%q is %s, want a string", name, jsonKind(raw))
			ok = false
		}
	}
	for _, name := range envIntFields {
		if raw, has := m[name]; has && jsonKind(raw) != "an integer" && jsonKind(raw) != "null" {
			v.Report(ruleFields, p, "%q is %s, want an integer", name, jsonKind(raw))
			ok = false
		}
	}
	if !ok {
		return
	}
	var env wire.Envelope
	if err := json.Unmarshal(payload, &env); err != nil {
		v.Report(ruleFields, p, "%s", strings.TrimPrefix(err.Error(), "json: "))
		return
	}
	if !slices.Contains(envTypes, env.Type) {
		v.Report(ruleKnownType, p, "unknown envelope type %q", env.Type)
		return
	}
	if slices.Contains(envIDTypes, env.Type) && (env.ID == nil || env.Name == nil) {
		v.Report(ruleFields, p, "%s envelope has no id or no name", env.Type)
	}
	if env.Type == wire.TypeCitation && env.CitationType == nil {
		v.Report(ruleFields, p, "citation envelope has no citation_type")
	}
	if env.Agent == "" {
		v.Report(ruleAgent, p, "%s envelope has an empty agent", env.Type)
	}
	if env.Delta != "" && len(payload) > v.maxChunk {
		// The cap is on the message as written: the reference producer
		// counts the delta unescaped and so writes envelopes over it.
		v.Report(ruleByteCap, p, "%s envelope is %d bytes as written, over the %d-byte cap", env.Type, len(payload), v.maxChunk)
	}
	v.envSemantics(s, &env, p)
}

// envSemantics applies the rules that span envelopes.
func (v *checker) envSemantics(s *envState, env *wire.Envelope, p pos) {
	agent := env.Agent
	a := v.agent(s, agent, p)
	if a.cite != nil && env.Type != wire.TypeCitation {
		v.Report(ruleFinalFlag, *a.cite, "citation group of %s has no final citation before its next %s (line %d)", wirecheck.AgentName(agent), env.Type, p.Line)
		a.cite = nil
	}
	switch env.Type {
	case wire.TypeText, wire.TypeThinking:
		if env.Final && env.Delta != "" {
			v.Report(ruleFinalFlag, p, "final marker of a %s block carries a delta; it must be empty", env.Type)
		}
		if _, open := a.streams[env.Type]; !open && !(env.Final && env.Delta == "") {
			a.streams[env.Type] = p
			v.Event(&event.BlockStart{Agent: agent}, p.Line)
		}
		if env.Final {
			delete(a.streams, env.Type)
		}
	case wire.TypeCitation:
		if !(a.lastTyp == wire.TypeText && a.lastFin) && !(a.lastTyp == wire.TypeCitation && !a.lastFin) {
			after := "the start of the stream"
			if a.lastTyp != "" {
				after = a.lastTyp
				if a.lastFin {
					after += " (final)"
				}
			}
			v.Report(ruleCitation, p, "citation of %s follows %s, not a text block's final marker", wirecheck.AgentName(agent), after)
		}
		if env.Final {
			a.cite = nil
		} else if a.cite == nil {
			a.cite = &p
		}
	case wire.TypeToolResultImage:
		if env.Final {
			v.Report(ruleFinalFlag, p, "tool_result_image is final; the enclosing tool_result's final marker ends the result")
		}
		open := a.buffers[wire.TypeToolResult]
		switch {
		case open == nil:
			v.Report(ruleImage, p, "tool_result_image %s of %s is outside an open tool_result", deref(env.ID), wirecheck.AgentName(agent))
		case env.ID != nil && *env.ID != open.id:
			v.Report(ruleImage, p, "tool_result_image has id %s inside tool_result %s", *env.ID, open.id)
		}
		if env.Src == nil || *env.Src == "" || env.MediaType == nil || *env.MediaType == "" {
			v.Report(ruleImage, p, "tool_result_image has no src or no media_type")
		}
	default: // buffered payloads
		b := a.buffers[env.Type]
		if b != nil && env.ID != nil && *env.ID != b.id {
			v.Report(ruleFinalFlag, b.p, "%s %s of %s ended without a final envelope (%s %s began at line %d)", env.Type, b.id, wirecheck.AgentName(agent), env.Type, *env.ID, p.Line)
			delete(a.buffers, env.Type)
			b = nil
		}
		if b == nil {
			b = &envBuf{id: deref(env.ID), name: deref(env.Name), p: p}
			a.buffers[env.Type] = b
		}
		b.data.WriteString(env.Delta)
		if env.Final {
			delete(a.buffers, env.Type)
			if env.Type == wire.TypeRollback {
				// The agent's open blocks are taken back, never ended.
				delete(a.streams, wire.TypeText)
				delete(a.streams, wire.TypeThinking)
			}
			v.envPayload(agent, env.Type, b)
		}
	}
	a.lastTyp, a.lastFin = env.Type, env.Final
}

// envPayload checks a complete buffered payload and feeds the GEN rules.
func (v *checker) envPayload(agent, typ string, b *envBuf) {
	data := b.data.String()
	object := func() {
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(data), &m); err != nil || m == nil {
			v.Report(rulePayloadJSON, b.p, "%s payload is not a JSON object: %s", typ, wirecheck.Clip(data))
		}
	}
	switch typ {
	case wire.TypeMetaInit:
		object()
		v.Event(&event.SessionStart{Agent: agent}, b.p.Line)
	case wire.TypeMetaFinal:
		object()
		v.Event(&event.RunEnd{Agent: agent}, b.p.Line)
	case wire.TypeMetaFiles:
		var mf struct {
			Files []wire.FileMeta `json:"files"`
		}
		if err := json.Unmarshal([]byte(data), &mf); err != nil || mf.Files == nil {
			v.Report(rulePayloadJSON, b.p, "meta_files payload is not a JSON object with a files array: %s", wirecheck.Clip(data))
		}
		v.Event(&event.BlockStart{Agent: agent}, b.p.Line)
	case wire.TypeError:
		object()
		v.Event(&event.BlockStart{Agent: agent}, b.p.Line)
	case wire.TypeRollback:
		object()
		v.Event(&event.Notice{Agent: agent, Kind: event.NoticeAbandoned}, b.p.Line)
	case wire.TypeAwaitingTools:
		var tools []wire.PendingTool
		var pending []event.PendingTool
		if err := json.Unmarshal([]byte(data), &tools); err != nil {
			v.Report(rulePayloadJSON, b.p, "awaiting_frontend_tools payload is not a JSON array of tools: %s", wirecheck.Clip(data))
		}
		for _, t := range tools {
			if t.ToolUseID == "" || t.Name == "" {
				v.Report(rulePayloadJSON, b.p, "awaiting_frontend_tools lists a tool without tool_use_id or name")
			}
			pending = append(pending, event.PendingTool{ID: t.ToolUseID, Name: t.Name})
		}
		v.Event(&event.AwaitingTools{Agent: agent, Tools: pending}, b.p.Line)
	case wire.TypeToolCall, wire.TypeServerToolCall:
		v.Event(&event.ToolCall{Agent: agent, ID: b.id, Name: b.name, Input: json.RawMessage(data), Server: typ == wire.TypeServerToolCall}, b.p.Line)
	case wire.TypeToolResult, wire.TypeServerToolResult:
		v.Event(&event.ToolResult{Agent: agent, ID: b.id}, b.p.Line)
	}
}

// envEnd reports what the end of the stream leaves open.
func (v *checker) envEnd(s *envState, sse bool) {
	// Validate sorts the reports by position: no two agents opened
	// something at the same one.
	for id, a := range s.agents {
		for _, typ := range []string{wire.TypeThinking, wire.TypeText} {
			if p, open := a.streams[typ]; open {
				v.Problem(event.ErrTruncated, p, "stream ends inside a %s block of %s (no final marker)", typ, wirecheck.AgentName(id))
			}
		}
		for _, typ := range envTypes {
			if b := a.buffers[typ]; b != nil {
				v.Problem(event.ErrTruncated, b.p, "stream ends inside %s %s of %s (no final envelope)", typ, b.id, wirecheck.AgentName(id))
			}
		}
		if a.cite != nil {
			v.Problem(event.ErrTruncated, *a.cite, "stream ends inside a citation group of %s", wirecheck.AgentName(id))
		}
	}
	if sse && s.done == nil && !s.server && s.n > 0 {
		v.Report(ruleDone, s.last, "stream ends without data: [DONE]")
	}
}
