package gemini

import (
	"bytes"
	"encoding/json"
	"io"
	"slices"

	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/internal/wire/gemini"
	"github.com/agentstream/agentstream/internal/wirecheck"
)

// The format's validate rules (docs/validate.md), from the format's
// definition (gemini-cli packages/core/src/output/types.ts).
const (
	ruleFields  = "GEM001"
	ruleInit    = "GEM002"
	ruleTools   = "GEM003"
	ruleResult  = "GEM004"
	ruleStatus  = "GEM005"
	ruleStats   = "GEM006"
	ruleJSONOut = "GEM007"
)

func rules() []format.Rule {
	return []format.Rule{
		{ID: ruleFields, Name: "event-fields", Doc: "every line has a timestamp and the fields its type requires, of their types: init session_id and model; message role user or assistant and content (delta a boolean); tool_use tool_name, tool_id and a parameters object; tool_result tool_id and status success or error; error severity warning or error and message; result status success or error"},
		{ID: ruleInit, Name: "init-first", Doc: "the first line is the one init line"},
		{ID: ruleTools, Name: "tool-pairs", Doc: "a tool_result answers an earlier tool_use of its tool_id, once"},
		{ID: ruleResult, Name: "result-last", Doc: "nothing follows the result line"},
		{ID: ruleStatus, Name: "error-status", Doc: "a result or tool_result whose status is error carries an error {type, message}; a success result carries none"},
		{ID: ruleStats, Name: "stats-sum", Doc: "the result's token totals are the sums of its per-model stats"},
		{ID: ruleJSONOut, Name: "json-output", Doc: "--output-format json is one object of session_id, response, stats and error, of their types"},
	}
}

type pos = wirecheck.Pos

// check checks Gemini CLI output against the rules.
func check(r io.Reader, cfg *format.CheckConfig, rep format.Reporter) {
	(&checker{v: &wirecheck.Checker{Rep: rep, Cfg: cfg}}).check(r)
}

func (c *checker) check(r io.Reader) {
	v := c.v
	var whole []byte
	wholeLine := 0
	for raw, p := range v.Lines(r) {
		line := bytes.TrimSpace(raw)
		if wholeLine > 0 {
			whole = append(append(whole, raw...), '\n')
			if len(whole) > v.MaxBytes() {
				return // the decoder reports it
			}
			continue
		}
		if len(line) == 0 {
			continue
		}
		if c.lines == 0 && string(line) == "{" {
			wholeLine = p.Line
			whole = append(append(whole, line...), '\n')
			continue
		}
		if c.lines == 0 && isOutputObject(line) {
			c.output(line, p)
			return
		}
		c.line(line, p)
	}
	if v.Err() == nil && wholeLine > 0 && json.Valid(whole) {
		c.output(whole, pos{Line: wholeLine, Col: 1})
	}
}

type checker struct {
	v      *wirecheck.Checker
	lines  int
	init   int // line of the init, 0 if none
	result int // line of the result, 0 if none
	// The lines of the tool_use and tool_result of each tool_id, at most
	// openset.DefaultMax of each (wirecheck.Held): a window of the ids
	// seen, not state a valid stream leaves open, so past it the oldest
	// is let go of silently; a repeat of it, or a tool_result of an
	// unknown id once one was let go of, is no longer caught.
	uses     wirecheck.Held[int]
	answered wirecheck.Held[int]
}

func (c *checker) line(line []byte, p pos) {
	c.lines++
	var h struct {
		Type      *string          `json:"type"`
		Timestamp *json.RawMessage `json:"timestamp"`
	}
	if json.Unmarshal(line, &h) != nil || h.Type == nil || !gemini.IsStreamType(*h.Type) {
		return // the decoder reports it, or keeps it as unknown
	}
	typ := *h.Type
	if h.Timestamp == nil && c.v.Cfg.Foreign.Of(line) != "" {
		return // another format's line: the decoder reports it
	}
	if c.result > 0 {
		c.v.Report(ruleResult, p, "%s line after the result line (line %d)", typ, c.result)
	}
	if h.Timestamp == nil {
		c.v.Report(ruleFields, p, "%s line without a timestamp", typ)
	} else if t := bytes.TrimSpace(*h.Timestamp); len(t) == 0 || t[0] != '"' {
		c.v.Report(ruleFields, p, "%s line whose timestamp is not a string", typ)
	}
	if typ != gemini.TypeInit && c.init == 0 && c.lines == 1 {
		c.v.Report(ruleInit, p, "the first line is %s, not init", typ)
	}
	m := map[string]json.RawMessage{}
	json.Unmarshal(line, &m)
	str := func(k string, required bool, allowed ...string) (string, bool) {
		v, ok := m[k]
		if !ok {
			if required {
				c.v.Report(ruleFields, p, "%s line without %s", typ, k)
			}
			return "", false
		}
		var s string
		if json.Unmarshal(v, &s) != nil {
			c.v.Report(ruleFields, p, "%s line whose %s is not a string", typ, k)
			return "", false
		}
		if len(allowed) > 0 && !slices.Contains(allowed, s) {
			c.v.Report(ruleFields, p, "%s line whose %s is %q, not one of %q", typ, k, s, allowed)
		}
		return s, true
	}
	errorInfo := func() bool {
		v, ok := m["error"]
		if !ok {
			return false
		}
		var e struct {
			Type    *string `json:"type"`
			Message *string `json:"message"`
		}
		if json.Unmarshal(v, &e) != nil || e.Type == nil || e.Message == nil {
			c.v.Report(ruleFields, p, "%s line whose error is not {type, message} strings", typ)
		}
		return true
	}
	switch typ {
	case gemini.TypeInit:
		if c.init > 0 {
			c.v.Report(ruleInit, p, "a second init line (the first at line %d)", c.init)
		} else {
			c.init = p.Line
		}
		str("session_id", true)
		str("model", true)
	case gemini.TypeMessage:
		str("role", true, gemini.RoleUser, gemini.RoleAssistant)
		str("content", true)
		if d, ok := m["delta"]; ok {
			var b bool
			if json.Unmarshal(d, &b) != nil {
				c.v.Report(ruleFields, p, "message line whose delta is not a boolean")
			}
		}
	case gemini.TypeToolUse:
		str("tool_name", true)
		id, _ := str("tool_id", true)
		if params, ok := m["parameters"]; !ok {
			c.v.Report(ruleFields, p, "tool_use line without parameters")
		} else if !gemini.IsObject(params) {
			c.v.Report(ruleFields, p, "tool_use line whose parameters are not a JSON object")
		}
		if prev, ok := c.uses.Get(id); ok {
			c.v.Report(ruleTools, p, "a second tool_use of tool_id %q (the first at line %d)", id, prev)
		} else {
			c.uses.Put(id, p.Line) // a window: see the checker's fields
		}
	case gemini.TypeToolResult:
		id, _ := str("tool_id", true)
		status, _ := str("status", true, gemini.StatusSuccess, gemini.StatusError)
		str("output", false)
		if has := errorInfo(); !has && status == gemini.StatusError {
			c.v.Report(ruleStatus, p, "tool_result with status error and no error")
		}
		if !c.uses.Has(id) {
			if !c.uses.Lost() { // else it may be one let go of
				c.v.Report(ruleTools, p, "tool_result of tool_id %q, which no earlier tool_use has", id)
			}
		} else if prev, ok := c.answered.Get(id); ok {
			c.v.Report(ruleTools, p, "a second tool_result of tool_id %q (the first at line %d)", id, prev)
		} else {
			c.answered.Put(id, p.Line)
		}
	case gemini.TypeError:
		str("severity", true, gemini.SeverityWarning, gemini.SeverityError)
		str("message", true)
	case gemini.TypeResult:
		c.result = p.Line
		status, _ := str("status", true, gemini.StatusSuccess, gemini.StatusError)
		has := errorInfo()
		switch {
		case status == gemini.StatusError && !has:
			c.v.Report(ruleStatus, p, "result with status error and no error")
		case status == gemini.StatusSuccess && has:
			c.v.Report(ruleStatus, p, "result with status success and an error")
		}
		if raw, ok := m["stats"]; ok {
			var s gemini.StreamStats
			if json.Unmarshal(raw, &s) != nil {
				c.v.Report(ruleFields, p, "result line whose stats are not StreamStats")
			} else {
				c.stats(&s, p)
			}
		}
	}
}

// stats checks a result's totals against its per-model counts: each
// count where it and every model's are known (null is a count a converter
// did not know).
func (c *checker) stats(s *gemini.StreamStats, p pos) {
	if len(s.Models) == 0 {
		return
	}
	sum := func(name string, total *int64, count func(*gemini.ModelStats) *int64) {
		if total == nil {
			return
		}
		var n int64
		for i := range s.Models {
			v := count(&s.Models[i].Stats)
			if v == nil {
				return
			}
			n += *v
		}
		if *total != n {
			c.v.Report(ruleStats, p, "stats %s %d is not the sum of its models' (%d)", name, *total, n)
		}
	}
	sum("total_tokens", s.TotalTokens, func(m *gemini.ModelStats) *int64 { return m.TotalTokens })
	sum("input_tokens", s.InputTokens, func(m *gemini.ModelStats) *int64 { return m.InputTokens })
	sum("output_tokens", s.OutputTokens, func(m *gemini.ModelStats) *int64 { return m.OutputTokens })
	sum("cached", s.Cached, func(m *gemini.ModelStats) *int64 { return m.Cached })
	sum("input", s.Input, func(m *gemini.ModelStats) *int64 { return m.Input })
}

// output checks a --output-format json object.
func (c *checker) output(obj []byte, p pos) {
	var o gemini.Output
	if err := json.Unmarshal(obj, &o); err != nil {
		c.v.Report(ruleJSONOut, p, "json output with a field of an unexpected type")
		return
	}
	for _, k := range memberNames(obj) {
		switch k {
		case "session_id", "response", "stats", "error":
		default:
			c.v.Report(ruleJSONOut, p, "json output with a member %q the format does not have", k)
		}
	}
	if o.Error != nil && (o.Error.Type == "" && o.Error.Message == "") {
		c.v.Report(ruleJSONOut, p, "json output whose error has no type and no message")
	}
}

// memberNames returns the names of object obj's members in input order
// (a repeated name once), so that what is reported about them is the same
// on every run.
func memberNames(obj []byte) []string {
	d := json.NewDecoder(bytes.NewReader(obj))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var names []string
	for d.More() {
		t, err := d.Token()
		if err != nil {
			break
		}
		k, _ := t.(string)
		if !slices.Contains(names, k) {
			names = append(names, k)
		}
		var v json.RawMessage
		if d.Decode(&v) != nil {
			break
		}
	}
	return names
}
