package validate

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/frame"
	"github.com/agentstream/agentstream/parse/jsonenv"
)

// The JSON envelope's extra fields and their JSON kinds.
var (
	envStringFields = []string{"id", "name", "src", "media_type", "citation_type", "document_title", "url", "title"}
	envIntFields    = []string{"document_index", "start_char_index", "end_char_index", "start_page_number", "end_page_number"}
	envTypes        = []string{
		jsonenv.TypeMetaInit, jsonenv.TypeThinking, jsonenv.TypeText, jsonenv.TypeCitation, jsonenv.TypeToolCall,
		jsonenv.TypeServerToolCall, jsonenv.TypeToolResult, jsonenv.TypeToolResultImage, jsonenv.TypeServerToolResult,
		jsonenv.TypeAwaitingTools, jsonenv.TypeMetaFiles, jsonenv.TypeError, jsonenv.TypeMetaFinal,
	}
	// envIDTypes carry id and name.
	envIDTypes = []string{
		jsonenv.TypeToolCall, jsonenv.TypeServerToolCall, jsonenv.TypeToolResult,
		jsonenv.TypeToolResultImage, jsonenv.TypeServerToolResult,
	}
)

// envState is the wire-level state of the envelope checker.
type envState struct {
	agents map[string]*envAgent
	order  []string
	done   *pos // where [DONE] was
	after  bool // something came after [DONE]
	server bool // the server's error object ended the stream
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

func (s *envState) agent(id string) *envAgent {
	a := s.agents[id]
	if a == nil {
		a = &envAgent{streams: map[string]pos{}, buffers: map[string]*envBuf{}}
		s.agents[id] = a
		s.order = append(s.order, id)
	}
	return a
}

// jsonenv checks a JSON envelope stream at the wire level: the ENV rules,
// and the GEN rules on what the envelopes say.
func (v *checker) jsonenv(r io.Reader) error {
	v.t.init(v)
	s := &envState{agents: map[string]*envAgent{}}
	br := bufio.NewReaderSize(r, 64<<10)
	sse := isSSE(br)
	next := v.envUnits(br, sse)
	for {
		payload, p, err := next()
		if err == io.EOF {
			break
		}
		if err != nil {
			var perr *event.ParseError
			if errors.As(err, &perr) {
				v.parseError(perr)
				continue
			}
			return err
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
			v.report(EnvDone, p, "message after data: [DONE] (line %d)", s.done.line)
		}
		v.envelope(s, payload, p)
	}
	v.envEnd(s, sse)
	return nil
}

// envUnits returns a function yielding each envelope's JSON text.
func (v *checker) envUnits(br *bufio.Reader, sse bool) func() ([]byte, pos, error) {
	if sse {
		f := frame.NewSSE(br, v.cfg.Source, v.cfg.MaxEventBytes)
		return func() ([]byte, pos, error) {
			for {
				m, err := f.Next()
				if err != nil {
					return nil, pos{}, err
				}
				if m.Data == "" {
					continue
				}
				return []byte(m.Data), pos{m.Line, 1}, nil
			}
		}
	}
	f := frame.NewLines(br, v.cfg.Source, v.cfg.MaxEventBytes)
	return func() ([]byte, pos, error) {
		for {
			line, num, _, err := f.Next()
			if err != nil {
				return nil, pos{}, err
			}
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			return line, pos{num, 1}, nil
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
		v.report(Syntax, p, "not a JSON object: %s", strings.TrimPrefix(err.Error(), "json: "))
		return
	}
	if _, ok := m["type"]; !ok {
		var se jsonenv.ServerError
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
			v.report(EnvFields, p, "envelope has no %q field", f.name)
			ok = false
		case jsonKind(raw) != f.kind:
			v.report(EnvFields, p, "%q is %s, want %s", f.name, jsonKind(raw), f.kind)
			ok = false
		}
	}
	for _, name := range envStringFields {
		if raw, has := m[name]; has && jsonKind(raw) != "a string" && jsonKind(raw) != "null" {
			v.report(EnvFields, p, "%q is %s, want a string", name, jsonKind(raw))
			ok = false
		}
	}
	for _, name := range envIntFields {
		if raw, has := m[name]; has && jsonKind(raw) != "an integer" && jsonKind(raw) != "null" {
			v.report(EnvFields, p, "%q is %s, want an integer", name, jsonKind(raw))
			ok = false
		}
	}
	if !ok {
		return
	}
	var env jsonenv.Envelope
	if err := json.Unmarshal(payload, &env); err != nil {
		v.report(EnvFields, p, "%s", strings.TrimPrefix(err.Error(), "json: "))
		return
	}
	if !slices.Contains(envTypes, env.Type) {
		v.report(EnvKnownType, p, "unknown envelope type %q", env.Type)
		return
	}
	if slices.Contains(envIDTypes, env.Type) && (env.ID == nil || env.Name == nil) {
		v.report(EnvFields, p, "%s envelope has no id or no name", env.Type)
	}
	if env.Type == jsonenv.TypeCitation && env.CitationType == nil {
		v.report(EnvFields, p, "citation envelope has no citation_type")
	}
	if env.Agent == "" {
		v.report(EnvAgent, p, "%s envelope has an empty agent", env.Type)
	}
	if env.Delta != "" && len(payload) > v.cfg.MaxChunkBytes {
		// The cap is on the message as written: the reference producer
		// counts the delta unescaped and so writes envelopes over it.
		v.report(EnvByteCap, p, "%s envelope is %d bytes as written, over the %d-byte cap", env.Type, len(payload), v.cfg.MaxChunkBytes)
	}
	v.envSemantics(s, &env, p)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// envSemantics applies the rules that span envelopes.
func (v *checker) envSemantics(s *envState, env *jsonenv.Envelope, p pos) {
	agent := env.Agent
	a := s.agent(agent)
	if a.cite != nil && env.Type != jsonenv.TypeCitation {
		v.report(EnvFinalFlag, *a.cite, "citation group of %s has no final citation before its next %s (line %d)", agentName(agent), env.Type, p.line)
		a.cite = nil
	}
	switch env.Type {
	case jsonenv.TypeText, jsonenv.TypeThinking:
		if env.Final && env.Delta != "" {
			v.report(EnvFinalFlag, p, "final marker of a %s block carries a delta; it must be empty", env.Type)
		}
		if _, open := a.streams[env.Type]; !open && !(env.Final && env.Delta == "") {
			a.streams[env.Type] = p
			v.t.content(agent, p)
		}
		if env.Final {
			delete(a.streams, env.Type)
		}
	case jsonenv.TypeCitation:
		if !(a.lastTyp == jsonenv.TypeText && a.lastFin) && !(a.lastTyp == jsonenv.TypeCitation && !a.lastFin) {
			after := "the start of the stream"
			if a.lastTyp != "" {
				after = a.lastTyp
				if a.lastFin {
					after += " (final)"
				}
			}
			v.report(EnvCitation, p, "citation of %s follows %s, not a text block's final marker", agentName(agent), after)
		}
		if env.Final {
			a.cite = nil
		} else if a.cite == nil {
			a.cite = &p
		}
	case jsonenv.TypeToolResultImage:
		if env.Final {
			v.report(EnvFinalFlag, p, "tool_result_image is final; the enclosing tool_result's final marker ends the result")
		}
		open := a.buffers[jsonenv.TypeToolResult]
		switch {
		case open == nil:
			v.report(EnvImage, p, "tool_result_image %s of %s is outside an open tool_result", deref(env.ID), agentName(agent))
		case env.ID != nil && *env.ID != open.id:
			v.report(EnvImage, p, "tool_result_image has id %s inside tool_result %s", *env.ID, open.id)
		}
		if env.Src == nil || *env.Src == "" || env.MediaType == nil || *env.MediaType == "" {
			v.report(EnvImage, p, "tool_result_image has no src or no media_type")
		}
	default: // buffered payloads
		b := a.buffers[env.Type]
		if b != nil && env.ID != nil && *env.ID != b.id {
			v.report(EnvFinalFlag, b.p, "%s %s of %s ended without a final envelope (%s %s began at line %d)", env.Type, b.id, agentName(agent), env.Type, *env.ID, p.line)
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
			v.report(EnvPayloadJSON, b.p, "%s payload is not a JSON object: %s", typ, clip(data))
		}
	}
	switch typ {
	case jsonenv.TypeMetaInit:
		object()
		v.t.session(agent, b.p)
	case jsonenv.TypeMetaFinal:
		object()
		v.t.runEnd(agent, b.p)
	case jsonenv.TypeMetaFiles:
		var mf struct {
			Files []jsonenv.FileMeta `json:"files"`
		}
		if err := json.Unmarshal([]byte(data), &mf); err != nil || mf.Files == nil {
			v.report(EnvPayloadJSON, b.p, "meta_files payload is not a JSON object with a files array: %s", clip(data))
		}
		v.t.content(agent, b.p)
	case jsonenv.TypeError:
		object()
		v.t.content(agent, b.p)
	case jsonenv.TypeAwaitingTools:
		var tools []jsonenv.PendingTool
		var ids []string
		if err := json.Unmarshal([]byte(data), &tools); err != nil {
			v.report(EnvPayloadJSON, b.p, "awaiting_frontend_tools payload is not a JSON array of tools: %s", clip(data))
		}
		for _, t := range tools {
			if t.ToolUseID == "" || t.Name == "" {
				v.report(EnvPayloadJSON, b.p, "awaiting_frontend_tools lists a tool without tool_use_id or name")
			}
			ids = append(ids, t.ToolUseID)
		}
		v.t.pending(agent, ids, b.p)
	case jsonenv.TypeToolCall, jsonenv.TypeServerToolCall:
		v.t.toolCall(agent, b.id, b.name, json.RawMessage(data), typ == jsonenv.TypeServerToolCall, b.p)
	case jsonenv.TypeToolResult, jsonenv.TypeServerToolResult:
		v.t.toolResult(agent, b.id, b.p)
	}
}

// envEnd reports what the end of the stream leaves open.
func (v *checker) envEnd(s *envState, sse bool) {
	for _, id := range s.order {
		a := s.agents[id]
		for _, typ := range []string{jsonenv.TypeThinking, jsonenv.TypeText} {
			if p, open := a.streams[typ]; open {
				v.report(Truncated, p, "stream ends inside a %s block of %s (no final marker)", typ, agentName(id))
			}
		}
		for _, typ := range envTypes {
			if b := a.buffers[typ]; b != nil {
				v.report(Truncated, b.p, "stream ends inside %s %s of %s (no final envelope)", typ, b.id, agentName(id))
			}
		}
		if a.cite != nil {
			v.report(Truncated, *a.cite, "stream ends inside a citation group of %s", agentName(id))
		}
	}
	v.t.end()
	if sse && s.done == nil && !s.server && s.n > 0 {
		v.report(EnvDone, s.last, "stream ends without data: [DONE]")
	}
}
