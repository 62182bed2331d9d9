package claude

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/messages"
	wire "github.com/agentstream/agentstream/internal/wire/claude"
)

// The lines below are written by appending, as messages.Marshal writes
// their structs (encoding/json, field order and omitempty included):
// reflection would weigh on conversions into stream-json, where a log of
// many short runs (Codex's) makes init, result and tool result lines
// common. encode_test.go checks each against messages.Marshal.

// compactJSON returns raw as json.Compact writes it, and whether raw is
// valid JSON (as json.Valid has it), checked in one pass where a
// jsontext.Reader can (jsontext.Compacted). A payload its decoder
// noted compact (note, event.Checked) is raw itself, not read again.
func (e *Encoder) compactJSON(raw []byte, note event.Checked) ([]byte, bool) {
	if note.Compact(raw) {
		return raw, true
	}
	return jsontext.Compacted(&e.jr, raw)
}

// appendFloat appends f as encoding/json writes a float64, or reports
// false for NaN and infinities, which it refuses.
func appendFloat(b []byte, f float64) ([]byte, bool) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return b, false
	}
	return jsontext.AppendMarshalFloat(b, f), true
}

// appendStrings appends s as a JSON array of strings ([] for nil).
func appendStrings(b []byte, s []string) []byte {
	b = append(b, '[')
	for i, v := range s {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsontext.AppendMarshalString(b, v)
	}
	return append(b, ']')
}

// escapedTexts keeps the JSON strings of the last few texts of at most
// maxEscapedText bytes it was given, to write them again without escaping them anew.
type escapedTexts struct {
	text [4]string
	json [4][]byte
	next int // the entry to replace next
}

// maxEscapedText is the size of the longest text escapedTexts keeps.
const maxEscapedText = 1 << 10

// append appends s as a JSON string.
func (c *escapedTexts) append(b []byte, s string) []byte {
	for i, t := range c.text {
		if t == s && c.json[i] != nil {
			return append(b, c.json[i]...)
		}
	}
	if len(s) > maxEscapedText {
		return jsontext.AppendMarshalString(b, s)
	}
	i := c.next
	c.next = (i + 1) % len(c.text)
	c.text[i], c.json[i] = s, jsontext.AppendMarshalString(c.json[i][:0], s)
	return append(b, c.json[i]...)
}

// appendStrings appends s as a JSON array of strings, as appendStrings
// does.
func (c *escapedTexts) appendStrings(b []byte, s []string) []byte {
	b = append(b, '[')
	for i, v := range s {
		if i > 0 {
			b = append(b, ',')
		}
		b = c.append(b, v)
	}
	return append(b, ']')
}

// appendInit appends the system/init line in, as Marshal writes
// wire.Init, of which it sets Cwd, Model, Tools, SessionID and UUID (the
// others are agentstream's defaults, see init).
func (e *Encoder) appendInit(b []byte, cwd, model string, tools []string) []byte {
	c := &e.initLine
	if c.head == nil || cwd != c.cwd || model != c.model || (tools == nil) != (c.tools == nil) || !slices.Equal(tools, c.tools) {
		// A log of many runs of one agent has the same in each: all
		// but the session id and the uuid is made once.
		c.cwd, c.model, c.tools = strings.Clone(cwd), strings.Clone(model), slices.Clone(tools)
		c.head = append(jsontext.AppendMarshalString(append(c.head[:0], `{"type":"`+wire.TypeSystem+`","subtype":"`+wire.SubtypeInit+`","cwd":`...), cwd), `,"session_id":`...)
		t := append(c.tail[:0], `,"tools":`...)
		if tools == nil {
			t = append(t, "null"...)
		} else {
			t = appendStrings(t, tools)
		}
		t = jsontext.AppendMarshalString(append(t, `,"mcp_servers":[],"model":`...), model)
		c.tail = append(t, `,"permissionMode":"default","slash_commands":[],"apiKeySource":"none","claude_code_version":"agentstream","output_style":"default","agents":[],"skills":[],"plugins":[],"uuid":"`...)
	}
	b = append(append(append(b, c.head...), e.sessionText()...), c.tail...)
	return append(e.appendUUID(b), `"}`...)
}

// initLine is the init line appendInit made last, but its session id and
// uuid: head and tail, the JSON before and after the session id, of
// cwd, model and tools.
type initLine struct {
	cwd, model string
	tools      []string
	head, tail []byte
}

// appendResult appends the result line r, as Marshal writes
// wire.Result with an empty ModelUsage and PermissionDenials and a
// TotalCostUSD, but for its usage: u as messages.AppendUsage writes a
// message's (the counts the source gave, in Claude Code's key order; nil
// is the unknown form), in place of r.Usage. result, when not nil, is
// the JSON of its result text, written in place of r.Result; uuid, when
// not nil, is its uuid (hex digits and dashes, which need no escape),
// written in place of r.UUID. It reports false when r does not marshal
// (its cost is NaN or infinite). session, when not nil, is r.SessionID
// as a JSON string; errs, when not nil, is r.Errors as a JSON array.
func appendResult(b []byte, r *wire.Result, u *event.Usage, result, uuid, session, errs []byte) ([]byte, bool) {
	b = append(b, `{"type":`...)
	b = appendName(b, r.Type)
	b = append(b, `,"subtype":`...)
	b = appendName(b, r.Subtype)
	b = append(b, `,"is_error":`...)
	b = strconv.AppendBool(b, r.IsError)
	b = append(b, `,"duration_ms":`...)
	b = jsontext.AppendInt(b, r.DurationMS)
	b = append(b, `,"duration_api_ms":`...)
	b = jsontext.AppendInt(b, r.DurationAPIMS)
	b = append(b, `,"num_turns":`...)
	b = jsontext.AppendInt(b, int64(r.NumTurns))
	switch {
	case result != nil:
		b = append(append(b, `,"result":`...), result...)
	case r.Result != nil:
		b = append(b, `,"result":`...)
		b = jsontext.AppendMarshalString(b, *r.Result)
	}
	b = append(b, `,"stop_reason":`...)
	b = jsontext.AppendOptString(b, r.StopReason)
	b = append(b, `,"session_id":`...)
	if session != nil {
		b = append(b, session...)
	} else {
		b = jsontext.AppendMarshalString(b, r.SessionID)
	}
	b = append(b, `,"total_cost_usd":`...)
	if r.TotalCostUSD == nil {
		b = append(b, "null"...) // unknown: the source gave none
	} else {
		var ok bool
		if b, ok = appendFloat(b, *r.TotalCostUSD); !ok {
			return b, false
		}
	}
	b = messages.AppendUsage(append(b, `,"usage":`...), u)
	return appendResultEnd(b, r, uuid, errs), true
}

// appendResultEnd appends what follows a result line's usage.
func appendResultEnd(b []byte, r *wire.Result, uuid, errs []byte) []byte {
	b = append(b, `,"modelUsage":{},"permission_denials":[]`...)
	if len(r.Errors) > 0 {
		b = append(b, `,"errors":`...)
		if errs != nil {
			b = append(b, errs...)
		} else {
			b = appendStrings(b, r.Errors)
		}
	}
	b = append(b, `,"uuid":`...)
	if uuid != nil {
		b = append(append(append(b, '"'), uuid...), '"')
	} else {
		b = jsontext.AppendMarshalString(b, r.UUID)
	}
	return append(b, '}')
}

// appendName appends s as a JSON string: the type and subtypes of the
// lines the encoder makes, and the error types it gives, which need no
// escape, as they are.
func appendName(b []byte, s string) []byte {
	switch s {
	case wire.TypeResult, wire.SubtypeSuccess, wire.SubtypeErrorDuring, unknownErrorType, TurnFailedErrorType:
		return append(append(append(b, '"'), s...), '"')
	}
	return jsontext.AppendMarshalString(b, s)
}

// appendTextBlock appends {"type":"text","text":text}, as Marshal writes
// a struct of these two fields (with omitempty the empty text is left
// out).
func appendTextBlock(b []byte, text string, omitEmpty bool) []byte {
	if omitEmpty && text == "" {
		return append(b, `{"type":"text"}`...)
	}
	b = append(b, `{"type":"text","text":`...)
	return append(jsontext.AppendMarshalString(b, text), '}')
}
