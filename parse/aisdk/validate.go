package aisdk

import (
	"bytes"
	"encoding/json"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/frame"
	"github.com/agentstream/agentstream/internal/openset"
	wire "github.com/agentstream/agentstream/internal/wire/aisdk"
	"github.com/agentstream/agentstream/internal/wirecheck"
)

// Rule ids of the format's own validate rules.
const (
	ruleSchema = "AIS001"
	rulePart   = "AIS002"
	ruleTool   = "AIS003"
	ruleStep   = "AIS004"
	ruleEnd    = "AIS005"
)

// rules returns the format's validate rules, in report order: what
// ui-message-chunks.ts declares and what the SDK's client
// (processUIMessageStream) throws on.
func rules() []format.Rule {
	return []format.Rule{
		{ID: ruleSchema, Name: "chunk-schema", Doc: "every chunk is a JSON object whose type the protocol defines (data-* for data parts), with the members its type requires, strings, booleans and a finishReason of the declared kinds"},
		{ID: rulePart, Name: "part-order", Doc: "a text or reasoning delta or end names a part its start opened and no end has closed"},
		{ID: ruleTool, Name: "tool-order", Doc: "a tool-input-delta follows its call's tool-input-start, and a tool output, denial or approval request follows its call's input"},
		{ID: ruleStep, Name: "step-order", Doc: "finish-step closes a start-step, and a start-step comes after the previous step's finish-step"},
		{ID: ruleEnd, Name: "stream-end", Doc: "the stream opens with one start, ends with a finish or an abort and then data: [DONE], and carries no content after its finish but data parts and metadata"},
	}
}

type checkState struct {
	rep  format.Reporter
	line int
	// At most openset.DefaultMax of each (wirecheck.Held): past it the
	// oldest is let go of, reported once, and no longer checked.
	parts    wirecheck.Held[struct{}] // open text and reasoning parts, by type prefix and id
	inputs   wirecheck.Held[struct{}] // tool calls with tool-input-start, by id
	calls    wirecheck.Held[struct{}] // tool calls with input, by id
	step     bool
	starts   int
	chunks   int
	finished bool // finish or abort seen
	done     bool // [DONE] seen
}

// check checks a UI message stream against rules. Data that is not JSON
// is left to the decoder.
func check(r io.Reader, c *format.CheckConfig, rep format.Reporter) {
	(&checkState{rep: rep}).check(r, c)
}

func (k *checkState) check(r io.Reader, c *format.CheckConfig) {
	rep := k.rep
	for m := range frame.NewSSE(r, c.Source, c.MaxEventBytes).Messages() {
		k.message(m)
	}
	if k.chunks > 0 && !k.finished {
		rep.Report(ruleEnd, k.line, 1, "the stream ends without a finish or abort chunk")
	} else if k.chunks > 0 && !k.done {
		rep.Report(ruleEnd, k.line, 1, "the stream ends without data: [DONE]")
	}
}

func (k *checkState) report(rule, msg string) { k.rep.Report(rule, k.line, 1, msg) }

func (k *checkState) message(m frame.RawMessage) {
	data := bytes.TrimSpace(m.Data)
	if len(data) == 0 {
		return
	}
	k.line = m.Line
	if string(data) == wire.Done {
		if k.done {
			k.report(ruleEnd, "a second data: [DONE]")
		}
		k.done = true
		return
	}
	var members map[string]json.RawMessage
	if json.Unmarshal(data, &members) != nil {
		return // not JSON: the decoder's to report
	}
	k.chunks++
	if k.done {
		k.report(ruleEnd, "a chunk after data: [DONE]")
	}
	var typ string
	if json.Unmarshal(members["type"], &typ) != nil {
		k.report(ruleSchema, "the chunk has no string type")
		return
	}
	f, ok := wire.FieldsOf(typ)
	if !ok {
		k.report(ruleSchema, "type "+strconv.Quote(typ)+" is not a chunk type of the protocol")
		return
	}
	k.schema(typ, f, members)
	var c wire.Chunk
	if json.Unmarshal(data, &c) != nil {
		return // a member of the wrong JSON type, reported above
	}
	k.order(&c)
}

// stringMembers and boolMembers are the members whose JSON type the
// schema fixes.
var (
	stringMembers = []string{
		"id", "delta", "errorText", "toolCallId", "toolName", "inputTextDelta", "approvalId", "sourceId",
		"url", "title", "mediaType", "filename", "messageId", "reason", "kind",
	}
	boolMembers = []string{"providerExecuted", "dynamic", "preliminary", "transient", "approved", "isAutomatic"}
)

func (k *checkState) schema(typ string, f wire.Fieldset, members map[string]json.RawMessage) {
	for _, name := range f.Required {
		if _, ok := members[name]; !ok {
			k.report(ruleSchema, typ+" chunk without its "+name)
		}
	}
	// In name order: a map's order would differ from run to run.
	for _, name := range slices.Sorted(maps.Keys(members)) {
		v := members[name]
		if name == "type" || !slices.Contains(f.Required, name) && !slices.Contains(f.Optional, name) {
			continue // members the schema does not name: both clients let them pass
		}
		var want string
		switch {
		case slices.Contains(stringMembers, name):
			want = "string"
			if len(v) == 0 || v[0] != '"' {
				k.report(ruleSchema, typ+" chunk's "+name+" is not a string")
			}
		case slices.Contains(boolMembers, name):
			want = "boolean"
			if s := string(v); s != "true" && s != "false" {
				k.report(ruleSchema, typ+" chunk's "+name+" is not a "+want)
			}
		case name == "finishReason":
			var s string
			if json.Unmarshal(v, &s) != nil || !slices.Contains(wire.FinishReasons, s) {
				k.report(ruleSchema, "finishReason "+string(v)+" is not one of the declared finish reasons")
			}
		}
	}
}

func (k *checkState) order(c *wire.Chunk) {
	content := true
	switch c.Type {
	case wire.TypeStart:
		content = false
		k.starts++
		if k.starts > 1 {
			k.report(ruleEnd, "a second start chunk (a new messageId makes the client begin the message again)")
		} else if k.chunks > 1 {
			k.report(ruleEnd, "chunks before the start chunk")
		}
	case wire.TypeStartStep:
		if k.step {
			k.report(ruleStep, "start-step before the open step's finish-step")
		}
		k.step = true
	case wire.TypeFinishStep:
		if !k.step {
			k.report(ruleStep, "finish-step without a start-step")
		}
		k.step = false
	case wire.TypeResetStep:
		k.parts.Clear()
		k.inputs.Clear()
	case wire.TypeTextStart, wire.TypeReasoningStart:
		key := string(kindOf(c.Type)) + "/" + c.ID
		if old, first := k.parts.Put(key, struct{}{}); first {
			_, id, _ := strings.Cut(old, "/")
			k.report(rulePart, "more than "+strconv.Itoa(openset.DefaultMax)+" parts open at once; forgot the oldest, "+strconv.Quote(id)+": its deltas and end are no longer checked")
		}
	case wire.TypeTextDelta, wire.TypeReasoningDelta, wire.TypeTextEnd, wire.TypeReasoningEnd:
		key := string(kindOf(c.Type)) + "/" + c.ID
		if !k.parts.Has(key) && !k.parts.Lost() {
			k.report(rulePart, c.Type+" for part "+strconv.Quote(c.ID)+", which no start opened or an end closed")
		}
		if c.Type == wire.TypeTextEnd || c.Type == wire.TypeReasoningEnd {
			k.parts.Delete(key)
		}
	case wire.TypeToolInputStart:
		if old, first := k.inputs.Put(c.ToolCallID, struct{}{}); first {
			k.report(ruleTool, "more than "+strconv.Itoa(openset.DefaultMax)+" tool inputs streaming at once; forgot the oldest, "+strconv.Quote(old)+": what follows it is no longer checked")
		}
	case wire.TypeToolInputDelta:
		if !k.inputs.Has(c.ToolCallID) && !k.inputs.Lost() {
			k.report(ruleTool, "tool-input-delta for tool call "+strconv.Quote(c.ToolCallID)+" before its tool-input-start")
		}
	case wire.TypeToolInputAvailable, wire.TypeToolInputError:
		k.inputs.Delete(c.ToolCallID)
		// A window of the ids seen, not state a valid stream leaves
		// open: past its cap the oldest is let go of silently (an
		// output for an unknown id is then no longer caught).
		k.calls.Put(c.ToolCallID, struct{}{})
	case wire.TypeToolOutputAvailable, wire.TypeToolOutputError, wire.TypeToolOutputDenied, wire.TypeToolApprovalRequest:
		if !k.calls.Has(c.ToolCallID) && !k.inputs.Has(c.ToolCallID) && !k.calls.Lost() && !k.inputs.Lost() {
			k.report(ruleTool, c.Type+" for tool call "+strconv.Quote(c.ToolCallID)+", which came before it in no tool input chunk")
		}
	case wire.TypeFinish, wire.TypeAbort:
		content = false
		if k.finished {
			k.report(ruleEnd, "a second "+c.Type+" chunk")
		}
		k.finished = true
	case wire.TypeMessageMetadata, wire.TypeError:
		content = false
	default:
		content = !wire.IsData(c.Type)
	}
	if k.starts == 0 && content && k.chunks == 1 {
		k.report(ruleEnd, "the stream does not open with a start chunk")
	}
	if k.finished && content && c.Type != wire.TypeFinish && c.Type != wire.TypeAbort {
		k.report(ruleEnd, c.Type+" chunk after the stream's "+wire.TypeFinish)
	}
}
