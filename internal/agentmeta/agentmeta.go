// Package agentmeta reads the meta_init and meta_final payloads of the
// anthropic_agent producer, which its two formats, the legacy XML stream
// (in a data attribute) and the JSON envelope (in the delta), share. One
// mapping onto the event model serves both decoders, so the two formats
// of one run decode to the same SessionStart and RunEnd.
package agentmeta

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/openset"
)

// Kind is the event.SessionStart.MetaKind and event.RunEnd.MetaKind of
// these payloads.
const Kind = "anthropic_agent"

// Init is the meta_init payload. The producer writes format, user_query,
// agent_uuid, parent_agent_uuid, model and message_history; agentstream
// adds session_id, tools, cwd, parent_tool_use_id, name and description
// when the source carries them.
type Init struct {
	Format          string          `json:"format,omitempty"`
	UserQuery       json.RawMessage `json:"user_query,omitempty"`
	AgentUUID       string          `json:"agent_uuid,omitempty"`
	ParentAgentUUID *string         `json:"parent_agent_uuid"`
	Model           string          `json:"model,omitempty"`
	SessionID       string          `json:"session_id,omitempty"`
	Tools           []string        `json:"tools,omitempty"`
	Cwd             string          `json:"cwd,omitempty"`
	ParentToolID    string          `json:"parent_tool_use_id,omitempty"`
	Name            string          `json:"name,omitempty"`
	Description     string          `json:"description,omitempty"`
}

// Final is the meta_final payload. The producer writes
// conversation_history, stop_reason, total_steps, generated_files, cost and
// cumulative_usage; agentstream adds the rest when the source carries them.
type Final struct {
	StopReason      *string  `json:"stop_reason"` // null when unknown, as the producer writes None
	TotalSteps      int      `json:"total_steps"`
	GeneratedFiles  any      `json:"generated_files"`
	Cost            any      `json:"cost"`
	CumulativeUsage *Usage   `json:"cumulative_usage,omitempty"`
	TotalCostUSD    *float64 `json:"total_cost_usd,omitempty"`
	DurationMS      int64    `json:"duration_ms,omitempty"`
	IsError         bool     `json:"is_error,omitempty"`
	Errors          []string `json:"errors,omitempty"`
	Result          string   `json:"result,omitempty"`
}

// Usage is the cumulative_usage object.
type Usage struct {
	InputTokens              int64 `json:"input_tokens"`
	OutputTokens             int64 `json:"output_tokens"`
	CacheReadInputTokens     int64 `json:"cache_read_input_tokens,omitempty"`
	CacheCreationInputTokens int64 `json:"cache_creation_input_tokens,omitempty"`
	ReasoningOutputTokens    int64 `json:"reasoning_output_tokens,omitempty"`
	// ServiceTier is Anthropic's service_tier, which agentstream adds
	// when the source gives one.
	ServiceTier string `json:"service_tier,omitempty"`
	// Has is the counts the object gives (keys not null), as read.
	Has event.Counts `json:"-"`
}

// Reader reads the meta_init and meta_final payloads of one stream (a
// decoder keeps one), with few allocations: the strings of a meta_init
// that repeat the last one's (its tools list above all: 24 names in each of the xml producer's
// meta_init) are the last one's strings, not new copies. Strings are
// immutable, so the events stay independent. The zero value is ready to
// use.
type Reader struct {
	last  Init     // the last meta_init read in one pass, Tools aside
	tools []string // its tools list, the Reader's own copy
	// toolsJSON is the JSON text tools was read from (a copy), when it
	// was read whole: a list whose text is the same is that list.
	toolsJSON []byte
	in        []byte // the payload being read
	// json reads the payloads: its scratch for unescaped strings is
	// kept from one payload to the next (a new one would grow it from
	// nothing for each meta_final's result), but not after a payload over
	// keepScratch (big).
	json jsontext.Reader
	big  bool
}

// keepScratch is the longest payload after which the Reader keeps its
// scratch.
const keepScratch = 1 << 20

// reader returns the jsontext.Reader to read b with.
func (c *Reader) reader(b []byte) *jsontext.Reader {
	if c.big {
		c.json = jsontext.Reader{} // lets go of the scratch the last payload grew
	}
	c.big = len(b) > keepScratch
	c.in = b
	c.json.ResetValid(b)
	return &c.json
}

// SessionStart maps a meta_init payload onto a SessionStart of agent,
// keeping the payload as Meta. ok is false when data is not a JSON
// object; the event then carries only Meta. The parsed payload is
// returned for decoders that need more of it (agent_uuid for scopes).
//
// data must be valid UTF-8, as a decoder's input is once badutf8 has
// made it so, and is handed over: it becomes Meta as it is, not copied
// (a payload is as long as the run's result), and the caller must not
// change it after.
//
// The payload is read in one pass (jsontext.Reader) when it can be; odd
// input goes to encoding/json, with the same results.
func (c *Reader) SessionStart(agent string, data []byte) (ev *event.SessionStart, m Init, ok bool) {
	return c.sessionStart(agent, data, true)
}

// sessionStart is SessionStart, with the one-pass reading off when fast
// is false (for tests: both must give the same).
func (c *Reader) sessionStart(agent string, b []byte, fast bool) (ev *event.SessionStart, m Init, ok bool) {
	ev = &event.SessionStart{Agent: agent, MetaKind: Kind}
	r := c.reader(b)
	if fast && c.readInit(r, &m, &ev.Prompt) && r.End() {
		// The Reader read valid JSON, which json.Valid accepts: b is
		// what event.JSONText would keep.
		ev.Meta = b
		setInit(ev, &m)
		c.last = m
		c.last.Tools = nil
		return ev, m, true
	}
	m, ev.Prompt = Init{}, ""
	ev.Meta = event.JSONText(string(b))
	if json.Unmarshal(b, &m) != nil {
		return ev, m, false
	}
	setInit(ev, &m)
	var q string
	if json.Unmarshal(m.UserQuery, &q) == nil {
		ev.Prompt = q
	} else if len(m.UserQuery) > 0 {
		ev.Prompt = string(m.UserQuery)
	}
	return ev, m, true
}

func setInit(ev *event.SessionStart, m *Init) {
	ev.Model, ev.SessionID, ev.Tools, ev.Cwd = m.Model, m.SessionID, m.Tools, m.Cwd
	ev.ParentToolID, ev.Name, ev.Description = m.ParentToolID, m.Name, m.Description
	if m.ParentAgentUUID != nil {
		ev.ParentAgent = *m.ParentAgentUUID
	}
}

// readInit reads a meta_init payload as json.Unmarshal into Init does,
// and the prompt user_query gives (a JSON string unquoted, null nothing,
// anything else its JSON text), or reports false.
func (c *Reader) readInit(r *jsontext.Reader, m *Init, prompt *string) bool {
	if !r.Object() {
		return false
	}
	for key, ok := r.KeyFold(); ok; key, ok = r.KeyFold() {
		switch string(key) {
		case "user_query":
			switch r.Peek() {
			case '"':
				off := r.Offset()
				*prompt = r.String()
				m.UserQuery = r.Since(off)
			case 'n':
				m.UserQuery, *prompt = r.Skip(), ""
			default:
				m.UserQuery = r.Skip()
				*prompt = string(m.UserQuery)
			}
		case "parent_agent_uuid":
			r.OptStringField(&m.ParentAgentUUID)
		case "tools":
			m.Tools = c.readTools(r)
		default:
			if f := m.stringField(string(key)); f != nil {
				stringField(r, f, c.last.stringField(string(key)))
			} else {
				r.SkipUnknown(key, isInitField)
			}
		}
	}
	return !r.Failed()
}

// stringField returns the string field of m whose key is name, or nil.
func (m *Init) stringField(name string) *string {
	return fieldOf(name, []keyed[string]{
		{"format", &m.Format},
		{"agent_uuid", &m.AgentUUID},
		{"model", &m.Model},
		{"session_id", &m.SessionID},
		{"cwd", &m.Cwd},
		{"parent_tool_use_id", &m.ParentToolID},
		{"name", &m.Name},
		{"description", &m.Description},
	})
}

// keyed is a field of a payload struct and its JSON key.
type keyed[T any] struct {
	key string
	p   *T
}

// fieldOf returns the field of fields whose key is name, or nil.
func fieldOf[T any](name string, fields []keyed[T]) *T {
	for _, f := range fields {
		if f.key == name {
			return f.p
		}
	}
	return nil
}

func isInitField(name string) bool {
	switch name {
	case "user_query", "parent_agent_uuid", "tools":
		return true
	}
	return new(Init).stringField(name) != nil
}

// stringField reads a string into a string field as r.StringField does,
// reusing last when the string is the same.
func stringField(r *jsontext.Reader, s, last *string) {
	if r.Null() {
		return
	}
	if b := r.Str(); string(b) == *last {
		*s = *last
	} else {
		*s = string(b)
	}
}

// readTools reads the tools field as readStrings does, into a new slice
// (each event has its own) whose names are the last list's where they
// are the same, in the same place: one allocation for a list that
// repeats the last one, not one per name and per growth of the slice.
func (c *Reader) readTools(r *jsontext.Reader) []string {
	if r.Null() {
		return nil
	}
	off := r.Offset() // Null read the white space: the value starts here
	if j := c.toolsJSON; len(j) > 0 && !r.Failed() && bytes.HasPrefix(c.in[off:], j) {
		// The same text as the last list: the same names. A JSON array
		// ends at its own ']', so the prefix is the whole value, and it
		// was read without failure before: a memcmp instead of reading
		// every name again.
		r.Rewind(off+len(j), r.Depth())
		return append(make([]string, 0, len(c.tools)), c.tools...)
	}
	c.toolsJSON = c.toolsJSON[:0] // tools is overwritten below
	names := c.tools[:0]
	if r.Array() {
		for i := 0; r.More(); i++ {
			b := r.Str()
			// names[i] is overwritten by this append: it is read first.
			if i < len(c.tools) && string(b) == c.tools[i] {
				names = append(names, c.tools[i])
			} else {
				names = append(names, string(b))
			}
		}
	}
	c.tools = names
	if !r.Failed() {
		c.toolsJSON = append(c.toolsJSON, r.Since(off)...)
	}
	return append(make([]string, 0, len(names)), names...) // [] is an empty slice, not nil
}

// readStrings reads a []string field: null sets it to nil, an array
// replaces its elements ([] is an empty slice, not nil).
func readStrings(r *jsontext.Reader, s []string) []string {
	if r.Null() {
		return nil
	}
	s = s[:0]
	if r.Array() {
		for r.More() {
			s = append(s, r.String())
		}
	}
	if s == nil {
		s = []string{}
	}
	return s
}

// RunEnd maps a meta_final payload onto a RunEnd of agent, keeping the
// payload as Meta. The producer's cost breakdown ({"total_cost": ...,
// "currency": "USD"}) gives CostUSD when total_cost_usd is absent. data
// is valid UTF-8 and handed over, as in SessionStart.
//
// The payload is read in one pass (jsontext.Reader) when it can be; odd
// input goes to encoding/json, with the same results.
func (c *Reader) RunEnd(agent string, data []byte) *event.RunEnd {
	return c.runEnd(agent, data, true)
}

// runEnd is RunEnd, with the one-pass reading off when fast is false.
func (c *Reader) runEnd(agent string, b []byte, fast bool) *event.RunEnd {
	ev := &event.RunEnd{Agent: agent, MetaKind: Kind}
	r := c.reader(b)
	var m Final
	var cost costUSD
	if fast && readFinal(r, &m, &cost) && r.End() {
		ev.Meta = b // valid JSON, as in SessionStart
		setFinal(ev, &m, cost.usd())
		return ev
	}
	ev.Meta = event.JSONText(string(b))
	m = Final{}
	if json.Unmarshal(b, &m) != nil {
		return ev
	}
	var total *float64
	if c, ok := m.Cost.(map[string]any); ok {
		if t, ok := c["total_cost"].(float64); ok && (c["currency"] == nil || c["currency"] == "USD") {
			total = &t
		}
	}
	setFinal(ev, &m, total)
	return ev
}

func setFinal(ev *event.RunEnd, m *Final, total *float64) {
	ev.Turns, ev.DurationMS = m.TotalSteps, m.DurationMS
	if m.StopReason != nil {
		ev.StopReason = *m.StopReason
	}
	ev.CostUSD, ev.IsError, ev.Errors, ev.Result = m.TotalCostUSD, m.IsError, m.Errors, m.Result
	if ev.CostUSD == nil {
		ev.CostUSD = total
	}
	if u := m.CumulativeUsage; u != nil {
		ev.Usage = &event.Usage{
			InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
			CacheReadTokens: u.CacheReadInputTokens, CacheWriteTokens: u.CacheCreationInputTokens,
			ReasoningTokens: u.ReasoningOutputTokens, ServiceTier: u.ServiceTier, Has: u.Has,
		}
	}
}

// costUSD is what RunEnd needs of the cost object, read as json.Unmarshal
// into a map[string]any would hold it (the last of duplicate keys wins).
type costUSD struct {
	object   bool
	total    float64
	isTotal  bool // total_cost is a number
	currency int  // 0 absent or null, 1 "USD", 2 anything else
}

func (c costUSD) usd() *float64 {
	if c.object && c.isTotal && c.currency < 2 {
		return &c.total
	}
	return nil
}

// readFinal reads a meta_final payload as json.Unmarshal into Final does
// (Final.Cost and Final.GeneratedFiles only checked, the cost's total
// kept in cost), or reports false.
func readFinal(r *jsontext.Reader, m *Final, cost *costUSD) bool {
	if !r.Object() {
		return false
	}
	for key, ok := r.KeyFold(); ok; key, ok = r.KeyFold() {
		switch string(key) {
		case "stop_reason":
			r.OptStringField(&m.StopReason)
		case "total_steps":
			if !r.Null() {
				n := r.Int()
				if int64(int(n)) != n {
					r.Fail()
				}
				m.TotalSteps = int(n)
			}
		case "generated_files":
			skipAny(r)
		case "cost":
			*cost = costUSD{}
			readCost(r, cost)
		case "cumulative_usage":
			if r.Null() {
				m.CumulativeUsage = nil
				continue
			}
			if m.CumulativeUsage == nil {
				m.CumulativeUsage = new(Usage)
			}
			readUsage(r, m.CumulativeUsage)
		case "total_cost_usd":
			if r.Null() {
				m.TotalCostUSD = nil
				continue
			}
			f := r.Float()
			m.TotalCostUSD = &f
		case "duration_ms":
			if !r.Null() {
				m.DurationMS = r.Int()
			}
		case "is_error":
			if !r.Null() {
				m.IsError = r.Bool()
			}
		case "errors":
			m.Errors = readStrings(r, m.Errors)
		case "result":
			r.StringField(&m.Result)
		default:
			r.SkipUnknown(key, isFinalField)
		}
	}
	return !r.Failed()
}

func isFinalField(name string) bool {
	switch name {
	case "stop_reason", "total_steps", "generated_files", "cost", "cumulative_usage", "total_cost_usd",
		"duration_ms", "is_error", "errors", "result":
		return true
	}
	return false
}

// readCost reads the cost, an any field: an object's total_cost and
// currency are kept.
func readCost(r *jsontext.Reader, c *costUSD) {
	if r.Peek() != '{' {
		skipAny(r)
		return
	}
	c.object = true
	r.Object()
	// The keys of a map: exact, so capitals are only other keys.
	for key, ok := r.KeyFold(); ok; key, ok = r.KeyFold() {
		switch string(key) {
		case "total_cost":
			if c.isTotal = isNumber(r.Peek()); c.isTotal {
				c.total = r.Float()
			} else {
				skipAny(r)
			}
		case "currency":
			switch r.Peek() {
			case 'n':
				r.Null()
				c.currency = 0
			case '"':
				c.currency = 2
				if string(r.Str()) == "USD" {
					c.currency = 1
				}
			default:
				c.currency = 2
				skipAny(r)
			}
		default:
			skipAny(r)
		}
	}
}

func readUsage(r *jsontext.Reader, u *Usage) {
	if !r.Object() {
		return
	}
	for key, ok := r.KeyFold(); ok; key, ok = r.KeyFold() {
		if string(key) == "service_tier" {
			if !r.Null() {
				u.ServiceTier = r.String()
			}
			continue
		}
		n := u.field(string(key))
		if n == nil {
			r.SkipUnknown(key, isUsageField)
		} else if !r.Null() {
			*n = r.Int()
			u.Has |= u.count(n)
		}
	}
}

// field returns the field of u whose key is name, or nil.
func (u *Usage) field(name string) *int64 {
	return fieldOf(name, []keyed[int64]{
		{"input_tokens", &u.InputTokens},
		{"output_tokens", &u.OutputTokens},
		{"cache_read_input_tokens", &u.CacheReadInputTokens},
		{"cache_creation_input_tokens", &u.CacheCreationInputTokens},
		{"reasoning_output_tokens", &u.ReasoningOutputTokens},
	})
}

// MarshalJSON encodes u as encoding/json encodes its fields, with
// input_tokens and output_tokens null, their unknown form, when Has does
// not give them (never a made-up 0).
func (u Usage) MarshalJSON() ([]byte, error) {
	type plain struct {
		InputTokens              *int64 `json:"input_tokens"`
		OutputTokens             *int64 `json:"output_tokens"`
		CacheReadInputTokens     int64  `json:"cache_read_input_tokens,omitempty"`
		CacheCreationInputTokens int64  `json:"cache_creation_input_tokens,omitempty"`
		ReasoningOutputTokens    int64  `json:"reasoning_output_tokens,omitempty"`
		ServiceTier              string `json:"service_tier,omitempty"`
	}
	p := plain{
		CacheReadInputTokens: u.CacheReadInputTokens, CacheCreationInputTokens: u.CacheCreationInputTokens,
		ReasoningOutputTokens: u.ReasoningOutputTokens, ServiceTier: u.ServiceTier,
	}
	if u.Has&event.HasInput != 0 {
		p.InputTokens = &u.InputTokens
	}
	if u.Has&event.HasOutput != 0 {
		p.OutputTokens = &u.OutputTokens
	}
	// Unescaped: the encoder that called escapes HTML, or not, as it is
	// set to.
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(p); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// UnmarshalJSON decodes a usage object as readUsage does, so that Has is
// set whichever reader decodes it.
func (u *Usage) UnmarshalJSON(b []byte) error {
	var r jsontext.Reader
	r.Reset(b)
	if r.Null() {
		return nil
	}
	if readUsage(&r, u); r.End() {
		return nil
	}
	// Not a usage object readUsage reads: encoding/json's error.
	type plain Usage
	return json.Unmarshal(b, (*plain)(u))
}

// count returns the count of u that field n is.
func (u *Usage) count(n *int64) event.Counts {
	switch n {
	case &u.InputTokens:
		return event.HasInput
	case &u.OutputTokens:
		return event.HasOutput
	case &u.CacheReadInputTokens:
		return event.HasCacheRead
	case &u.CacheCreationInputTokens:
		return event.HasCacheWrite
	}
	return event.HasReasoning
}

func isUsageField(name string) bool { return name == "service_tier" || new(Usage).field(name) != nil }

func isNumber(c byte) bool { return c == '-' || '0' <= c && c <= '9' }

// skipAny skips a value that encoding/json would decode into an any: as
// Skip, but numbers must also fit a float64. Only an exponent or more
// than 300 characters can take one past 1.8e308, so only such numbers
// are converted to see.
func skipAny(r *jsontext.Reader) {
	switch c := r.Peek(); {
	case c == '{':
		r.Object()
		for _, ok := r.KeyFold(); ok; _, ok = r.KeyFold() {
			skipAny(r)
		}
	case c == '[':
		r.Array()
		for r.More() {
			skipAny(r)
		}
	case isNumber(c):
		if b := r.Skip(); len(b) > 300 || bytes.ContainsAny(b, "eE") {
			if _, err := strconv.ParseFloat(string(b), 64); err != nil {
				r.Fail()
			}
		}
	default:
		r.Skip()
	}
}

// Turns reports what the envelope and the XML stream cannot carry of a
// run's model turns: they have no turn boundaries, so a turn's message
// id, model, usage and stop reason have no place but the run's own
// meta_init (the session's model) and meta_final (the run's stop reason
// and cumulative usage). The zero value is ready to use.
type Turns struct {
	// Each agent's session model, from its SessionStart, for the agents
	// that started last: at most openset.DefaultMax (a stream of many
	// short runs, such as Codex's, starts an agent per run). A TurnStart
	// of an agent let go of is compared with no session model, as one of
	// an agent that never started a session is.
	model openset.Map[string, string]

	// The main agent's turns, for a run end the source does not give
	// (see RunEnd).
	main     string
	haveMain bool
	turns    int
	stop     string
	usage    *event.Usage
	ended    bool // the main agent's run end came
}

// Report passes to warn what of ev the two formats cannot carry, once
// per kind when warn is an event.Losses' report.
func (t *Turns) Report(ev event.Event, warn func(what string)) {
	agent := ev.AgentID()
	if !t.haveMain {
		t.main, t.haveMain = agent, true
	}
	switch ev := ev.(type) {
	case *event.SessionStart:
		if ev.ParentAgent == "" && ev.ParentToolID == "" && t.turns == 0 {
			t.main = ev.Agent
		}
		// An agent without a model reads back as one never held does:
		// not held, it takes no place from those with one (a log of
		// many Codex runs starts an agent, with no model, per run).
		if ev.Model != "" {
			t.model.Put(ev.Agent, ev.Model)
		} else {
			t.model.Delete(ev.Agent)
		}
	case *event.TurnStart:
		if ev.MessageID != "" {
			warn("message ids")
		}
		if m, _ := t.model.Get(ev.Agent); ev.Model != "" && ev.Model != m {
			warn("models of messages (meta_init names the session's model only)")
		}
		if ev.Usage != nil {
			warn("per-turn usage (meta_final carries the run's cumulative usage only)")
		}
	case *event.TurnEnd:
		if agent == t.main {
			t.turns++
			t.stop = ev.StopReason
			if u := ev.Usage; u != nil {
				if t.usage == nil {
					t.usage = &event.Usage{}
				}
				t.usage.Add(u)
				if u.ServiceTier != "" {
					t.usage.ServiceTier = u.ServiceTier
				}
			}
		}
		if ev.Usage != nil {
			warn("per-turn usage (meta_final carries the run's cumulative usage only)")
		}
		if ev.StopReason != "" {
			warn("per-turn stop reasons (meta_final carries the run's stop reason only)")
		}
	case *event.RunEnd:
		if agent == t.main {
			t.ended = true
		}
	}
}

// ReportEnd passes to warn, at the end of the stream, what of the main
// agent's turns had no place: a source with turns but no run end of its
// own (an API body, a Codex run) has no meta_final, which alone carries a
// stop reason and usage.
func (t *Turns) ReportEnd(warn func(what string)) {
	if t.ended {
		return
	}
	if t.usage != nil {
		warn("the usage of a run without a run end (meta_final carries a run's usage only)")
	}
	if t.stop != "" {
		warn("the stop reason of a run without a run end (meta_final carries a run's stop reason only)")
	}
}

// OptString returns s, or nil for "": a value the source did not give,
// written as null.
func OptString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
