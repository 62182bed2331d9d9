package xml

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/agentmeta"
	wire "github.com/agentstream/agentstream/parse/xmlstream"
)

// refMetaInit is the meta_init payload built with encoding/json and
// rewritten by marshal, as the encoder wrote it before pySpelling:
// appendASCIIData of it is what AppendInit must write byte for byte.
func refMetaInit(agent string, ev *event.SessionStart) []byte {
	m := struct {
		// The producer writes these five whether empty or not, where
		// agentmeta.Init leaves the empty ones out: they hide Init's own,
		// whose other fields follow them, in Init's order.
		Format          string          `json:"format"`
		UserQuery       json.RawMessage `json:"user_query"`
		AgentUUID       string          `json:"agent_uuid"`
		ParentAgentUUID *string         `json:"parent_agent_uuid"`
		Model           string          `json:"model"`
		agentmeta.Init
	}{
		Format: "xml", AgentUUID: agent, Model: ev.Model,
		Init: agentmeta.Init{
			SessionID: ev.SessionID, Tools: ev.Tools, Cwd: ev.Cwd, ParentToolID: ev.ParentToolID,
			Name: ev.Name, Description: ev.Description,
		},
	}
	m.UserQuery, _ = json.Marshal(ev.Prompt)
	if ev.ParentAgent != "" {
		m.ParentAgentUUID = &ev.ParentAgent
	}
	return marshal(m)
}

// refErrorJSON is appendErrorJSON's object through encoding/json.
func refErrorJSON(typ, msg string) []byte {
	return marshal(struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	}{typ, msg})
}

// pyStrings are strings around what appendPyQuoted escapes.
var pyStrings = []string{
	"", "plain", `"quoted" \ back\slash`, "line\nbreak\r\ttab\b\f", "\x00\x01\x1f\x7f", "<&>'",
	"é测🦊", "\u2028\u2029", "\ufffd", "bad \xff utf8 \xed\xa0\x80 \xc2", "\xf4\x90\x80\x80",
	strings.Repeat("long plain text ", 40) + "é",
}

// checkMetaInit checks sp's AppendInit, and a new copy of pySpelling's
// (sp's keeps the last tools list).
func checkMetaInit(t *testing.T, sp *agentmeta.Spelling, agent string, ev *event.SessionStart) {
	t.Helper()
	want := appendASCIIData([]byte("x"), refMetaInit(agent, ev))
	fresh := pySpelling
	for _, sp := range []*agentmeta.Spelling{sp, &fresh} {
		got := sp.AppendInit([]byte("x"), agent, ev)
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Fatalf("AppendInit(%q, %+v) (-encoding/json +append):\n%s", agent, ev, diff)
		}
	}
}

func TestAppendMetaInit(t *testing.T) {
	t.Parallel()
	sp := pySpelling
	for i, s := range pyStrings {
		o := pyStrings[(i+1)%len(pyStrings)]
		for _, ev := range []*event.SessionStart{
			{},
			{Prompt: s, Model: o},
			{Prompt: o, ParentAgent: s, Model: s, SessionID: o, Tools: []string{s, o}, Cwd: s, ParentToolID: o, Name: s, Description: o},
			{Tools: []string{s}},
			{Tools: []string{}},
			{Tools: []string{s}},
			{Tools: []string{s, o}},
			{ParentAgent: o, Name: s},
		} {
			checkMetaInit(t, &sp, s, ev)
		}
	}
}

func TestAppendErrorJSON(t *testing.T) {
	t.Parallel()
	for _, typ := range pyStrings {
		for _, msg := range pyStrings {
			got := appendErrorJSON([]byte("x"), typ, msg)
			if diff := cmp.Diff("x"+string(refErrorJSON(typ, msg)), string(got)); diff != "" {
				t.Fatalf("appendErrorJSON(%q, %q) (-encoding/json +append):\n%s", typ, msg, diff)
			}
		}
	}
}

func FuzzAppendMetaInit(f *testing.F) {
	for i, s := range pyStrings {
		f.Add(s, pyStrings[(i+1)%len(pyStrings)], "a\x00b", uint8(i))
	}
	sp := pySpelling
	f.Fuzz(func(t *testing.T, a, b, list string, mask uint8) {
		ev := &event.SessionStart{Prompt: a, Model: b}
		if mask&1 != 0 {
			ev.ParentAgent = b
		}
		if mask&2 != 0 {
			ev.SessionID, ev.Cwd = a, b
		}
		if mask&4 != 0 {
			ev.ParentToolID, ev.Name, ev.Description = b, a, b
		}
		if mask&8 != 0 {
			ev.Tools = strings.Split(list, "\x00")
		}
		checkMetaInit(t, &sp, a, ev)
		got := appendErrorJSON(nil, a, b)
		if diff := cmp.Diff(string(refErrorJSON(a, b)), string(got)); diff != "" {
			t.Fatalf("appendErrorJSON(%q, %q) (-encoding/json +append):\n%s", a, b, diff)
		}
	})
}

// checkErrorBlock checks errorBlock against the way it was written
// before appendErrorData: cdata, then formatter, over strings.
func checkErrorBlock(t *testing.T, data []byte) {
	t.Helper()
	var got, want bytes.Buffer
	NewEncoder(&got, nil).errorBlock(data)
	NewEncoder(&want, nil).formatter("<" + wire.TagError + "><![CDATA[" + cdata(string(data)) + "]]></" + wire.TagError + ">")
	if diff := cmp.Diff(want.String(), got.String()); diff != "" {
		t.Fatalf("errorBlock(%q) (-strings +append):\n%s", data, diff)
	}
}

var errorBlockInputs = []string{
	"", "]]>", "]]]>", "]]>]]>", "]]", "]", "a]]>b", `\`, `\\n`, "\r\n\n\r", `{"type": "x", "message": "a]]>\\b"}`, "é]]>\xff",
}

func TestErrorBlock(t *testing.T) {
	t.Parallel()
	for _, s := range errorBlockInputs {
		checkErrorBlock(t, []byte(s))
	}
}

func FuzzErrorBlock(f *testing.F) {
	for _, s := range errorBlockInputs {
		f.Add([]byte(s))
	}
	f.Fuzz(checkErrorBlock)
}

// checkMetaFinal checks AppendFinal against metaFinal's payload
// (encoding/json and pyJSON) made ASCII and HTML-escaped.
func checkMetaFinal(t *testing.T, ev *event.RunEnd) {
	t.Helper()
	data, own := metaFinal(ev)
	if own {
		t.Fatalf("metaFinal(%+v) is the producer's own", ev)
	}
	want := appendASCIIData([]byte("x"), data)
	got, ok := pySpelling.AppendFinal([]byte("x"), ev)
	if !ok {
		if c := ev.CostUSD; c == nil || !math.IsNaN(*c) && !math.IsInf(*c, 0) {
			t.Fatalf("AppendFinal(%+v) declined", ev)
		}
		return
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Fatalf("AppendFinal(%+v) (-encoding/json +append):\n%s", ev, diff)
	}
}

var metaFinalCosts = []float64{0, 0.00066, 1, 1.5, 12345.678, 1e-7, 1e21, 1e20, -2.5e-9, 123456789e-15, math.MaxFloat64, math.SmallestNonzeroFloat64, math.NaN(), math.Inf(1)}

func TestAppendMetaFinal(t *testing.T) {
	t.Parallel()
	for i, s := range pyStrings {
		o := pyStrings[(i+1)%len(pyStrings)]
		c := metaFinalCosts[i%len(metaFinalCosts)]
		for _, ev := range []*event.RunEnd{
			{},
			{StopReason: s, Result: o},
			{
				StopReason: s, Turns: i, DurationMS: int64(i) * 1000, CostUSD: &c, IsError: true, Errors: []string{s, o}, Result: s,
				Usage: &event.Usage{InputTokens: 1, OutputTokens: 2, CacheReadTokens: 3, CacheWriteTokens: 4, ReasoningTokens: 5, ServiceTier: o, Has: event.HasInput | event.HasOutput | event.HasCacheRead | event.HasCacheWrite | event.HasReasoning},
			},
			{Usage: &event.Usage{}, Errors: []string{}},
			{Usage: &event.Usage{ServiceTier: s}, CostUSD: &c},
			{Turns: -1, DurationMS: -5, Errors: []string{""}},
		} {
			checkMetaFinal(t, ev)
		}
	}
	for _, c := range metaFinalCosts {
		checkMetaFinal(t, &event.RunEnd{CostUSD: &c})
	}
}

func FuzzAppendMetaFinal(f *testing.F) {
	for i, s := range pyStrings {
		f.Add(s, pyStrings[(i+1)%len(pyStrings)], metaFinalCosts[i%len(metaFinalCosts)], int64(i), uint8(i))
	}
	f.Fuzz(func(t *testing.T, a, b string, cost float64, n int64, mask uint8) {
		ev := &event.RunEnd{StopReason: a, Result: b, Turns: int(n % 1000), DurationMS: n}
		if mask&1 != 0 {
			ev.CostUSD = &cost
		}
		if mask&2 != 0 {
			ev.Usage = &event.Usage{InputTokens: n, OutputTokens: n / 2, CacheReadTokens: n % 7, ServiceTier: b, Has: event.HasInput | event.HasOutput | event.HasCacheRead}
		}
		if mask&4 != 0 {
			ev.IsError, ev.Errors = true, []string{b, a}
		}
		checkMetaFinal(t, ev)
	})
}
