package agentmeta

import (
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/jsontext"
)

// Spelling is how a target writes the meta_init and meta_final payloads
// it builds from an event's fields (not the producer's own): Init's and
// Final's fields in their order and with their omitempty, as
// encoding/json writes them, in the target's own text (the envelope's
// JSON, or Python's json.dumps inside an XML attribute), appended in
// one pass: a log of many short runs writes both for every run. Each
// target's tests compare what it writes with encoding/json. A Spelling
// serves one writer at a time: it keeps the text of the last tools list.
type Spelling struct {
	Keys *Keys // the keys, spelled
	// FinalHead is what meta_final's object holds before stop_reason,
	// with its separator.
	FinalHead string
	// Str appends a string value; Query user_query's, the prompt.
	Str, Query func(b []byte, s string) []byte
	// Producer writes agent_uuid and model even when they are empty, as
	// the XML producer does.
	Producer bool

	// The last tools list written and its text: the runs of one log
	// mostly carry the same list.
	tools     []string
	toolsText []byte
}

// Keys are the payloads' keys as a target spells them: each with the
// separator before it (none for an object's first) and the colon after;
// meta_init's first, format, with its brace and its value.
type Keys struct {
	key   [numKeys]string
	comma string
}

// The keys, in the order of the fields of Init, Final and Usage.
const (
	kFormat = iota
	kUserQuery
	kAgentUUID
	kParentAgentUUID
	kModel
	kSessionID
	kTools
	kCwd
	kParentToolID
	kName
	kDescription
	kStopReason
	kTotalSteps
	kGeneratedFiles
	kCost
	kCumulativeUsage
	kTotalCostUSD
	kDurationMS
	kIsError
	kErrors
	kResult
	kInputTokens
	kOutputTokens
	kCacheRead
	kCacheCreation
	kReasoning
	kServiceTier
	numKeys
)

// SpellKeys spells the keys, as the json tags of Init, Final and Usage
// name them, between quote and quote+colon, with comma before each but
// an object's first, and format as meta_init's format (ASCII that JSON
// does not escape).
func SpellKeys(quote, colon, comma, format string) *Keys {
	k := &Keys{comma: comma}
	i := 0
	for _, t := range []reflect.Type{reflect.TypeFor[Init](), reflect.TypeFor[Final](), reflect.TypeFor[Usage]()} {
		for j := range t.NumField() {
			name, _, _ := strings.Cut(t.Field(j).Tag.Get("json"), ",")
			if name == "-" || !t.Field(j).IsExported() {
				continue // not written (Usage.Has, what Init's reader keeps)
			}
			k.key[i] = quote + name + quote + colon
			if i != kFormat && i != kStopReason && i != kInputTokens {
				k.key[i] = comma + k.key[i]
			}
			i++
		}
	}
	k.key[kFormat] = "{" + k.key[kFormat] + quote + format + quote
	return k
}

// AppendInit appends the meta_init payload of ev, with agent as its
// agent_uuid.
func (s *Spelling) AppendInit(b []byte, agent string, ev *event.SessionStart) []byte {
	k := &s.Keys.key
	b = s.Query(append(append(b, k[kFormat]...), k[kUserQuery]...), ev.Prompt)
	b = s.field(b, kAgentUUID, agent, s.Producer)
	b = s.null(b, kParentAgentUUID, ev.ParentAgent)
	b = s.field(b, kModel, ev.Model, s.Producer)
	b = s.field(b, kSessionID, ev.SessionID, false)
	if len(ev.Tools) > 0 {
		if s.toolsText == nil || !slices.Equal(s.tools, ev.Tools) {
			s.tools = append(s.tools[:0], ev.Tools...)
			s.toolsText = s.list(s.toolsText[:0], kTools, ev.Tools)
		}
		b = append(b, s.toolsText...)
	}
	b = s.field(b, kCwd, ev.Cwd, false)
	b = s.field(b, kParentToolID, ev.ParentToolID, false)
	b = s.field(b, kName, ev.Name, false)
	b = s.field(b, kDescription, ev.Description, false)
	return append(b, '}')
}

// AppendFinal appends the meta_final payload of ev. It reports false,
// having appended nothing, for a cost encoding/json cannot write (NaN,
// infinities): the target then writes what encoding/json does.
func (s *Spelling) AppendFinal(b []byte, ev *event.RunEnd) ([]byte, bool) {
	if c := ev.CostUSD; c != nil && (math.IsNaN(*c) || math.IsInf(*c, 0)) {
		return b, false
	}
	k := &s.Keys.key
	b = s.null(append(append(b, '{'), s.FinalHead...), kStopReason, ev.StopReason)
	b = strconv.AppendInt(append(b, k[kTotalSteps]...), int64(ev.Turns), 10)
	b = append(append(append(append(b, k[kGeneratedFiles]...), "null"...), k[kCost]...), "null"...)
	if u := ev.Usage; u != nil {
		b = jsontext.AppendOptInt(append(append(append(b, k[kCumulativeUsage]...), '{'), k[kInputTokens]...), u.Given(event.HasInput))
		b = jsontext.AppendOptInt(append(b, k[kOutputTokens]...), u.Given(event.HasOutput))
		b = s.int(b, kCacheRead, u.CacheReadTokens)
		b = s.int(b, kCacheCreation, u.CacheWriteTokens)
		b = s.int(b, kReasoning, u.ReasoningTokens)
		b = append(s.field(b, kServiceTier, u.ServiceTier, false), '}')
	}
	if c := ev.CostUSD; c != nil {
		b = jsontext.AppendMarshalFloat(append(b, k[kTotalCostUSD]...), *c)
	}
	b = s.int(b, kDurationMS, ev.DurationMS)
	if ev.IsError {
		b = append(append(b, k[kIsError]...), "true"...)
	}
	b = s.list(b, kErrors, ev.Errors)
	return append(s.field(b, kResult, ev.Result, false), '}'), true
}

// field appends key i and v, unless v is empty and not kept (omitempty).
func (s *Spelling) field(b []byte, i int, v string, keep bool) []byte {
	if v == "" && !keep {
		return b
	}
	return s.Str(append(b, s.Keys.key[i]...), v)
}

// null appends key i and v, null when v is empty (a *string field).
func (s *Spelling) null(b []byte, i int, v string) []byte {
	b = append(b, s.Keys.key[i]...)
	if v == "" {
		return append(b, "null"...)
	}
	return s.Str(b, v)
}

// int appends key i and n, unless n is 0 (omitempty).
func (s *Spelling) int(b []byte, i int, n int64) []byte {
	if n == 0 {
		return b
	}
	return strconv.AppendInt(append(b, s.Keys.key[i]...), n, 10)
}

// list appends key i and list, unless it is empty (omitempty).
func (s *Spelling) list(b []byte, i int, list []string) []byte {
	if len(list) == 0 {
		return b
	}
	b = append(append(b, s.Keys.key[i]...), '[')
	for j, v := range list {
		if j > 0 {
			b = append(b, s.Keys.comma...)
		}
		b = s.Str(b, v)
	}
	return append(b, ']')
}

// InitSize and FinalSize are the lengths of the event's strings that
// AppendInit and AppendFinal write: with the keys' a bound on what a
// target writes, escapes aside.
func InitSize(ev *event.SessionStart) int {
	n := len(ev.Prompt) + len(ev.Agent) + len(ev.ParentAgent) + len(ev.Model) + len(ev.SessionID) + len(ev.Cwd) +
		len(ev.ParentToolID) + len(ev.Name) + len(ev.Description)
	for _, t := range ev.Tools {
		n += len(t)
	}
	return n
}

// FinalSize is InitSize for a run's end: the bytes of the strings
// AppendFinal writes from ev.
func FinalSize(ev *event.RunEnd) int {
	n := len(ev.StopReason) + len(ev.Result)
	if ev.Usage != nil {
		n += len(ev.Usage.ServiceTier)
	}
	for _, s := range ev.Errors {
		n += len(s)
	}
	return n
}

// FinalOf returns the meta_final payload of ev's fields, for
// encoding/json: what AppendFinal writes, and what a target writes when
// AppendFinal declines.
func FinalOf(ev *event.RunEnd) Final {
	m := Final{
		StopReason: OptString(ev.StopReason), TotalSteps: ev.Turns, TotalCostUSD: ev.CostUSD,
		DurationMS: ev.DurationMS, IsError: ev.IsError, Errors: ev.Errors, Result: ev.Result,
	}
	if u := ev.Usage; u != nil {
		m.CumulativeUsage = &Usage{
			InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
			CacheReadInputTokens: u.CacheReadTokens, CacheCreationInputTokens: u.CacheWriteTokens,
			ReasoningOutputTokens: u.ReasoningTokens, ServiceTier: u.ServiceTier, Has: u.Has,
		}
	}
	return m
}
